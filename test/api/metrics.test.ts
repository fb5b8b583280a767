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

t.test('the request series, kept in plain numbers, scrape exactly as prom-client would have counted them', async (t) => {
  const { Registry, Counter, Histogram } = await import('prom-client')
  const { createMetrics } = await import('../../src/plugins/app/metrics.ts')
  const metrics = createMetrics()
  const reference = new Registry()
  const labelNames = ['route', 'method', 'status'] as const
  const counter = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by route, method and status',
    labelNames,
    registers: [reference],
  })
  const histogram = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by route and status',
    labelNames,
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [reference],
  })
  const names = ['http_requests_total', 'http_request_duration_seconds']
  const scrape = async (r: InstanceType<typeof Registry>) => (await Promise.all(names.map((n) => r.getSingleMetricAsString(n)))).join('\n')
  t.equal(await scrape(metrics.registry), await scrape(reference), 'no requests: the same empty families')
  const observations: [string, string, number, number][] = [
    ['/v1/quota', 'GET', 200, 0.0004],
    ['/v1/quota', 'GET', 200, 0.0005], // on a bound: in that bucket
    ['/v1/analyze', 'POST', 200, 0.3],
    ['/v1/quota', 'GET', 401, 0.002],
    ['/v1/quota', 'GET', 200, 12], // above the last bound: in no bucket, counted and summed
    ['/healthz', 'HEAD', 200, 0.00001],
    ['/v1/analyze', 'POST', 429, 0.01],
  ]
  for (const [round, slice] of [observations.slice(0, 4), observations.slice(4)].entries()) {
    for (const [route, method, status, seconds] of slice) {
      metrics.recordRequest(route, method, status, seconds)
      const labels = { route, method, status: String(status) }
      counter.inc(labels)
      histogram.observe(labels, seconds)
    }
    const got = await scrape(metrics.registry)
    t.equal(got, await scrape(reference), `scrape ${round + 1}: the same text, series in first-seen order`)
    t.match(got, /http_requests_total\{route="\/v1\/quota",method="GET",status="200"\} [23]\n/)
  }
})
