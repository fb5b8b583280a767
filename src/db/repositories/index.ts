// Every table is reached through a repository's operations; nothing outside src/db holds the
// database itself. Work that must be atomic across repositories (token creation under the
// account's lock, a plan change with its ledger entry) runs in `transaction`, on repositories
// bound to that transaction.
import type { Db } from '../client.ts'
import { createAccountsRepository } from './accounts.ts'
import { createTokensRepository } from './tokens.ts'
import { createUsageRepository } from './usage.ts'
import { createCacheRepository } from './cache.ts'
import { createBillingRepository } from './billing.ts'
import { createSessionsRepository, SESSION_POLICY, type SessionPolicy } from './sessions.ts'
import {
  createLoginThrottle,
  createSignupThrottle,
  LOGIN_LIMITS,
  SIGNUP_LIMITS,
  type LoginLimits,
  type SignupLimits,
} from './login-attempts.ts'

export interface RepositoryOptions {
  /**
   * Counts commit asynchronously (src/db/repositories/async-commit.ts). Only on a PostgreSQL
   * server, whose WAL writer writes them within a fraction of a second; PGlite has none.
   */
  asyncCounts?: boolean
  /**
   * A pool whose sessions commit asynchronously (the Database's `asyncDb`): the counts (with
   * `asyncCounts`) and the cache writes run there, without a `set_config` in every statement.
   */
  asyncDb?: Db
  /** A count applied after its statement's deadline, to refund (src/db/repositories/usage.ts). */
  onLateCount?: (accountId: string, day: string, k: number) => void
  sessionPolicy?: SessionPolicy
  loginLimits?: LoginLimits
  signupLimits?: SignupLimits
}

/** The repositories one transaction's work uses, each bound to it. */
function transactionRepositories(tx: Db) {
  return {
    accounts: createAccountsRepository(tx),
    tokens: createTokensRepository(tx),
    billing: createBillingRepository(tx),
  }
}
export type TransactionRepositories = ReturnType<typeof transactionRepositories>

export function createRepositories(db: Db, opts: RepositoryOptions = {}) {
  return {
    accounts: createAccountsRepository(db),
    tokens: createTokensRepository(db),
    usage: createUsageRepository(db, { asyncCommit: opts.asyncCounts ?? false, asyncDb: opts.asyncDb, onLateCount: opts.onLateCount }),
    cache: createCacheRepository(db, opts.asyncDb),
    billing: createBillingRepository(db),
    sessions: createSessionsRepository(db, opts.sessionPolicy ?? SESSION_POLICY),
    loginThrottle: createLoginThrottle(db, opts.loginLimits ?? LOGIN_LIMITS),
    signupThrottle: createSignupThrottle(db, opts.signupLimits ?? SIGNUP_LIMITS),
    /** Runs `work` in one transaction: all of it commits, or none of it (it threw). */
    transaction<T>(work: (tx: TransactionRepositories) => Promise<T>): Promise<T> {
      return db.transaction((tx) => work(transactionRepositories(tx)))
    },
  }
}
export type Repositories = ReturnType<typeof createRepositories>
