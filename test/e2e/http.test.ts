// Over a real port with real HTTP: the README's curl session. The client package has its own
// tests against a live server (clients/typescript/test/).
import t from 'tap'
import { buildTestApp, englishText } from '../helpers/app.ts'

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
  const [listed] = await h.repos.tokens.listByAccount((await h.repos.tokens.findById(tokenId)).accountId)
  t.ok(listed.lastUsedAt, 'lastUsedAt is recorded')

  const anon = await fetch(`${base}/v1/quota`)
  t.equal(anon.status, 401)
  t.equal(anon.headers.get('www-authenticate'), 'Bearer')

  const docs = await fetch(`${base}/docs/json`)
  t.equal(docs.status, 200)
  const served = await docs.json()
  t.equal(served.info.title, 'Text Entity Analysis API', 'Swagger UI serves openapi.yaml')
  t.same(
    served.servers.map((s: { url: string }) => s.url),
    ['/', 'https://api.example.com', 'http://localhost:3000'],
    '"Try it out" calls this server first',
  )
  const ui = await fetch(`${base}/docs/`)
  t.equal(ui.status, 200)
  t.match(ui.headers.get('content-type'), /html/)

  t.same(await (await fetch(`${base}/healthz`)).json(), { status: 'ok' })
  t.same(await (await fetch(`${base}/readyz`)).json(), { status: 'ready', checks: { database: 'ok', model: 'ok' } })
  const metrics = await (await fetch(`${base}/metrics`)).text()
  t.match(metrics, /http_requests_total\{route="\/v1\/analyze",method="POST",status="200"\} 1/)
})

t.test("mentions over real HTTP: UTF-16 offsets that JavaScript's text.slice confirms", async (t) => {
  const h = await buildTestApp(t)
  const base = await h.app.listen({ port: 0, host: '127.0.0.1' })
  const { token } = await h.account('free')
  // Astral emoji (one with a skin tone, one ZWJ sequence) before the entities, a combining mark and CRLF among them.
  const text =
    '👋🏽👨‍👩‍👧 ' + englishText(8).replace('Analysts', 'Analysts at Société\u0301 Générale') + '\r\nCook said Apple would grow in Berlin.'
  const res = await fetch(`${base}/v1/analyze`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text, options: { include: ['mentions'], offsetEncoding: 'utf16' } }),
  })
  t.equal(res.status, 200)
  const body = await res.json()
  let mentions = 0
  for (const e of body.entityDetails) {
    for (const m of e.mentions) {
      mentions++
      t.equal(text.slice(m.start, m.end), m.text, `${e.name}: "${m.text}" at ${m.start}..${m.end}`)
    }
  }
  t.ok(mentions >= 5, `${mentions} mentions`)
  t.ok(body.relations.length > 0)
  for (const r of body.relations) t.equal(text.slice(r.evidenceStart, r.evidenceEnd), r.evidence, 'evidence')
})
