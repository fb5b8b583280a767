// PostgreSQL backend CPU per hot-path statement, through the service's repositories and driver:
// `inflight` statements at a time over a postgres.js pool of `pool` connections, read from /proc
// for every backend of the pool (so PostgreSQL must run on this machine). Creates an account and
// a token in the database it is given; run it on a scratch database.
// Usage: npx tsx scripts/bench/pg-statements.ts <database url> [pool 10] [inflight 2] [statements 4000]
import { readFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import postgres from 'postgres'
import { drizzle } from 'drizzle-orm/postgres-js'
import { openDatabase, type Db } from '../../src/db/client.ts'
import * as schema from '../../src/db/schema/index.ts'
import { createRepositories } from '../../src/db/repositories/index.ts'
import { createTokensRepository } from '../../src/db/repositories/tokens.ts'
import { createUsageRepository } from '../../src/db/repositories/usage.ts'
import { createCacheRepository } from '../../src/db/repositories/cache.ts'
import { createAccount } from '../../src/domain/accounts.ts'
import { createToken, bearerTokenHash } from '../../src/domain/tokens.ts'
import { utcDay } from '../../src/domain/clock.ts'

const [url, poolArg, inflightArg, countArg] = process.argv.slice(2)
if (!url) throw new Error('usage: pg-statements.ts <database url> [pool] [inflight] [statements]')
const POOL = Number(poolArg ?? 10)
const IN_FLIGHT = Number(inflightArg ?? 2)
const COUNT = Number(countArg ?? 4000)

const setup = await openDatabase({ databaseUrl: url, dataDir: 'unused', maxConnections: 2 })
const deps = { repos: createRepositories(setup.db), clock: () => new Date(), tokenPrefix: 'tea_live_' }
const account = await createAccount(deps, { email: `pg-statements-${randomBytes(4).toString('hex')}@example.com`, plan: 'business' })
const token = (await createToken(deps, account.id, 'pg-statements')).token
await setup.close()

const sql = postgres(url, { max: POOL, onnotice: () => {} })
const db = drizzle(sql, { schema }) as unknown as Db
const tokens = createTokensRepository(db)
const usage = createUsageRepository(db, { asyncCommit: true })
const cache = createCacheRepository(db)
const hash = bearerTokenHash(`Bearer ${token}`, 'tea_live_')
const day = utcDay(new Date())

const cpuUs = (pid: number) => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(f[11]) + Number(f[12])) * 10_000
}
const statements: Record<string, () => Promise<unknown>> = {
  'token look-up (batched form)': () => tokens.findActiveByHashes([hash], day, new Date()),
  'token check and count of 5': () => usage.reserveWithToken(hash, account.id, day, new Date(), 5),
  // An uncached request's look-up and count: two statements, or one (a miss, as on the uncached path).
  'cache look-up (a miss)': () => cache.get(account.id, randomBytes(32).toString('hex'), new Date(Date.now() - 86_400_000)),
  'token check and count of 1': () => usage.reserveWithToken(hash, account.id, day, new Date(), 1),
  'token check, count of 1 and cache look-up (a miss)': () =>
    usage.reserveWithTokenLookingUp(
      hash,
      account.id,
      day,
      new Date(),
      1,
      [randomBytes(32).toString('hex')],
      new Date(Date.now() - 86_400_000),
    ),
}
for (const [name, run] of Object.entries(statements)) {
  // Every connection of the pool open and warm (its prepared statements made).
  await Promise.all(Array.from({ length: POOL * 3 }, run))
  const pids = (await sql<{ pid: number }[]>`select pid from pg_stat_activity where datname = current_database()`).map((r) => r.pid)
  const before = pids.reduce((s, p) => s + cpuUs(p), 0)
  let sent = 0
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (sent++ < COUNT) await run()
    }),
  )
  const used = pids.reduce((s, p) => s + cpuUs(p), 0) - before
  process.stdout.write(`${name}: ${(used / COUNT).toFixed(1)} µs of backend CPU per statement (pool ${POOL}, ${IN_FLIGHT} in flight)\n`)
}
await sql.end()
