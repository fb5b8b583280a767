import { pgTable, text, integer } from 'drizzle-orm/pg-core'

/** The plan catalogue; seeded by a migration with the product decisions' plans and limits. */
export const plans = pgTable('plans', {
  name: text('name').primaryKey(),
  dailyLimit: integer('daily_limit').notNull(),
  priceCents: integer('price_cents').notNull(),
  maxTokens: integer('max_tokens').notNull(),
  rank: integer('rank').notNull(),
})
