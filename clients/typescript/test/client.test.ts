// The client against the real application on a real port: typed calls, the quota headers, and
// typed errors as the server sends them.
import t from 'tap'
import { buildTestApp, englishText, manualClock } from '../../../test/helpers/app.ts'
import { BadRequestError, createTeaClient, isApiError, QuotaExceededError, UnauthorizedError } from '../src/index.ts'

t.test('the client against a live server', async (t) => {
  // A fixed noon: the quota resets in exactly 12 h, and no run can straddle midnight.
  const h = await buildTestApp(t, { clock: manualClock(new Date('2026-11-22T12:00:00Z')) })
  const baseUrl = await h.app.listen({ port: 0, host: '127.0.0.1' })
  const { account, token } = await h.account('free')
  const requests: string[] = []
  const counting = (request: Request) => {
    requests.push(`${request.method} ${new URL(request.url).pathname}`)
    return fetch(request)
  }
  const tea = createTeaClient({ baseUrl: baseUrl + '/', token, fetch: counting })
  const midnight = new Date('2026-11-23T00:00:00Z')

  const r = await tea.analyze({ text: englishText(8), options: { maxEntitiesPerType: 3 } })
  t.equal(r.status, 200)
  t.ok(r.data.entities.persons.length <= 3)
  t.ok(r.data.entities.persons.includes('Tim Cook'))
  t.same(r.rateLimit, { limit: 100, remaining: 99, reset: midnight }, 'the quota headers, parsed')
  t.match(r.requestId, /\S/)
  const q = await tea.quota()
  t.same(q.data.daily, { limit: 100, used: 1, remaining: 99 })
  t.equal(q.data.resetAt, '2026-11-23T00:00:00Z')

  const short = await tea.analyze({ text: 'Too short.' }).catch((e) => e)
  t.type(short, BadRequestError)
  t.equal(short.code, 'TEXT_TOO_SHORT')
  t.equal(short.rateLimit?.remaining, 99, 'errors carry the quota headers too')

  const anonymous = await createTeaClient({ baseUrl, token: token.slice(0, -1) + (token.endsWith('a') ? 'b' : 'a') })
    .quota()
    .catch((e) => e)
  t.type(anonymous, UnauthorizedError)
  t.equal(anonymous.code, 'INVALID_TOKEN')
  t.equal(anonymous.rateLimit, undefined, 'a 401 has no quota headers')

  // The quota used up: the 429 comes back at once, one request, typed, with when it resets.
  for (let i = 0; i < 99; i++) await h.repos.usage.reserve(account.id, '2026-11-22', 100)
  requests.length = 0
  const err = await tea.analyze({ text: englishText(9) }).catch((e) => e)
  t.type(err, QuotaExceededError)
  t.ok(isApiError(err))
  if (isApiError(err) && err.code === 'QUOTA_EXCEEDED') {
    t.equal(err.retryAfter, 12 * 3600)
    t.same(err.resetAt, midnight)
    t.equal(err.status, 429)
    t.equal(err.rateLimit?.remaining, 0)
  }
  t.same(requests, ['POST /v1/analyze'], 'one request: not retried')
})
