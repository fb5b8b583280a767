// The two-level analysis cache (src/analysis/cache.ts) over the cache repository, and the
// pruning of its expired rows in the background: every node may do it, the DELETE is idempotent.
import fp from 'fastify-plugin'
import { createAnalysisCache, type AnalysisCache } from '../../analysis/cache.ts'
import type { Clock } from '../../domain/clock.ts'

declare module 'fastify' {
  interface FastifyInstance {
    analysisCache: AnalysisCache
  }
}

const PRUNE_EVERY_MS = 10 * 60 * 1000

export default fp<{ clock: Clock; maxBytes: number }>(
  async (app, opts) => {
    const cache = createAnalysisCache({ repo: app.repos.cache, clock: opts.clock, maxBytes: opts.maxBytes })
    app.decorate('analysisCache', cache)
    const prune = setInterval(() => {
      cache.prune().catch((err) => app.log.warn({ err }, 'cache prune failed'))
    }, PRUNE_EVERY_MS)
    prune.unref()
    app.addHook('onClose', async () => clearInterval(prune))
  },
  { name: 'analysis-cache', dependencies: ['database'] },
)
