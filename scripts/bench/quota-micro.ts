// Micro-measures of the quota read's per-request items, the code of another checkout (say the
// code before a change) against this one, in one process, in interleaved rounds: CPU per call.
// On a shared machine these move far less than a whole request's CPU, which the machine's other
// load makes move by tens of percent (see docs/performance.md, "Quota and cached path").
// Usage: [TEST_DATABASE_URL=…] node --single-threaded-gc --max-semi-space-size=8 --import tsx scripts/bench/quota-micro.ts <other checkout>
// With a database URL, also the client-side CPU of a token look-up (10 at once, one statement each).
import { randomBytes } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { Counter, Histogram, Registry } from 'prom-client'
import postgres from 'postgres'
import type * as TokenFormatModule from '../../src/domain/token-format.ts'
import type * as RateLimitModule from '../../src/domain/rate-limit.ts'
import type * as TokensModule from '../../src/db/repositories/tokens.ts'

const OLD = process.argv[2]
const NEW = fileURLToPath(new URL('../../', import.meta.url))
if (!OLD) throw new Error('usage: quota-micro.ts <other checkout>')
const cpu = () => {
  const c = process.cpuUsage()
  return c.user + c.system
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
function report(name: string, unit: string, res: Record<string, number[]>) {
  const parts = Object.entries(res).map(
    ([k, v]) => `${k} ${median(v).toFixed(unit === 'ns' ? 0 : 1)} ${unit} (${v.map((x) => x.toFixed(0)).join(' ')})`,
  )
  process.stdout.write(`${name}: ${parts.join(' | ')}\n`)
}
function measure(name: string, fns: Record<string, () => void>, n = 200_000, rounds = 7) {
  const res: Record<string, number[]> = {}
  for (const f of Object.values(fns)) for (let i = 0; i < n / 10; i++) f()
  for (let r = 0; r < rounds; r++)
    for (const [k, f] of Object.entries(fns)) {
      const t0 = cpu()
      for (let i = 0; i < n; i++) f()
      ;(res[k] ??= []).push(((cpu() - t0) * 1000) / n)
    }
  report(name, 'ns', res)
}
type TokenFormat = typeof TokenFormatModule
type RateLimit = typeof RateLimitModule
const oldTF = (await import(`${OLD}/src/domain/token-format.ts`)) as TokenFormat
const newTF = (await import(`${NEW}/src/domain/token-format.ts`)) as TokenFormat
const token = newTF.generateToken('tea_live_')
let sink = 0
measure('token format check', {
  other: () => void (sink += oldTF.isWellFormedToken(token, 'tea_live_') ? 1 : 0),
  this: () => void (sink += newTF.isWellFormedToken(token, 'tea_live_') ? 1 : 0),
})
// prom-client's counter and histogram, as the metrics plugin used them per request, against this checkout's recorder.
const registry = new Registry()
const labelNames = ['route', 'method', 'status'] as const
const counter = new Counter({ name: 'c', help: 'c', labelNames, registers: [registry] })
const buckets = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const histogram = new Histogram({ name: 'h', help: 'h', labelNames, buckets, registers: [registry] })
const { createMetrics } = await import('../../src/plugins/app/metrics.ts')
const metrics = createMetrics()
const status = 200
measure('request metrics', {
  'prom-client': () => {
    const labels = { route: '/v1/quota', method: 'GET', status: String(status) }
    counter.inc(labels)
    histogram.observe(labels, 0.0012)
  },
  this: () => metrics.recordRequest('/v1/quota', 'GET', status, 0.0012),
})
const limits = { business: { perSecond: 1e6, burst: 1e6 } }
const oldRL = ((await import(`${OLD}/src/domain/rate-limit.ts`)) as RateLimit).createRateLimiter(limits)
const newRL = ((await import(`${NEW}/src/domain/rate-limit.ts`)) as RateLimit).createRateLimiter(limits)
const key = 'x'.repeat(64)
measure('burst limit', {
  other: () => void (sink += oldRL.take(key, 'business', Date.now())),
  this: () => void (sink += newRL.take(key, 'business', Date.now())),
})

const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL
if (server) {
  const { openDatabase } = await import('../../src/db/client.ts')
  const { createRepositories } = await import('../../src/db/repositories/index.ts')
  const { createAccount } = await import('../../src/domain/accounts.ts')
  const { createToken } = await import('../../src/domain/tokens.ts')
  type Tokens = typeof TokensModule
  const name = `tea_micro_${randomBytes(4).toString('hex')}`
  const admin = postgres(server, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database ${name}`)
  const url = Object.assign(new URL(server), { pathname: '/' + name }).toString()
  const db = await openDatabase({ databaseUrl: url, dataDir: 'unused', maxConnections: 10, statementTimeoutMs: 5000 })
  try {
    const deps = { repos: createRepositories(db.db), clock: () => new Date(), tokenPrefix: 'tea_live_' }
    const account = await createAccount(deps, { email: `${name}@example.com`, plan: 'business' })
    const hash = newTF.hashToken((await createToken(deps, account.id, 'micro')).token)
    const repos = {
      other: ((await import(`${OLD}/src/db/repositories/tokens.ts`)) as Tokens).createTokensRepository(db.db),
      this: ((await import(`${NEW}/src/db/repositories/tokens.ts`)) as Tokens).createTokensRepository(db.db),
    }
    const day = new Date().toISOString().slice(0, 10)
    const run = async (r: (typeof repos)['this'], n: number) => {
      let i = 0
      const one = async () => {
        while (i++ < n) if (!(await r.findActiveByHash(hash, day, new Date()))) throw new Error('token not found')
      }
      await Promise.all(Array.from({ length: 10 }, one))
    }
    for (const r of Object.values(repos)) await run(r, 5000)
    const res: Record<string, number[]> = {}
    for (let round = 0; round < 9; round++)
      for (const [k, r] of Object.entries(repos)) {
        const t0 = cpu()
        await run(r, 3000)
        ;(res[k] ??= []).push((cpu() - t0) / 3000)
      }
    report('token look-up, client side', 'µs', res)
  } finally {
    await db.close()
    await admin.unsafe(`drop database ${name} with (force)`)
    await admin.end()
  }
}
process.stdout.write(sink > 0 ? '' : '\n')
