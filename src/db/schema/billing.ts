import { pgTable, uuid, text, integer, timestamp, doublePrecision, index } from 'drizzle-orm/pg-core'
import { accounts } from './accounts.ts'
import { plans } from './plans.ts'

/** Append-only ledger of plan changes and what they cost. */
export const billingLedger = pgTable(
  'billing_ledger',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** `upgrade` (charged now, prorated), `downgrade_scheduled` (free, takes effect at `effectiveAt`), `downgrade_cancelled` (a pending downgrade withdrawn; free). */
    kind: text('kind').notNull(),
    fromPlan: text('from_plan')
      .notNull()
      .references(() => plans.name),
    toPlan: text('to_plan')
      .notNull()
      .references(() => plans.name),
    /** Positive is a charge, in US cents. */
    amountCents: integer('amount_cents').notNull(),
    /** Share of the billing cycle left when the change was made, 0..1. */
    prorationFraction: doublePrecision('proration_fraction').notNull(),
    cycleStart: timestamp('cycle_start', { withTimezone: true, mode: 'date' }).notNull(),
    cycleEnd: timestamp('cycle_end', { withTimezone: true, mode: 'date' }).notNull(),
    effectiveAt: timestamp('effective_at', { withTimezone: true, mode: 'date' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('billing_ledger_account_idx').on(t.accountId, t.createdAt)],
)
