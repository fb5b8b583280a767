import { eq, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { accounts, apiTokens, loginAttempts, plans, sessions } from '../schema/index.ts'

/** The plan in force at `now`: a scheduled downgrade wins once its date has come. */
export function effectivePlanSql(now: SQL | ReturnType<typeof sql.placeholder> | Date): SQL<string> {
  const at = now instanceof Date ? sql`${now.toISOString()}::timestamptz` : sql`${now}::timestamptz`
  return sql<string>`(case when ${accounts.pendingPlanAt} is not null and ${accounts.pendingPlanAt} <= ${at} then ${accounts.pendingPlan} else ${accounts.plan} end)`
}

/**
 * The same choice over the copy of the account's plans on a token's row (src/db/schema/tokens.ts):
 * the effective plan's name and its daily limit, without joining the account or the catalogue.
 */
export function tokenEffectivePlanSql(now: ReturnType<typeof sql.placeholder>): { plan: SQL<string>; limit: SQL<number> } {
  const pending = sql`${apiTokens.pendingPlanAt} is not null and ${apiTokens.pendingPlanAt} <= ${now}::timestamptz`
  return {
    plan: sql<string>`(case when ${pending} then ${apiTokens.pendingPlan} else ${apiTokens.plan} end)`,
    limit: sql<number>`(case when ${pending} then ${apiTokens.pendingDailyLimit} else ${apiTokens.dailyLimit} end)`,
  }
}

export type AccountRow = typeof accounts.$inferSelect
export type PlanRow = typeof plans.$inferSelect

export function createAccountsRepository(db: Db) {
  return {
    async insert(row: { email: string; passwordHash: string | null; plan: string; cycleAnchor: Date }): Promise<AccountRow> {
      const [created] = await db.insert(accounts).values(row).returning()
      return created
    },
    async findByEmail(email: string): Promise<AccountRow | undefined> {
      const [row] = await db.select().from(accounts).where(eq(accounts.email, email))
      return row
    },
    async findById(id: string): Promise<AccountRow | undefined> {
      const [row] = await db.select().from(accounts).where(eq(accounts.id, id))
      return row
    },
    /** In a transaction: locks the row for the rest of it (plan changes, token creation). */
    async lockById(id: string): Promise<AccountRow | undefined> {
      const [row] = await db.select().from(accounts).where(eq(accounts.id, id)).for('update')
      return row
    },
    async update(id: string, values: Partial<Pick<AccountRow, 'plan' | 'pendingPlan' | 'pendingPlanAt' | 'cycleAnchor' | 'passwordHash'>>) {
      await db.update(accounts).set(values).where(eq(accounts.id, id))
    },
    /**
     * A new password hash; every session of the account ends and its failed-login counter is
     * cleared, in one transaction (someone who knew the old password keeps no way in).
     */
    async setPassword(id: string, email: string, passwordHash: string): Promise<{ sessionsEnded: number }> {
      return db.transaction(async (tx) => {
        await tx.update(accounts).set({ passwordHash }).where(eq(accounts.id, id))
        const ended = await tx.delete(sessions).where(eq(sessions.accountId, id)).returning({ id: sessions.idHash })
        await tx.delete(loginAttempts).where(eq(loginAttempts.key, `account:${email}`))
        return { sessionsEnded: ended.length }
      })
    },
    async listPlans(): Promise<PlanRow[]> {
      return db.select().from(plans).orderBy(plans.rank)
    },
    async findPlan(name: string): Promise<PlanRow | undefined> {
      const [row] = await db.select().from(plans).where(eq(plans.name, name))
      return row
    },
  }
}
export type AccountsRepository = ReturnType<typeof createAccountsRepository>
