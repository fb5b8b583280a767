// Over a real port with real HTTP: the README's curl session, through the generated SDK too.
import t from 'tap'
import { buildTestApp, englishText, manualClock } from '../helpers/app.ts'
import { createTeaClient } from '../../src/client/index.ts'

t.test('the API over real HTTP', async (t) => {
  const h = await buildTestApp(t)
  const base = await h.app.listen({ port: 0, host: '127.0.0.1' })
  const { token, tokenId } = await h.account('free')

  const res = await fetch(`${base}/v1/analyze`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text: englishText(7) }),
  })
  t.equal(res.status, 200)
  const body = await res.json()
  t.equal(body.meta.cached, false)
  t.equal(res.headers.get('x-ratelimit-remaining'), '99')

  const quota = await fetch(`${base}/v1/quota`, { headers: { authorization: `bearer ${token}` } })
  t.same((await quota.json()).daily, { limit: 100, used: 1, remaining: 99 }, 'the scheme name is case-insensitive')
  const [listed] = await h.repos.tokens.listByAccount((await h.repos.tokens.findById(tokenId))!.accountId)
  t.ok(listed.lastUsedAt, 'lastUsedAt is recorded')

  const anon = await fetch(`${base}/v1/quota`)
  t.equal(anon.status, 401)
  t.equal(anon.headers.get('www-authenticate'), 'Bearer')

  const docs = await fetch(`${base}/docs/json`)
  t.equal(docs.status, 200)
  t.equal((await docs.json()).info.title, 'Text Entity Analysis API', 'Swagger UI serves openapi.yaml')
  const ui = await fetch(`${base}/docs/`)
  t.equal(ui.status, 200)
  t.match(ui.headers.get('content-type'), /html/)

  t.same(await (await fetch(`${base}/healthz`)).json(), { status: 'ok' })
  t.same(await (await fetch(`${base}/readyz`)).json(), { status: 'ready', checks: { database: 'ok', model: 'ok' } })
  const metrics = await (await fetch(`${base}/metrics`)).text()
  t.match(metrics, /http_requests_total\{route="\/v1\/analyze",method="POST",status="200"\} 1/)
})

t.test('the SDK client: typed calls, and 429 retried after retryAfter with exponential backoff', async (t) => {
  // A fixed noon: the quota resets in exactly 12 h, and no run can straddle midnight.
  const h = await buildTestApp(t, { clock: manualClock(new Date('2026-11-22T12:00:00Z')) })
  const base = await h.app.listen({ port: 0, host: '127.0.0.1' })
  const { account, token } = await h.account('free')
  const waits: number[] = []
  const client = createTeaClient({ baseUrl: base, token, maxRetries: 2, maxDelayMs: 48 * 3600_000, sleep: async (ms) => void waits.push(ms) })

  const ok = await client.POST('/v1/analyze', { body: { text: englishText(8), options: { maxEntitiesPerType: 3 } } })
  t.equal(ok.response.status, 200)
  t.ok(ok.data!.entities.persons.length <= 3)
  const q = await client.GET('/v1/quota')
  t.equal(q.data!.daily.used, 1)

  for (let i = 0; i < 99; i++) await h.repos.usage.reserve(account.id, '2026-11-22', 100)
  const limited = await client.POST('/v1/analyze', { body: { text: englishText(9) } })
  t.equal(limited.response.status, 429, 'gives up after maxRetries')
  t.equal(limited.error!.code, 'QUOTA_EXCEEDED')
  t.equal(waits.length, 2, 'two retries')
  t.equal((limited.error as { retryAfter: number }).retryAfter, 12 * 3600)
  t.same(waits, [12 * 3600_000, 24 * 3600_000], 'first retryAfter seconds, then doubled')
})
