import t from 'tap'
import { buildTestApp, englishText, manualClock, DRIVERS } from '../helpers/app.ts'
import { createToken } from '../../src/domain/tokens.ts'
import { changePlan } from '../../src/domain/billing.ts'

const analyze = (h: Awaited<ReturnType<typeof buildTestApp>>, token: string, n = 0) =>
  h.app.inject({ method: 'POST', url: '/v1/analyze', headers: { authorization: `Bearer ${token}` }, payload: { text: englishText(n) } })
const quota = (h: Awaited<ReturnType<typeof buildTestApp>>, token: string) =>
  h.app.inject({ method: 'GET', url: '/v1/quota', headers: { authorization: `Bearer ${token}` } })

t.test('GET /v1/quota reports the plan, is never counted, and carries the headers', async (t) => {
  const clock = manualClock(new Date('2026-11-22T18:30:00Z'))
  const h = await buildTestApp(t, { clock })
  const { token } = await h.account('starter')
  for (let i = 0; i < 3; i++) await quota(h, token)
  const res = await quota(h, token)
  t.equal(res.statusCode, 200)
  t.same(res.json(), { plan: 'starter', daily: { limit: 1000, used: 0, remaining: 1000 }, resetAt: '2026-11-23T00:00:00Z' })
  t.equal(res.headers['x-ratelimit-limit'], '1000')
  t.equal(res.headers['x-ratelimit-remaining'], '1000')
  t.equal(res.headers['x-ratelimit-reset'], String(Date.parse('2026-11-23T00:00:00Z') / 1000))
})

for (const driver of DRIVERS) {
  t.test(`the quota is per account, shared by its tokens, exact at the limit, and resets at midnight UTC (${driver})`, async (t) => {
    const clock = manualClock(new Date('2026-11-22T23:00:00Z'))
    const h = await buildTestApp(t, { clock, driver })
    const { account, token } = await h.account('free')
    const second = await createToken({ repos: h.repos, clock, tokenPrefix: 'tea_live_' }, account.id, 'second')
    const other = await h.account('free')
    // Fill the day up to 98 directly; the last two go through the API, one per token.
    for (let i = 0; i < 98; i++) await h.repos.usage.reserve(account.id, '2026-11-22', 100)
    t.equal((await analyze(h, token, 1)).statusCode, 200)
    const last = await analyze(h, second.token, 1)
    t.equal(last.statusCode, 200, 'the second token draws on the same quota')
    t.equal(last.headers['x-ratelimit-remaining'], '0')

    const over = await analyze(h, token, 1)
    t.equal(over.statusCode, 429)
    const retryAfter = 3600
    t.same(over.json(), {
      error: 'Rate Limited',
      code: 'QUOTA_EXCEEDED',
      message: 'Daily quota of 100 requests exceeded; it resets at 2026-11-23T00:00:00Z',
      retryAfter,
    })
    t.equal(over.headers['retry-after'], String(retryAfter))
    t.equal(over.headers['x-ratelimit-remaining'], '0')
    t.equal((await analyze(h, second.token, 2)).statusCode, 429, 'every token of the account is refused')
    t.equal((await analyze(h, other.token, 1)).statusCode, 200, 'another account is unaffected')

    const q = (await quota(h, token)).json()
    t.same(q.daily, { limit: 100, used: 100, remaining: 0 }, 'quota still answers when exhausted; 429s not counted')

    const badWhenFull = await h.app.inject({
      method: 'POST',
      url: '/v1/analyze',
      headers: { authorization: `Bearer ${token}` },
      payload: { text: 'short' },
    })
    t.equal(badWhenFull.statusCode, 400, 'invalid input is a 400 even when the quota is spent (400 before 429)')

    clock.set('2026-11-23T00:00:00Z')
    const fresh = await analyze(h, token, 1)
    t.equal(fresh.statusCode, 200, 'a new UTC day, a new quota')
    t.equal(fresh.headers['x-ratelimit-remaining'], '99')
    t.equal(fresh.headers['x-ratelimit-reset'], String(Date.parse('2026-11-24T00:00:00Z') / 1000))
  })

  t.test(`150 concurrent requests against 99 remaining: exactly 99 succeed (${driver})`, async (t) => {
    const h = await buildTestApp(t, { driver, clock: manualClock() }) // noon: one UTC day throughout
    const { account, token } = await h.account('free')
    const day = '2026-11-22'
    await h.repos.usage.reserve(account.id, day, 100)
    const results = await Promise.all(Array.from({ length: 150 }, (_, i) => analyze(h, token, i % 5)))
    const codes = results.map((r) => r.statusCode)
    t.equal(codes.filter((c) => c === 200).length, 99, '99 × 200')
    t.equal(codes.filter((c) => c === 429).length, 51, '51 × 429')
    t.equal(await h.repos.usage.usedOn(account.id, day), 100, 'the counter ends exactly at the limit')
  })
}

t.test('a plan upgrade applies at once to today’s count', async (t) => {
  const clock = manualClock(new Date('2026-11-22T10:00:00Z'))
  const h = await buildTestApp(t, { clock })
  const { account, token } = await h.account('free')
  for (let i = 0; i < 100; i++) await h.repos.usage.reserve(account.id, '2026-11-22', 100)
  t.equal((await analyze(h, token)).statusCode, 429)
  await changePlan({ repos: h.repos, clock }, account.id, 'starter')
  const res = await analyze(h, token)
  t.equal(res.statusCode, 200, 'the next call succeeds')
  t.equal(res.headers['x-ratelimit-limit'], '1000')
  t.equal(res.headers['x-ratelimit-remaining'], '899')
  t.same((await quota(h, token)).json().plan, 'starter')
})

t.test('a downgrade waits for the next billing cycle', async (t) => {
  const clock = manualClock(new Date('2026-11-22T10:00:00Z'))
  const h = await buildTestApp(t, { clock })
  const { account, token } = await h.account('pro')
  const { quote } = await changePlan({ repos: h.repos, clock }, account.id, 'starter')
  t.equal(quote.kind, 'downgrade_scheduled')
  t.equal((await quota(h, token)).json().plan, 'pro', 'still pro this cycle')
  clock.set(quote.effectiveAt)
  t.equal((await quota(h, token)).json().plan, 'starter', 'starter from the next cycle start')
  t.equal((await quota(h, token)).json().daily.limit, 1000)
})

t.test('revocation is immediate', async (t) => {
  const h = await buildTestApp(t)
  const { token, tokenId } = await h.account('free')
  t.equal((await quota(h, token)).statusCode, 200)
  const { revokeToken } = await import('../../src/domain/tokens.ts')
  await revokeToken({ repos: h.repos, clock: () => new Date(), tokenPrefix: 'tea_live_' }, tokenId)
  t.equal((await quota(h, token)).statusCode, 401)
  await t.rejects(
    revokeToken({ repos: h.repos, clock: () => new Date(), tokenPrefix: 'tea_live_' }, tokenId),
    { code: 'TOKEN_ALREADY_REVOKED' },
    'permanent',
  )
})
