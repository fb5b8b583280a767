// The repositories over the open database, the hot-path ones behind their per-node batchers
// (concurrent requests share statements). The process opens and closes the database itself
// (src/server.ts; tests share one between apps): this plugin owns only what it builds on it,
// which holds nothing to close.
import fp from 'fastify-plugin'
import type { Database } from '../../db/client.ts'
import { createRepositories, type Repositories } from '../../db/repositories/index.ts'
import { withBatchedReservations } from '../../db/reservation-batcher.ts'
import { withBatchedTokenLookups } from '../../db/token-batcher.ts'
import { withBatchedCacheStatements } from '../../db/cache-batcher.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** The application's repositories. */
    repos: Repositories
  }
}

export interface DatabasePluginOptions {
  database: Database
  /**
   * A count the database applied after its statement's deadline had passed (its request was
   * answered 503): `k` requests of that account and day to refund.
   */
  onLateCount?: (accountId: string, day: string, k: number) => void
}

export default fp<DatabasePluginOptions>(
  async (app, opts) => {
    const repos = createRepositories(opts.database.db, {
      asyncCounts: opts.database.kind === 'postgres',
      asyncDb: opts.database.asyncDb,
      onLateCount: opts.onLateCount,
    })
    repos.usage = withBatchedReservations(repos.usage)
    repos.tokens = withBatchedTokenLookups(repos.tokens)
    repos.cache = withBatchedCacheStatements(repos.cache)
    app.decorate('repos', repos)
  },
  { name: 'database' },
)
