// On an in-process cache miss of a known token, one statement checks the token, counts the
// request and reads the shared cache level (src/analysis/service.ts). The rules of the separate
// statements hold: per account, 24 hours, a revoked token neither reads nor counts, the limit is
// exact, and a full queue still answers a text cached in the shared level (and counts nothing else).
import t from 'tap'
import { buildTestApp, englishText, manualClock, openTestDatabase, DRIVERS } from '../helpers/app.ts'
import { createInlineAnalyzer, type Analyzer } from '../../src/analysis/analyzer.ts'
import { revokeToken } from '../../src/domain/tokens.ts'

for (const driver of DRIVERS) {
  t.test(`a known token's in-process miss: the look-up goes with the count (${driver})`, async (t) => {
    const clock = manualClock(new Date('2026-11-22T08:00:00Z'))
    const { database } = await openTestDatabase(t, driver)
    const a = await buildTestApp(t, { database, clock })
    const inline = await createInlineAnalyzer()
    let full = false
    let analyses = 0
    let admitted = 0
    const analyzer: Analyzer = {
      ...inline,
      analyze: (text, options) => (analyses++, inline.analyze(text, options)),
      admit: () => (admitted++, full ? undefined : { release() {} }),
    }
    // No in-process level on b: every look-up reaches the shared one.
    const b = await buildTestApp(t, { database, clock, analyzer, config: { cacheMaxBytes: 0 } })
    const { account, token } = await a.account('free')
    const day = '2026-11-22'
    const send = (h: typeof a, n: number, bearer = token) =>
      h.app.inject({
        method: 'POST',
        url: '/v1/analyze',
        headers: { authorization: `Bearer ${bearer}` },
        payload: { text: englishText(n) },
      })

    const counts = { cacheGets: 0, reserve: 0, withToken: 0, lookingUp: 0 }
    const { usage, cache } = b.app.repos
    const get = cache.get
    cache.get = (...x) => (counts.cacheGets++, get(...x))
    const reserve = usage.reserve
    usage.reserve = (...x) => (counts.reserve++, reserve(...x))
    const withToken = usage.reserveWithToken
    usage.reserveWithToken = (...x) => (counts.withToken++, withToken(...x))
    const lookingUp = usage.reserveWithTokenLookingUp
    usage.reserveWithTokenLookingUp = (...x) => (counts.lookingUp++, lookingUp(...x))
    const reset = () => ((counts.cacheGets = counts.reserve = counts.withToken = counts.lookingUp = 0), (analyses = 0))

    t.equal((await send(b, 0)).statusCode, 200, 'first request on b: its token is checked on arrival')
    t.same(counts, { cacheGets: 1, reserve: 1, withToken: 0, lookingUp: 0 }, 'a checked caller: the look-up, then the count')

    reset()
    const fresh = await send(b, 1)
    t.equal(fresh.statusCode, 200)
    t.equal(fresh.json().meta.cached, false)
    t.same(counts, { cacheGets: 0, reserve: 0, withToken: 0, lookingUp: 1 }, 'then one statement checks, counts and looks up')
    t.equal(analyses, 1)
    t.equal(fresh.headers['x-ratelimit-remaining'], '98')

    t.equal((await send(a, 2)).json().meta.cached, false, 'a analyses text 2')
    reset()
    const shared = await send(b, 2)
    t.equal(shared.json().meta.cached, true, 'b finds it through the same statement')
    t.same(counts, { cacheGets: 0, reserve: 0, withToken: 0, lookingUp: 1 })
    t.equal(analyses, 0, 'nothing analysed')
    t.equal(shared.headers['x-ratelimit-remaining'], '96', 'a hit in the shared level is counted')

    const { token: otherToken } = await b.account('free')
    t.equal((await send(b, 0, otherToken)).statusCode, 200, "another account's first request")
    t.equal((await send(b, 2, otherToken)).json().meta.cached, false, "another account's entry is not served")

    t.test("a checked caller's hit in the shared level takes no place in the queue", async (t) => {
      const { token: third } = await a.account('free')
      t.equal((await send(a, 5, third)).json().meta.cached, false, 'a analyses text 5')
      reset()
      admitted = 0
      const hit = await send(b, 5, third)
      t.equal(hit.json().meta.cached, true, "b's first request of this token finds it")
      t.same(counts, { cacheGets: 1, reserve: 1, withToken: 0, lookingUp: 0 })
      t.equal(admitted, 0, 'no place asked for')
    })

    t.test('a full queue still answers a text cached in the shared level, and refuses the others uncounted', async (t) => {
      t.equal((await send(a, 3)).json().meta.cached, false, 'a analyses text 3')
      full = true
      t.teardown(() => (full = false))
      reset()
      const before = await a.repos.usage.usedOn(account.id, day)
      const cached = await send(b, 3)
      t.equal(cached.statusCode, 200)
      t.equal(cached.json().meta.cached, true)
      t.same(counts, { cacheGets: 1, reserve: 0, withToken: 1, lookingUp: 0 }, 'the look-up alone, then the count')
      const refused = await send(b, 4)
      t.equal(refused.statusCode, 503)
      t.equal(refused.json().code, 'OVERLOADED')
      t.equal(await a.repos.usage.usedOn(account.id, day), before + 1, 'only the cached answer counted')
    })

    t.test('24 hours after the first analysis the statement finds nothing: analysed afresh', async (t) => {
      clock.advance(24 * 3600 * 1000)
      reset()
      const res = await send(b, 2)
      t.equal(res.json().meta.cached, false)
      t.same(counts, { cacheGets: 0, reserve: 0, withToken: 0, lookingUp: 1 })
      t.equal(analyses, 1)
    })

    t.test('at the limit: a shared-level hit is refused 429 and not counted', async (t) => {
      const today = '2026-11-23'
      t.equal((await send(a, 5)).json().meta.cached, false, 'a analyses text 5')
      await a.repos.usage.reserveMany(account.id, today, 100, 100 - (await a.repos.usage.usedOn(account.id, today)))
      const res = await send(b, 5)
      t.equal(res.statusCode, 429)
      t.equal(res.headers['x-ratelimit-remaining'], '0')
      t.equal(await a.repos.usage.usedOn(account.id, today), 100)
    })

    t.test('a revoked token reads nothing and counts nothing', async (t) => {
      const { account: third, token: thirdToken, tokenId: thirdId } = await a.account('free')
      t.equal((await send(b, 6, thirdToken)).statusCode, 200, 'known to b')
      t.equal((await send(a, 7, thirdToken)).statusCode, 200, 'text 7 cached in the shared level')
      await revokeToken({ repos: a.repos, clock, tokenPrefix: 'tea_live_' }, thirdId)
      const before = await a.repos.usage.usedOn(third.id, '2026-11-23')
      for (const n of [7, 8]) {
        const res = await send(b, n, thirdToken)
        t.equal(res.statusCode, 401, n === 7 ? 'a text in the shared level' : 'a new text')
        t.notOk(res.headers['x-ratelimit-limit'])
      }
      t.equal(await a.repos.usage.usedOn(third.id, '2026-11-23'), before, 'nothing counted')
    })
  })
}
