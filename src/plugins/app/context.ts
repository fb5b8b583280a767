import fp from 'fastify-plugin'
import type { AppContext } from '../../context.ts'

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext
  }
}

export default fp<{ ctx: AppContext }>(
  async (app, opts) => {
    app.decorate('ctx', opts.ctx)
  },
  { name: 'context' },
)
