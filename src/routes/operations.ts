import type { FastifyInstance, FastifyReply } from 'fastify'

/** GET /healthz: the process answers. */
export function getHealth() {
  return async () => ({ status: 'ok' as const })
}

/** GET /readyz: the database answers within a second and the model is loaded. */
export function getReadiness(app: FastifyInstance) {
  return async (_request: unknown, reply: FastifyReply) => {
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
export function getMetrics(app: FastifyInstance) {
  return async (_request: unknown, reply: FastifyReply) => {
    reply.type(app.metrics.registry.contentType)
    return app.metrics.registry.metrics()
  }
}
