// Deferred refunds at shutdown (src/domain/refunds.ts): retried until the deadline, and what
// could still not be written is handed over for the log, per account and day.
import t from 'tap'
import { createRefundQueue, summarizeRefunds } from '../../src/domain/refunds.ts'
import type { Repositories } from '../../src/db/repositories/index.ts'
import type { Reservation } from '../../src/domain/quota.ts'
import { buildApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { buildTestApp, manualClock } from '../helpers/app.ts'
import { Writable } from 'node:stream'

/** A usage repository whose refunds fail while `down` is true. */
function fakeRepos() {
  const written: string[] = []
  const state = { down: true, attempts: 0 }
  const repos = {
    usage: {
      async refund(accountId: string, day: string) {
        state.attempts++
        if (state.down) throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
        written.push(`${accountId} ${day}`)
        return 0
      },
    },
  } as unknown as Repositories
  return { repos, written, state }
}

const r = (accountId: string, day = '2026-11-22'): Reservation => ({ accountId, day, used: 1 })

t.test('close() retries until the database takes the refunds', async (t) => {
  const { repos, written, state } = fakeRepos()
  const lost: Reservation[][] = []
  const queue = createRefundQueue({ repos, onLost: (l) => lost.push(l), intervalMs: 60_000 })
  queue.defer(r('a'))
  queue.defer(r('b'))
  setTimeout(() => (state.down = false), 600)
  const left = await queue.close(Date.now() + 5000)
  t.equal(left, 0, 'all written')
  t.same(written, ['a 2026-11-22', 'b 2026-11-22'], 'in order')
  t.ok(state.attempts > 3, `retried (${state.attempts} attempts)`)
  t.same(lost, [], 'nothing lost')
})

t.test('close() gives up at the deadline and hands over what it could not write', async (t) => {
  const { repos, state } = fakeRepos()
  const lost: Reservation[][] = []
  const queue = createRefundQueue({ repos, onLost: (l) => lost.push(l), intervalMs: 60_000 })
  for (const id of ['a', 'a', 'b', 'a']) queue.defer(r(id))
  queue.defer(r('a', '2026-11-21'))
  const started = Date.now()
  const left = await queue.close(started + 1000)
  const took = Date.now() - started
  t.equal(left, 5)
  t.ok(took >= 700 && took < 1900, `retried until the deadline (${took} ms)`)
  t.ok(state.attempts > 2, `${state.attempts} attempts`)
  t.equal(lost.length, 1)
  t.same(summarizeRefunds(lost[0]), [
    { accountId: 'a', day: '2026-11-22', count: 3 },
    { accountId: 'b', day: '2026-11-22', count: 1 },
    { accountId: 'a', day: '2026-11-21', count: 1 },
  ])
  t.equal(queue.pending(), 0)
})

t.test('the application: at close, refunds the database does not take are retried, then logged without secrets', async (t) => {
  const clock = manualClock()
  const h = await buildTestApp(t, { clock })
  const { account, token } = await h.account('free')
  t.equal((await h.app.inject({ url: '/v1/quota', headers: { authorization: `Bearer ${token}` } })).statusCode, 200)
  const used = await h.repos.usage.reserve(account.id, '2026-11-22', 100)
  t.equal(used, 1)

  // A second application on the same database, logging into a buffer, whose refunds fail.
  const lines: string[] = []
  const stream = new Writable({ write: (c, _e, cb) => (lines.push(c.toString()), cb()) })
  const config = { ...loadConfig({ ANALYSIS_WORKERS: '0' }), shutdownGraceMs: 1600 }
  // A grace period far longer than the two failed attempts and their pauses take, however late this
  // machine fires timers: close() returns as soon as the refund is written, so it costs nothing.
  const patient = { ...config, shutdownGraceMs: 120_000 }
  const app = await buildApp({ config: patient, database: h.database, clock, logger: { level: 'info', stream } })
  await app.ready()
  const refund = app.repos.usage.refund
  let failures = 0
  app.repos.usage.refund = async (...args) => {
    if (failures < 2) {
      failures++
      throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
    }
    return refund(...args)
  }
  app.refunds.defer({ accountId: account.id, day: '2026-11-22', used: 1 })
  await app.close()
  t.equal(await h.repos.usage.usedOn(account.id, '2026-11-22'), 0, 'the refund was written on a later attempt')
  t.equal(failures, 2, 'after two failed attempts')
  t.notMatch(lines.join(''), /refunds not written/, 'nothing to log')

  const again = await buildApp({ config, database: h.database, clock, logger: { level: 'info', stream } })
  await again.ready()
  again.repos.usage.refund = async () => {
    throw Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
  }
  for (let i = 0; i < 3; i++) again.refunds.defer({ accountId: account.id, day: '2026-11-22', used: 1 })
  const started = Date.now()
  await again.close()
  const took = Date.now() - started
  t.ok(took < config.shutdownGraceMs, `closed within the grace period (${took} ms)`)
  const logged = lines.map((l) => JSON.parse(l)).find((l) => /refunds not written/.test(l.msg))
  t.ok(logged, 'the refunds it could not write are logged')
  t.same(logged?.counts, [{ accountId: account.id, day: '2026-11-22', count: 3 }], 'per account and day')
  t.equal(logged?.refundsNotWritten, 3)
  t.notMatch(lines.join(''), new RegExp(token), 'no token in the log')
})
