import { pgTable, uuid, text, timestamp, primaryKey, index } from 'drizzle-orm/pg-core'
import { accounts } from './accounts.ts'

/**
 * The shared level of the analysis cache. `key` is a keyed hash of (account, options, text);
 * `payload` is the result encrypted with a key derived from the text, so the table holds no
 * submitted text in readable form.
 */
export const analysisCache = pgTable(
  'analysis_cache',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    payload: text('payload').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] }), index('analysis_cache_created_idx').on(t.createdAt)],
)
