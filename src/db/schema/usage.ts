import { pgTable, uuid, date, integer, primaryKey } from 'drizzle-orm/pg-core'
import { accounts } from './accounts.ts'

/** One row per (account, UTC day): the quota counter. */
export const dailyUsage = pgTable(
  'daily_usage',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    used: integer('used').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.day] })],
)
