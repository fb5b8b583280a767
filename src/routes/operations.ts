import type { Registry } from 'prom-client'
import type { Analyzer } from '../analysis/analyzer.ts'
import type { OperationHandler } from '../openapi.ts'

/** GET /healthz: the process answers. */
export function getHealth(): OperationHandler<'getHealth'> {
  return async () => ({ status: 'ok' })
}

/** GET /readyz: the database answers within a second and the model is loaded. */
export function getReadiness(deps: {
  /** A cheap round trip to the database. */
  ping: () => Promise<void>
  analyzer: Pick<Analyzer, 'ready'>
  /** Whether the node has begun to stop. */
  shuttingDown: () => boolean
}): OperationHandler<'getReadiness'> {
  return async (_request, reply) => {
    const database = await Promise.race([
      deps.ping().then(
        () => 'ok' as const,
        () => 'failing' as const,
      ),
      new Promise<'failing'>((resolve) => setTimeout(resolve, 1000, 'failing').unref()),
    ])
    const model = deps.analyzer.ready() ? ('ok' as const) : ('failing' as const)
    // A stopping node reports not ready so that a load balancer stops sending it traffic.
    const ready = database === 'ok' && model === 'ok' && !deps.shuttingDown()
    reply.code(ready ? 200 : 503)
    return { status: ready ? ('ready' as const) : ('not_ready' as const), checks: { database, model } }
  }
}

/** GET /metrics: Prometheus text format. */
export function getMetrics({ registry }: { registry: Registry }): OperationHandler<'getMetrics'> {
  return async (_request, reply) => {
    reply.type(registry.contentType)
    return registry.metrics()
  }
}
