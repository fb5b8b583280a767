// PostgreSQL backend CPU per hot-path statement, through the service's repositories and driver:
// `inflight` statements at a time over a postgres.js pool of `pool` connections, read from /proc
// for every backend of the pool (so PostgreSQL must run on this machine). Creates an account and
// a token in the database it is given; run it on a scratch database.
// Usage: npx tsx scripts/bench/pg-statements.ts <database url> [pool 10] [inflight 2] [statements 4000] [rounds 1] [names]
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

const [url, poolArg, inflightArg, countArg, roundsArg, onlyArg] = process.argv.slice(2)
if (!url) throw new Error('usage: pg-statements.ts <database url> [pool] [inflight] [statements]')
const POOL = Number(poolArg ?? 10)
const IN_FLIGHT = Number(inflightArg ?? 2)
const COUNT = Number(countArg ?? 4000)
/** Rounds of every statement in turn, and a filter on their names (comma-separated parts). */
const ROUNDS = Number(roundsArg ?? 1)
const ONLY = onlyArg?.split(',')

const setup = await openDatabase({ databaseUrl: url, dataDir: 'unused', maxConnections: 2 })
const deps = { repos: createRepositories(setup.db), clock: () => new Date(), tokenPrefix: 'tea_live_' }
const account = await createAccount(deps, { email: `pg-statements-${randomBytes(4).toString('hex')}@example.com`, plan: 'business' })
const token = (await createToken(deps, account.id, 'pg-statements')).token
await setup.close()

const sql = postgres(url, { max: POOL, onnotice: () => {} })
const db = drizzle(sql, { schema }) as unknown as Db
const tokens = createTokensRepository(db)
const usage = createUsageRepository(db, { asyncCommit: true })
// The service's counts on PostgreSQL: on a second pool whose sessions commit asynchronously
// (src/db/client.ts), without the `set_config` of the form above.
const asyncSql = postgres(url, { max: POOL, onnotice: () => {}, connection: { synchronous_commit: 'off' } })
const asyncUsage = createUsageRepository(db, { asyncCommit: true, asyncDb: drizzle(asyncSql, { schema }) })
const cache = createCacheRepository(db)
const hash = bearerTokenHash(`Bearer ${token}`, 'tea_live_')
const day = utcDay(new Date())

/** A backend's CPU time in µs, from the scheduler's nanosecond count (a backend that has exited: 0). */
const cpuUs = (pid: number) => {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1000
  } catch {
    return 0
  }
}
const statements: Record<string, () => Promise<unknown>> = {
  'token look-up (batched form)': () => tokens.findActiveByHashes([hash], day, new Date()),
  'token check and count of 5, set_config': () => usage.reserveWithToken(hash, account.id, day, new Date(), 5),
  'token check and count of 5, asynchronous pool': () => asyncUsage.reserveWithToken(hash, account.id, day, new Date(), 5),
  // An uncached request's look-up and count: two statements, or one (a miss, as on the uncached path).
  'cache look-up (a miss)': () => cache.get(account.id, randomBytes(32).toString('hex'), new Date(Date.now() - 86_400_000)),
  'token check and count of 1': () => asyncUsage.reserveWithToken(hash, account.id, day, new Date(), 1),
  'token check, count of 1 and cache look-up (a miss)': () =>
    asyncUsage.reserveWithTokenLookingUp(
      hash,
      account.id,
      day,
      new Date(),
      1,
      [randomBytes(32).toString('hex')],
      new Date(Date.now() - 86_400_000),
    ),
}
const selected = Object.entries(statements).filter(([name]) => !ONLY || ONLY.some((o) => name.includes(o)))
// Every connection of the pools open and warm (their prepared statements made).
for (const [, run] of selected) await Promise.all(Array.from({ length: POOL * 3 }, run))
const perStatement = new Map<string, number[]>()
// The statements in turn, round after round: the machine's load moves from one minute to the next.
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, run] of selected) {
    const pids = (await sql<{ pid: number }[]>`select pid from pg_stat_activity where datname = current_database()`).map((r) => r.pid)
    const before = pids.reduce((s, p) => s + cpuUs(p), 0)
    let sent = 0
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        while (sent++ < COUNT) await run()
      }),
    )
    const used = pids.reduce((s, p) => s + cpuUs(p), 0) - before
    perStatement.set(name, [...(perStatement.get(name) ?? []), used / COUNT])
  }
}
for (const [name, us] of perStatement) {
  const median = [...us].sort((a, b) => a - b)[us.length >> 1]
  process.stdout.write(
    `${name}: ${median.toFixed(1)} µs of backend CPU per statement, median of ${us.length} (${us.map((u) => u.toFixed(1)).join(', ')}; pool ${POOL}, ${IN_FLIGHT} in flight)\n`,
  )
}
await Promise.all([sql.end(), asyncSql.end()])
