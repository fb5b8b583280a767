// A PostgreSQL server that stops answering (frozen with SIGSTOP, as a hung machine would be)
// and one out of connections: the API answers 503 DATABASE_UNAVAILABLE within the statement
// deadline, never hangs and never answers 500, and the node recovers without a restart.
// Each on a throwaway server of its own (the shared one is never frozen or exhausted).
import t from 'tap'
import postgres from 'postgres'
import { buildTestApp, englishText, manualClock } from '../helpers/app.ts'
import { openDatabase } from '../../src/db/client.ts'
import { startThrowawayPostgres, throwawayPostgresUnavailable } from './helpers/throwaway-postgres.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const clock = manualClock()
const today = '2026-11-22'
/** The deadline under test; every time bound below is derived from it. */
const TIMEOUT_MS = 1000

async function until(cond: () => boolean | Promise<boolean>, what: string, ms: number) {
  const end = Date.now() + ms
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await sleep(20)
  }
}

const unavailable = throwawayPostgresUnavailable()

t.test(
  'PostgreSQL frozen: 503 DATABASE_UNAVAILABLE within the deadline, no count kept for a 503, recovery after SIGCONT',
  { skip: unavailable },
  async (t) => {
    const pg = await startThrowawayPostgres()
    t.teardown(() => pg.destroy())
    const database = await openDatabase({ databaseUrl: pg.url, dataDir: 'unused', maxConnections: 4, statementTimeoutMs: TIMEOUT_MS })
    t.teardown(() => database.close())
    const h = await buildTestApp(t, { database, clock, config: { databaseTimeoutMs: TIMEOUT_MS } })
    const { account, token } = await h.account('business')
    const headers = { authorization: `Bearer ${token}` }
    const analyze = (n: number) => h.app.inject({ method: 'POST', url: '/v1/analyze', headers, payload: { text: englishText(n) } })
    const quota = () => h.app.inject({ url: '/v1/quota', headers })

    let served = 0
    for (let i = 0; i < 3; i++) {
      t.equal((await analyze(i)).statusCode, 200, 'served before the freeze')
      served++
    }
    t.equal((await quota()).statusCode, 200)

    pg.signal('SIGSTOP')
    let frozen = true
    t.teardown(() => frozen && pg.signal('SIGCONT'))
    // A guard far past the bound, so that a request that hangs fails the test instead of stalling it.
    const guard = TIMEOUT_MS * 10
    const timed = async (route: string, send: () => ReturnType<typeof quota>) => {
      const started = performance.now()
      const res = await Promise.race([send(), sleep(guard).then(() => undefined)])
      return {
        route,
        ms: performance.now() - started,
        status: res?.statusCode ?? 'hung',
        code: res ? res.json<{ code?: string }>().code : undefined,
        retryAfter: res?.headers['retry-after'],
      }
    }
    // A timer set for the deadline at the same moment shows how late this machine runs timers.
    const probeStarted = performance.now()
    const probe = sleep(TIMEOUT_MS).then(() => performance.now() - probeStarted)
    // New texts (a statement per request), texts already analysed (cache hits) and quota reads,
    // all at once: more statements than the pool has connections, so some wait for one.
    const during = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => timed('analyze', () => analyze(100 + i))),
      ...Array.from({ length: 2 }, (_, i) => timed('analyze (cached)', () => analyze(i))),
      ...Array.from({ length: 3 }, () => timed('quota', quota)),
    ])
    const timerFiredAfter = await probe
    for (const r of during) {
      t.same([r.status, r.code, r.retryAfter], [503, 'DATABASE_UNAVAILABLE', '5'], `${r.route}: 503 DATABASE_UNAVAILABLE with Retry-After`)
      // One deadline (as late as this machine fires timers) and the request's own work, less than
      // a second deadline: a request that waited out two in a row would take at least this long.
      // The own work is not bounded tighter: on a loaded machine the eleven requests queue for the
      // main thread, and that wait is the machine's, not the deadline's.
      t.ok(
        r.ms < timerFiredAfter + TIMEOUT_MS,
        `${r.route}: answered in ${Math.round(r.ms)} ms (deadline ${TIMEOUT_MS} ms; a timer for it fired after ${Math.round(timerFiredAfter)} ms)`,
      )
    }
    // The readiness probe says so too.
    t.equal((await timed('readyz', () => h.app.inject({ url: '/readyz' }))).status, 503, 'not ready while frozen')

    pg.signal('SIGCONT')
    frozen = false
    const resumedAt = Date.now()
    // The same process serves again: the connections that were waiting on the frozen server are
    // freed when it answers, and the pool is not left wedged.
    await until(async () => (await analyze(200)).statusCode === 200, 'a 200 after SIGCONT', TIMEOUT_MS * 10)
    served++
    t.comment(`served again ${Date.now() - resumedAt} ms after SIGCONT`)
    for (let i = 0; i < 8; i++) {
      const res = await analyze(300 + i)
      t.equal(res.statusCode, 200)
      if (res.statusCode === 200) served++
    }
    t.equal((await quota()).statusCode, 200, 'quota answers again')

    // A count the frozen server applied after its request was answered 503 is taken back: once
    // the late statements and their refunds are done, exactly the served requests are counted.
    await until(async () => (await h.repos.usage.usedOn(account.id, today)) === served, `used = ${served}`, TIMEOUT_MS * 10).catch(() => {})
    t.equal(await h.repos.usage.usedOn(account.id, today), served, `exactly the ${served} served analyses are counted`)
  },
)

t.test('PostgreSQL out of connections (53300): 503 DATABASE_UNAVAILABLE, never 500', { skip: unavailable }, async (t) => {
  // Five connections in all, none kept for superusers: the app keeps one, the rest are taken.
  const pg = await startThrowawayPostgres({ max_connections: 5, superuser_reserved_connections: 0 })
  t.teardown(() => pg.destroy())
  const database = await openDatabase({ databaseUrl: pg.url, dataDir: 'unused', maxConnections: 4, statementTimeoutMs: TIMEOUT_MS })
  t.teardown(() => database.close())
  const h = await buildTestApp(t, { database, clock, config: { databaseTimeoutMs: TIMEOUT_MS } })
  const { token } = await h.account('business')
  const headers = { authorization: `Bearer ${token}` }
  t.equal((await h.app.inject({ url: '/v1/quota', headers })).statusCode, 200)

  // Another client takes every connection left.
  const hog = postgres(pg.url, { max: 5, onnotice: () => {} })
  t.teardown(() => hog.end({ timeout: 1 }))
  const held = await Promise.allSettled(Array.from({ length: 5 }, () => hog.reserve()))
  t.ok(
    held.some((r) => r.status === 'rejected' && (r.reason as { code?: string }).code === '53300'),
    'the server is out of connections (53300)',
  )

  const started = performance.now()
  const results = await Promise.all(
    Array.from({ length: 24 }, (_, i) =>
      i % 2
        ? h.app.inject({ url: '/v1/quota', headers })
        : h.app.inject({ method: 'POST', url: '/v1/analyze', headers, payload: { text: englishText(i) } }),
    ),
  )
  t.comment(`all answered in ${Math.round(performance.now() - started)} ms`)
  const statuses = results.map((r) => `${r.statusCode} ${r.statusCode === 200 ? '' : r.json<{ code: string }>().code}`.trim())
  const seen = [...new Set(statuses)].sort()
  t.comment(`answers: ${seen.join(', ')}`)
  t.ok(statuses.includes('503 DATABASE_UNAVAILABLE'), 'requests that needed another connection: 503 DATABASE_UNAVAILABLE')
  t.same(
    seen.filter((s) => s !== '200' && s !== '503 DATABASE_UNAVAILABLE'),
    [],
    'nothing but 200 (the connection the app kept) and 503',
  )
  for (const r of held) if (r.status === 'fulfilled') r.value.release()
  await hog.end({ timeout: 1 })
  const after = await h.app.inject({ url: '/v1/quota', headers })
  t.equal(after.statusCode, 200, 'served again once connections are free')
})
