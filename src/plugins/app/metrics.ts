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

export function createMetrics(sources: MetricsSources = {}) {
  const registry = new Registry()
  collectDefaultMetrics({ register: registry })
  return {
    registry,
    requests: new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests by route, method and status',
      labelNames: ['route', 'method', 'status'] as const,
      registers: [registry],
    }),
    latency: new Histogram({
      name: 'http_request_duration_seconds',
      help: 'HTTP request latency by route and status',
      labelNames: ['route', 'method', 'status'] as const,
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
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
      const labels = { route, method: request.method, status: String(reply.statusCode) }
      metrics.requests.inc(labels)
      metrics.latency.observe(labels, reply.elapsedTime / 1000)
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
