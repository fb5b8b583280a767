import { and, eq, gt, gte, lte, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { dailyUsage } from '../schema/index.ts'

export function createUsageRepository(db: Db) {
  // Atomic check-and-increment in one statement: N concurrent callers against R remaining
  // succeed exactly min(N, R) times, on one node or many. No row is returned when full.
  const reserve = db
    .insert(dailyUsage)
    .values({ accountId: sql.placeholder('accountId'), day: sql.placeholder('day'), used: 1 })
    .onConflictDoUpdate({
      target: [dailyUsage.accountId, dailyUsage.day],
      set: { used: sql`${dailyUsage.used} + 1` },
      setWhere: sql`${dailyUsage.used} < ${sql.placeholder('limit')}::integer`,
    })
    .returning({ used: dailyUsage.used })
    .prepare('quota_reserve')

  // The same for k requests at once, all or nothing (k ≤ limit): used by the per-account
  // batcher (src/domain/reservation-batcher.ts) so that one hot account costs one statement per
  // batch instead of one per request.
  const reserveMany = db
    .insert(dailyUsage)
    .values({ accountId: sql.placeholder('accountId'), day: sql.placeholder('day'), used: sql.placeholder('k') })
    .onConflictDoUpdate({
      target: [dailyUsage.accountId, dailyUsage.day],
      set: { used: sql`${dailyUsage.used} + ${sql.placeholder('k')}::integer` },
      setWhere: sql`${dailyUsage.used} + ${sql.placeholder('k')}::integer <= ${sql.placeholder('limit')}::integer`,
    })
    .returning({ used: dailyUsage.used })
    .prepare('quota_reserve_many')

  const refund = db
    .update(dailyUsage)
    .set({ used: sql`${dailyUsage.used} - 1` })
    .where(and(eq(dailyUsage.accountId, sql.placeholder('accountId')), eq(dailyUsage.day, sql.placeholder('day')), gt(dailyUsage.used, 0)))
    .returning({ used: dailyUsage.used })
    .prepare('quota_refund')

  return {
    /** The new count, or undefined when the limit was already reached. */
    async reserve(accountId: string, day: string, limit: number): Promise<number | undefined> {
      const rows = await reserve.execute({ accountId, day, limit })
      return rows[0]?.used
    },
    /** The new count after reserving `k` (1 ≤ k ≤ limit) at once, or undefined when they do not all fit. */
    async reserveMany(accountId: string, day: string, limit: number, k: number): Promise<number | undefined> {
      const rows = await reserveMany.execute({ accountId, day, limit, k })
      return rows[0]?.used
    },
    async refund(accountId: string, day: string): Promise<number | undefined> {
      const rows = await refund.execute({ accountId, day })
      return rows[0]?.used
    },
    async usedOn(accountId: string, day: string): Promise<number> {
      const [row] = await db
        .select({ used: dailyUsage.used })
        .from(dailyUsage)
        .where(and(eq(dailyUsage.accountId, accountId), eq(dailyUsage.day, day)))
      return row?.used ?? 0
    },
    /** Daily counts between two UTC days inclusive (days without requests are absent). */
    async history(accountId: string, fromDay: string, toDay: string): Promise<{ day: string; used: number }[]> {
      return db
        .select({ day: dailyUsage.day, used: dailyUsage.used })
        .from(dailyUsage)
        .where(and(eq(dailyUsage.accountId, accountId), gte(dailyUsage.day, fromDay), lte(dailyUsage.day, toDay)))
        .orderBy(dailyUsage.day)
    },
  }
}
export type UsageRepository = ReturnType<typeof createUsageRepository>
