import type { Db } from '../client.ts'
import { createAccountsRepository } from './accounts.ts'
import { createTokensRepository } from './tokens.ts'
import { createUsageRepository } from './usage.ts'
import { createCacheRepository } from './cache.ts'
import { createBillingRepository } from './billing.ts'

export interface RepositoryOptions {
  /**
   * Counts commit asynchronously (src/db/repositories/async-commit.ts). Only on a PostgreSQL
   * server, whose WAL writer writes them within a fraction of a second; PGlite has none.
   */
  asyncCounts?: boolean
  /** A count applied after its statement's deadline, to refund (src/db/repositories/usage.ts). */
  onLateCount?: (accountId: string, day: string, k: number) => void
}

export function createRepositories(db: Db, opts: RepositoryOptions = {}) {
  return {
    db,
    accounts: createAccountsRepository(db),
    tokens: createTokensRepository(db),
    usage: createUsageRepository(db, { asyncCommit: opts.asyncCounts ?? false, onLateCount: opts.onLateCount }),
    cache: createCacheRepository(db),
    billing: createBillingRepository(db),
  }
}
export type Repositories = ReturnType<typeof createRepositories>
