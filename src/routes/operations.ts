import type { FastifyInstance } from 'fastify'
import type { OperationHandler } from '../openapi.ts'

/** GET /healthz: the process answers. */
export function getHealth(): OperationHandler<'getHealth'> {
  return async () => ({ status: 'ok' })
}

/** GET /readyz: the database answers within a second and the model is loaded. */
export function getReadiness(app: FastifyInstance): OperationHandler<'getReadiness'> {
  return async (_request, reply) => {
    const database = await Promise.race([
      app.ctx.database.ping().then(
        () => 'ok' as const,
        () => 'failing' as const,
      ),
      new Promise<'failing'>((resolve) => setTimeout(resolve, 1000, 'failing').unref()),
    ])
    const model = app.ctx.analyzer.ready() ? ('ok' as const) : ('failing' as const)
    // A stopping node reports not ready so that a load balancer stops sending it traffic.
    const ready = database === 'ok' && model === 'ok' && !app.ctx.shuttingDown
    reply.code(ready ? 200 : 503)
    return { status: ready ? ('ready' as const) : ('not_ready' as const), checks: { database, model } }
  }
}

/** GET /metrics: Prometheus text format. */
export function getMetrics(app: FastifyInstance): OperationHandler<'getMetrics'> {
  return async (_request, reply) => {
    reply.type(app.metrics.registry.contentType)
    return app.metrics.registry.metrics()
  }
}
