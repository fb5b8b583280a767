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
process.stdout.write(
  JSON.stringify({
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
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
