import { pgTable, text, uuid, timestamp, uniqueIndex } from 'drizzle-orm/pg-core'
import { plans } from './plans.ts'

export const accounts = pgTable(
  'accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Stored lower-cased and trimmed so look-ups are case-insensitive. */
    email: text('email').notNull(),
    /** argon2id; null for accounts created by an operator without a password. */
    passwordHash: text('password_hash'),
    plan: text('plan')
      .notNull()
      .references(() => plans.name),
    /** A downgrade waits here until `pendingPlanAt`, the next billing-cycle start. */
    pendingPlan: text('pending_plan').references(() => plans.name),
    pendingPlanAt: timestamp('pending_plan_at', { withTimezone: true, mode: 'date' }),
    /** Billing cycles are calendar months counted from this instant. */
    cycleAnchor: timestamp('cycle_anchor', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('accounts_email_key').on(t.email)],
)
