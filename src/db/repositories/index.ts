import type { Db } from '../client.ts'
import { createAccountsRepository } from './accounts.ts'
import { createTokensRepository } from './tokens.ts'
import { createUsageRepository } from './usage.ts'
import { createCacheRepository } from './cache.ts'
import { createBillingRepository } from './billing.ts'

export function createRepositories(db: Db) {
  return {
    db,
    accounts: createAccountsRepository(db),
    tokens: createTokensRepository(db),
    usage: createUsageRepository(db),
    cache: createCacheRepository(db),
    billing: createBillingRepository(db),
  }
}
export type Repositories = ReturnType<typeof createRepositories>
