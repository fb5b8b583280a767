// Faults: the database stopped under load and started again, a client that hangs up
// mid-request. (A worker killed mid-analysis: pool.test.ts; SIGTERM: shutdown.test.ts.)
import t from 'tap'
import { existsSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import path from 'node:path'
import { buildTestApp, englishText, manualClock } from '../helpers/app.ts'
import { openDatabase } from '../../src/db/client.ts'
import { createPoolAnalyzer } from '../../src/analysis/pool.ts'
import { startThrowawayPostgres, throwawayPostgresUnavailable } from './helpers/throwaway-postgres.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
// The apps run on a fixed noon, so that every count lands on one UTC day whenever the test runs.
const clock = manualClock()
const today = () => '2026-11-22'

async function until(cond: () => boolean | Promise<boolean>, what: string, ms = 20_000) {
  const end = Date.now() + ms
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await sleep(20)
  }
}

const unavailable = throwawayPostgresUnavailable()
// An unhandled rejection ends a server process: none may happen, whatever the outage hits.
const unhandled: unknown[] = []
process.on('unhandledRejection', (reason) => {
  unhandled.push(reason)
})
t.test(
  'PostgreSQL stopped under load: bounded 503s, no 500, no over-counting, recovery without restart',
  { skip: unavailable },
  async (t) => {
    const pg = await startThrowawayPostgres()
    t.teardown(() => pg.destroy())
    const database = await openDatabase({ databaseUrl: pg.url, dataDir: 'unused', maxConnections: 10 })
    t.teardown(() => database.close())
    const h = await buildTestApp(t, { database, clock })
    // Business (50,000 a day): the load below must never meet the daily limit, or 429s would
    // hide the recovery this test looks for.
    const { account, token } = await h.account('business')
    const headers = { authorization: `Bearer ${token}` }

    type Sample = { at: number; ms: number; status: number; code?: string; retryAfter?: string; route: string }
    const samples: Sample[] = []
    let running = true
    let analyzed = 0
    const client = async (id: number) => {
      for (let i = 0; running; i++) {
        const analyze = i % 3 !== 2
        const started = Date.now()
        const res = analyze
          ? await h.app.inject({ method: 'POST', url: '/v1/analyze', headers, payload: { text: englishText((id * 7 + i) % 40) } })
          : await h.app.inject({ url: '/v1/quota', headers })
        const body = res.headers['content-type']?.toString().startsWith('application/json') ? res.json() : {}
        samples.push({
          at: started,
          ms: Date.now() - started,
          status: res.statusCode,
          code: body.code,
          retryAfter: res.headers['retry-after'],
          route: analyze ? 'analyze' : 'quota',
        })
        if (analyze && res.statusCode === 200) analyzed++
        // While the database is down, a client backs off a little, as Retry-After asks.
        if (res.statusCode === 503) await sleep(50)
      }
    }
    const clients = Array.from({ length: 8 }, (_, id) => client(id))

    // Stopped as soon as an analysis is served: the pool is usually still opening connections
    // then, and a connection lost while it opens must fail its statement, not the process.
    await until(() => analyzed > 0, 'analyses served before the stop', 120_000)
    const servedBeforeStop = analyzed
    const stoppedAt = Date.now()
    await pg.stop()
    const downSince = Date.now()
    t.comment(`PostgreSQL stopped in ${downSince - stoppedAt} ms`)
    // Every request started once the server is down is answered 503 DATABASE_UNAVAILABLE promptly;
    // samples are recorded when answered, so those seen before the restart were answered while down.
    const outage = () => samples.filter((s) => s.at >= downSince)
    await sleep(2000)
    await until(() => outage().length > 10, 'requests answered while the database is down', 120_000)
    const duringOutage = outage()
    await pg.start()
    const restartedAt = Date.now()
    await until(() => samples.some((s) => s.at > restartedAt && s.status === 200 && s.route === 'analyze'), 'a 200 after the restart')
    const recoveredAfterMs = Date.now() - restartedAt
    await sleep(1000)
    running = false
    await Promise.all(clients)

    t.ok(servedBeforeStop > 0, `served ${servedBeforeStop} analyses before the stop`)
    t.ok(duringOutage.length > 10, `${duringOutage.length} requests while the database was down`)
    t.same(
      [...new Set(duringOutage.map((s) => `${s.status} ${s.code}`))],
      ['503 DATABASE_UNAVAILABLE'],
      'all of them 503 DATABASE_UNAVAILABLE',
    )
    t.ok(
      duringOutage.every((s) => s.retryAfter === '5'),
      'with Retry-After',
    )
    const slowest = Math.max(...samples.map((s) => s.ms))
    t.ok(
      slowest < 15_000,
      `no request hung: the slowest took ${slowest} ms (the connect timeout is 5 s; the bound leaves room for a loaded machine)`,
    )
    t.equal(samples.filter((s) => s.status >= 500 && s.status !== 503).length, 0, 'no 500 at all')
    t.ok(recoveredAfterMs < 15_000, `recovered ${recoveredAfterMs} ms after the restart, same process`)

    // Refunds that could not be written during the outage are written once it answers again.
    await until(() => h.app.refunds.pending() === 0, 'deferred refunds to be written')
    const counted = await h.repos.usage.usedOn(account.id, today())
    t.equal(counted, analyzed, `exactly the ${analyzed} answered analyses are counted (none over-counted)`)
    t.equal((await h.app.inject({ url: '/readyz' })).statusCode, 200, 'ready again')
    t.same(
      unhandled.map((e) => (e as { code?: string }).code ?? String(e)),
      [],
      'no unhandled rejection',
    )
  },
)

t.test(
  'a client that disconnects: counted once its extraction started, else refunded; costs no worker; a queued analysis is skipped',
  async (t) => {
    const analyzer = await createPoolAnalyzer({
      workers: 1,
      queueMax: 4,
      timeoutMs: 20_000,
      filename: new URL('../fixtures/workers/scripted-worker.mjs', import.meta.url).href,
    })
    const h = await buildTestApp(t, { analyzer, clock })
    const { account, token } = await h.account('free')
    await h.app.listen({ port: 0, host: '127.0.0.1' })
    const port = (h.app.server.address() as { port: number }).port
    const used = () => h.repos.usage.usedOn(account.id, today())

    /** Sends an analysis over a real socket; `hangUp` destroys the socket (the client goes). */
    const send = (text: string) => {
      const body = JSON.stringify({ text })
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/analyze',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      })
      const done = new Promise<number | 'hung up'>((resolve) => {
        req.on('response', (res) => {
          res.resume()
          res.on('end', () => resolve(res.statusCode!))
        })
        req.on('error', () => resolve('hung up'))
      })
      req.end(body)
      return { done, hangUp: () => req.destroy() }
    }

    const workers = () => analyzer.pool.threads.map((w) => w.threadId)
    const before = workers()
    const marker = path.join(t.testdir(), 'queued-ran')
    // Running until this test releases it, however slow the machine: the second one stays queued.
    const release = path.join(t.testdir(), 'release')
    const running = send(`[until:${release}] ${englishText(1)}`)
    await until(() => analyzer.stats!().utilization === 1, 'the analysis to run')
    const queued = send(`[touch:${marker}] ${englishText(2)}`)
    await until(() => analyzer.stats!().queued === 1, 'the second analysis to queue')
    t.equal(await used(), 2, 'both counted while in progress')
    running.hangUp()
    queued.hangUp()
    t.equal(await running.done, 'hung up')
    t.equal(await queued.done, 'hung up')
    await until(async () => (await used()) === 1, 'the refund of the queued one')
    writeFileSync(release, '')
    await until(
      () => analyzer.stats!().utilization === 0 && analyzer.stats!().queued === 0,
      'the running analysis to finish, the queued one to be skipped',
    )
    t.equal(await used(), 1, 'the one whose extraction had started counts (the work was done); the queued one does not')
    t.notOk(existsSync(marker), 'the queued analysis of the client that went never ran')
    t.same(workers(), before, 'the worker that was running the abandoned analysis was kept, not replaced')

    const kept = send(`[touch:${marker}] ${englishText(3)}`)
    t.equal(await kept.done, 200, 'a client that waits is served')
    t.ok(existsSync(marker), 'its analysis ran')
    t.equal(await used(), 2, 'and counted')
    const metrics = (await h.app.inject({ url: '/metrics' })).body
    t.notMatch(metrics, /status="5\d\d"/, 'no 5xx recorded for the hang-ups')
  },
)
