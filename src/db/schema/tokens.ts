import { pgTable, text, uuid, timestamp, uniqueIndex, index, integer } from 'drizzle-orm/pg-core'
import { sql } from 'drizzle-orm'
import { accounts } from './accounts.ts'

export const apiTokens = pgTable(
  'api_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** e.g. `tea_live_AbCd…`: enough to recognise a token, too little to use it. */
    preview: text('preview').notNull(),
    /** Hex SHA-256 of the whole token; the plain value is never stored. */
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    // A copy of the account's plan, pending plan and their daily limits, so that the statements
    // every request runs (the token look-up, the token check and count) read the token's row
    // alone instead of joining the account and the plan catalogue. Written only by the
    // database's triggers (drizzle/0002_token_plan_copy.sql), in the transaction that changes
    // the account, the plan or inserts the token: never stale. The defaults are null so that an
    // insert without the trigger fails (NOT NULL) instead of storing a wrong limit.
    plan: text('plan')
      .notNull()
      .default(sql`null`),
    dailyLimit: integer('daily_limit')
      .notNull()
      .default(sql`null`),
    pendingPlan: text('pending_plan'),
    pendingDailyLimit: integer('pending_daily_limit'),
    pendingPlanAt: timestamp('pending_plan_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('api_tokens_hash_key').on(t.tokenHash), index('api_tokens_account_idx').on(t.accountId)],
)
