// The load generator, in its own process: autocannon against one URL, result as one JSON line.
// Usage: node --import tsx scripts/bench/load.ts '<json spec>'
import autocannon from 'autocannon'

interface Spec {
  url: string
  method?: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: string
  /** A text to send as {"text": …}, made unique per request (uncached analyses). */
  uniqueText?: string
  connections: number
  duration: number
  /** Requests per second over all connections (latency under a fixed load), or as fast as possible. */
  rate?: number
}

const spec = JSON.parse(process.argv[2]) as Spec
const tag = Math.random().toString(36).slice(2, 8)
let n = 0
const options: autocannon.Options = {
  url: spec.url,
  method: spec.method ?? 'GET',
  headers: spec.headers,
  body: spec.body,
  connections: spec.connections,
  duration: spec.duration,
  ...(spec.rate ? { overallRate: spec.rate } : {}),
}
// Latencies are kept exactly, not read off autocannon's histogram, which is wrong for the
// figures read here in two ways:
// - it stores whole milliseconds: a 1.9 ms answer counts as 1 ms, a 0.4 ms one as 0, too coarse
//   for sub-millisecond answers and for a ratio of two p99s;
// - at a fixed rate it "corrects for coordinated omission" with an expected interval of
//   Math.ceil(1 / rate) (run.js), 1 ms whatever the rate, adding a made-up sample for every
//   millisecond of every answer slower than 1 ms. Its rate limiter does not space requests
//   evenly anyway: each connection sends its `rate` requests of the second back to back, each
//   when the answer before it is in, then waits for the next second. No request is omitted
//   while a connection's requests fit in their second, which the achieved req/s shows.
// Like autocannon's, only 2xx answers are recorded.
const latencies: number[] = []
options.setupClient = (client) => {
  client.on('response', (status: number, _bytes: number, ms: number) => {
    if (status >= 200 && status <= 299) latencies.push(ms)
  })
}
if (spec.uniqueText) {
  const base = spec.uniqueText
  options.requests = [
    {
      setupRequest: (req) => {
        const prefix = `Item ${tag}-${n++}. `
        return { ...req, body: JSON.stringify({ text: prefix + base.slice(prefix.length) }) }
      },
    },
  ]
}
const result = await autocannon(options)
const sorted = Float64Array.from(latencies).sort()
const percentile = (p: number) => (sorted.length ? sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] : NaN)
process.stdout.write(
  JSON.stringify({
    rps: result.requests.total / result.duration,
    p50: percentile(50),
    p99: percentile(99),
    max: sorted.length ? sorted[sorted.length - 1] : NaN,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    // Which answers were not 2xx, e.g. {"502": 1}: a count alone does not say whose fault it was.
    statuses: Object.fromEntries(
      Object.entries((result as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {})
        .filter(([code]) => !code.startsWith('2'))
        .map(([code, v]) => [code, v.count]),
    ),
  }) + '\n',
)
