import { pgTable, text, integer } from 'drizzle-orm/pg-core'

/** The plan catalogue; seeded by a migration with the spec's values (part 8). */
export const plans = pgTable('plans', {
  name: text('name').primaryKey(),
  dailyLimit: integer('daily_limit').notNull(),
  priceCents: integer('price_cents').notNull(),
  maxTokens: integer('max_tokens').notNull(),
  rank: integer('rank').notNull(),
})
