// Prometheus metrics. One registry per app instance (tests build many apps in one process).
import fp from 'fastify-plugin'
import type { FastifyReply, FastifyRequest, onResponseHookHandler } from 'fastify'
import { Registry, Counter, Histogram, Gauge, collectDefaultMetrics } from 'prom-client'

declare module 'fastify' {
  interface FastifyInstance {
    metrics: ReturnType<typeof createMetrics>
  }
}

/** Where the gauges read their values at scrape time. */
export interface MetricsSources {
  cache?: () => { hits: number; misses: number }
  pool?: () => { queued: number; utilization: number } | undefined
}

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

type RequestLabels = { route: string; method: string; status: string }

/** The requests of one route, method and status: a count, and latencies as the histogram keeps them. */
class RequestSeries {
  count = 0
  sum = 0
  /** Observations per bucket (not cumulative); one above the last bound is in none, as prom-client does. */
  readonly buckets = new Array<number>(LATENCY_BUCKETS.length).fill(0)
  constructor(readonly labels: RequestLabels) {}
}

/** prom-client's histogram entry, which a scrape fills in (its shape is checked by the metrics tests). */
interface HistogramEntry {
  bucketValues: Record<number, number>
  sum: number
  count: number
}

/**
 * Request counts and latencies kept in plain numbers per route, method and status, and handed to
 * prom-client only when /metrics is scraped: its counter and histogram hash and check their labels
 * on every call, which cost about as much as the rest of a quota read's bookkeeping. The series
 * are folded in the order they were first seen, as prom-client orders them.
 */
function requestRecorder() {
  const all: RequestSeries[] = []
  /** Per route pattern, per method, per status code. */
  const byRoute = new Map<string, Map<string, Map<number, RequestSeries>>>()
  return {
    all,
    record(route: string, method: string, statusCode: number, seconds: number): void {
      let byMethod = byRoute.get(route)
      if (!byMethod) byRoute.set(route, (byMethod = new Map<string, Map<number, RequestSeries>>()))
      let byStatus = byMethod.get(method)
      if (!byStatus) byMethod.set(method, (byStatus = new Map<number, RequestSeries>()))
      let series = byStatus.get(statusCode)
      if (!series) {
        series = new RequestSeries({ route, method, status: String(statusCode) })
        byStatus.set(statusCode, series)
        all.push(series)
      }
      series.count++
      series.sum += seconds
      for (let i = 0; i < LATENCY_BUCKETS.length; i++) {
        if (seconds <= LATENCY_BUCKETS[i]) {
          series.buckets[i]++
          break
        }
      }
    },
  }
}

export function createMetrics(sources: MetricsSources = {}) {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  const recorder = requestRecorder()
  return {
    registry,
    /**
     * Counts one answered request and its latency, under its route pattern, method and status:
     * the only way in. `requests` and `latency` are refilled from it at each scrape.
     */
    recordRequest: recorder.record,
    requests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by route, method and status',
      labelNames: ['route', 'method', 'status'] as const,
      registers: [registry],
      collect() {
        this.reset()
        for (const s of recorder.all) this.inc(s.labels, s.count)
      },
    }),
    latency: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by route and status',
      labelNames: ['route', 'method', 'status'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
      collect() {
        this.reset()
        for (const s of recorder.all) this.zero(s.labels)
        // zero() added one entry per series, in the same order.
        const entries = Object.values((this as unknown as { hashMap: Record<string, HistogramEntry> }).hashMap)
        recorder.all.forEach((s, i) => {
          const entry = entries[i]
          entry.count = s.count
          entry.sum = s.sum
          LATENCY_BUCKETS.forEach((bound, b) => (entry.bucketValues[bound] = s.buckets[b]))
        })
      },
    }),
    quotaRejections: new Counter({ name: 'quota_rejections_total', help: 'Requests refused with 429', registers: [registry] }),
    cacheLookups: new Counter({
      name: 'analysis_cache_lookups_total',
      help: 'Analysis cache look-ups by result',
      labelNames: ['result'] as const,
      registers: [registry],
      // The cache counts its own look-ups (both levels); the counter mirrors them at scrape time.
      collect() {
        const stats = sources.cache?.()
        if (!stats) return
        this.reset()
        this.inc({ result: 'hit' }, stats.hits)
        this.inc({ result: 'miss' }, stats.misses)
      },
    }),
    analysisSeconds: new Histogram({
      name: 'analysis_duration_seconds',
      help: 'Time spent in extraction (uncached analyses)',
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    poolQueueDepth: new Gauge({
      name: 'analysis_pool_queue_depth',
      help: 'Analyses waiting for a worker',
      registers: [registry],
      collect() {
        this.set(sources.pool?.()?.queued ?? 0)
      },
    }),
    poolUtilization: new Gauge({
      name: 'analysis_pool_utilization',
      help: 'Share of worker capacity in use, 0..1',
      registers: [registry],
      collect() {
        this.set(sources.pool?.()?.utilization ?? 0)
      },
    }),
  }
}

/** Marks the onResponse hook this plugin adds to a route, so a route copied from another (HEAD from GET) gets one, not two. */
const ROUTE_HOOK = Symbol('metrics route hook')

export default fp(
  async (app) => {
    const metrics = createMetrics({
      cache: () => app.analysisCache.stats(),
      pool: () => app.analyzer.stats?.(),
    })
    app.decorate('metrics', metrics)
    app.analyzer.observe = (seconds) => metrics.analysisSeconds.observe(seconds)
    // Route patterns only, never raw URLs: bounded label sets, and no caller input in metrics.
    // Latency is Fastify's own measure (from routing to the response's last byte), read once the response is out.
    function record(route: string, request: FastifyRequest, reply: FastifyReply) {
      metrics.recordRequest(route, request.method, reply.statusCode, reply.elapsedTime / 1000)
      if (reply.statusCode === 429) metrics.quotaRejections.inc()
    }
    // Each route gets its own hook, which knows its pattern: reading it per request
    // (request.routeOptions) builds an object of fourteen fields every time.
    app.addHook('onRoute', (route) => {
      const hooks = route.onResponse === undefined ? [] : Array.isArray(route.onResponse) ? route.onResponse : [route.onResponse]
      if (hooks.some((h) => (h as { [ROUTE_HOOK]?: true })[ROUTE_HOOK])) return
      const pattern = route.url
      const hook: onResponseHookHandler = (request, reply, done) => {
        record(pattern, request, reply)
        done()
      }
      route.onResponse = [...hooks, Object.assign(hook, { [ROUTE_HOOK]: true as const })]
    })
    // Requests that match no route (the 404 handler's hooks are not a route's).
    app.addHook('onResponse', (request, reply, done) => {
      if (request.is404) record('unmatched', request, reply)
      done()
    })
  },
  { name: 'metrics', dependencies: ['analysis-cache', 'analysis'] },
)
