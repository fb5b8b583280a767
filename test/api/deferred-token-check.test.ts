// POST /v1/analyze checks a token this node has already seen together with the statement that
// counts the request (src/plugins/app/auth.ts). The contract is unchanged: a revoked token is
// refused at once and never counted, 401 comes before 400 and 429, quota headers are exact,
// and such a request costs one statement instead of two.
import t from 'tap'
import { buildTestApp, englishText, manualClock, DRIVERS } from '../helpers/app.ts'
import { revokeToken } from '../../src/domain/tokens.ts'
import { changePlan } from '../../src/domain/billing.ts'

type Harness = Awaited<ReturnType<typeof buildTestApp>>
const post = (h: Harness, token: string, payload: unknown, headers: Record<string, string> = {}) =>
  h.app.inject({
    method: 'POST',
    url: '/v1/analyze',
    headers: { authorization: `Bearer ${token}`, ...headers },
    payload: payload as object,
  })

for (const driver of DRIVERS) {
  t.test(`a known token is checked by the reservation itself (${driver})`, async (t) => {
    const clock = manualClock(new Date('2026-11-22T12:00:00Z'))
    const h = await buildTestApp(t, { clock, driver })
    const { account, token, tokenId } = await h.account('free')
    const deps = { repos: h.repos, clock, tokenPrefix: 'tea_live_' }

    // Count the statements the app sends for token look-ups and reservations.
    const counts = { lookups: 0, reservations: 0, withToken: 0 }
    const { tokens, usage } = h.app.repos
    const findActiveByHash = tokens.findActiveByHash
    tokens.findActiveByHash = (...a) => (counts.lookups++, findActiveByHash(...a))
    const reserve = usage.reserve
    usage.reserve = (...a) => (counts.reservations++, reserve(...a))
    const reserveWithToken = usage.reserveWithToken
    usage.reserveWithToken = (...a) => (counts.withToken++, reserveWithToken(...a))

    const first = await post(h, token, { text: englishText(1) })
    t.equal(first.statusCode, 200)
    t.same(counts, { lookups: 1, reservations: 1, withToken: 0 }, 'first request on this node: a look-up, then the count')

    counts.lookups = counts.reservations = counts.withToken = 0
    const cached = await post(h, token, { text: englishText(1) })
    t.equal(cached.statusCode, 200)
    t.equal(cached.json().meta.cached, true)
    t.same(counts, { lookups: 0, reservations: 0, withToken: 1 }, 'then one statement checks the token and counts')
    t.equal(cached.headers['x-ratelimit-limit'], '100')
    t.equal(cached.headers['x-ratelimit-remaining'], '98', 'headers from the statement that counted')

    t.test('400 before 429 still needs a valid token, and carries the quota headers', async (t) => {
      const bad = await post(h, token, { text: 'short' })
      t.equal(bad.statusCode, 400)
      t.equal(bad.headers['x-ratelimit-remaining'], '98')
      const badJson = await post(h, token, '{"text": ', { 'content-type': 'application/json' })
      t.equal(badJson.statusCode, 400)
      t.equal(badJson.json().code, 'INVALID_JSON')
      t.equal(badJson.headers['x-ratelimit-limit'], '100')
      const german = await post(h, token, { text: englishText(2), options: { languageHint: 'de' } })
      t.equal(german.statusCode, 400)
      t.equal(german.json().code, 'UNSUPPORTED_LANGUAGE')
      t.equal(await h.repos.usage.usedOn(account.id, '2026-11-22'), 2, 'none of them counted')
    })

    t.test('a plan upgrade applies to the very next request', async (t) => {
      await changePlan({ repos: h.repos, clock }, account.id, 'starter')
      const res = await post(h, token, { text: englishText(1) })
      t.equal(res.statusCode, 200)
      t.equal(res.headers['x-ratelimit-limit'], '1000')
    })

    t.test('a revoked token is refused at once, whatever else is wrong, and never counted', async (t) => {
      const before = await h.repos.usage.usedOn(account.id, '2026-11-22')
      await revokeToken(deps, tokenId)
      for (const [what, payload] of [
        ['a cached text', { text: englishText(1) }],
        ['a new text', { text: englishText(3) }],
        ['an invalid body', { text: 'short' }],
        ['an unsupported language', { text: englishText(4), options: { languageHint: 'de' } }],
      ] as const) {
        const res = await post(h, token, payload)
        t.equal(res.statusCode, 401, what)
        t.equal(res.json().code, 'INVALID_TOKEN')
        t.equal(res.headers['www-authenticate'], 'Bearer')
        t.notOk(res.headers['x-ratelimit-limit'], 'no quota headers on a 401')
      }
      const badJson = await post(h, token, '{"text": ', { 'content-type': 'application/json' })
      t.equal(badJson.statusCode, 401, 'malformed JSON')
      t.equal(await h.repos.usage.usedOn(account.id, '2026-11-22'), before, 'nothing counted')
    })

    t.test('at the limit: 429 with exact headers, nothing over-counted', async (t) => {
      const { account: full, token: fullToken } = await h.account('free')
      t.equal((await post(h, fullToken, { text: englishText(5) })).statusCode, 200)
      for (let i = 0; i < 99; i++) await h.repos.usage.reserve(full.id, '2026-11-22', 100)
      const results = await Promise.all(Array.from({ length: 5 }, () => post(h, fullToken, { text: englishText(5) })))
      t.same(
        results.map((r) => r.statusCode),
        [429, 429, 429, 429, 429],
      )
      t.same(
        results.map((r) => r.headers['x-ratelimit-remaining']),
        ['0', '0', '0', '0', '0'],
      )
      t.equal(await h.repos.usage.usedOn(full.id, '2026-11-22'), 100)
    })
  })
}
