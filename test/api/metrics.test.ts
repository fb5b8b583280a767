// /metrics: request counts and latencies by route pattern, method and status.
import t from 'tap'
import { buildTestApp } from '../helpers/app.ts'

t.test('requests are counted once each, by route pattern (never the raw URL), method and status', async (t) => {
  const h = await buildTestApp(t)
  const { token } = await h.account('free')
  const auth = { authorization: `Bearer ${token}` }
  for (let i = 0; i < 3; i++) t.equal((await h.app.inject({ url: '/v1/quota', headers: auth })).statusCode, 200)
  t.equal((await h.app.inject({ url: '/v1/quota' })).statusCode, 401)
  t.equal((await h.app.inject({ url: '/v1/quota?secret=x', headers: auth })).statusCode, 200)
  t.equal((await h.app.inject({ url: '/no/such/path?token=abc' })).statusCode, 404)
  t.equal((await h.app.inject({ method: 'HEAD', url: '/healthz' })).statusCode, 200)
  t.equal((await h.app.inject({ url: '/healthz' })).statusCode, 200)
  t.equal((await h.app.inject({ url: '/dashboard/login' })).statusCode, 200)
  const text = (await h.app.inject({ url: '/metrics' })).body
  const series = (name: string) =>
    Object.fromEntries([...text.matchAll(new RegExp(`^${name}\\{([^}]*)\\} (\\S+)$`, 'gm'))].map((m) => [m[1], Number(m[2])]))
  const requests = series('http_requests_total')
  t.same(requests, {
    'route="/v1/quota",method="GET",status="200"': 4,
    'route="/v1/quota",method="GET",status="401"': 1,
    'route="unmatched",method="GET",status="404"': 1,
    'route="/healthz",method="HEAD",status="200"': 1,
    'route="/healthz",method="GET",status="200"': 1,
    'route="/dashboard/login",method="GET",status="200"': 1,
  })
  const counts = series('http_request_duration_seconds_count')
  t.same(counts, requests, 'one latency observation per request')
  const sums = series('http_request_duration_seconds_sum')
  for (const [labels, sum] of Object.entries(sums))
    t.ok(sum > 0 && sum < 60, `latency sum of ${labels} is a plausible number of seconds (${sum})`)
  t.notMatch(text, /secret|token=abc|no\/such/, 'no caller input in the metrics')
})
