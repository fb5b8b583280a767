import { pgTable, uuid, text, timestamp, integer, index } from 'drizzle-orm/pg-core'
import { accounts } from './accounts.ts'

/** Dashboard sessions; the cookie holds a random id, the table only its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    idHash: text('id_hash').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    csrfToken: text('csrf_token').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('sessions_account_idx').on(t.accountId)],
)

/** Fixed-window counters for login attempts, keyed by `account:<email>` or `ip:<address>`. */
export const loginAttempts = pgTable('login_attempts', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true, mode: 'date' }).notNull(),
  failures: integer('failures').notNull().default(0),
})
