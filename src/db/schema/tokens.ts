import { pgTable, text, uuid, timestamp, uniqueIndex, index } from 'drizzle-orm/pg-core'
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
  },
  (t) => [uniqueIndex('api_tokens_hash_key').on(t.tokenHash), index('api_tokens_account_idx').on(t.accountId)],
)
