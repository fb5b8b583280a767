import { and, eq, gt, lt, lte, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { analysisCache } from '../schema/index.ts'

export function createCacheRepository(db: Db) {
  const get = db
    .select({ payload: analysisCache.payload, createdAt: analysisCache.createdAt })
    .from(analysisCache)
    .where(
      and(
        eq(analysisCache.accountId, sql.placeholder('accountId')),
        eq(analysisCache.key, sql.placeholder('key')),
        gt(analysisCache.createdAt, sql`${sql.placeholder('notBefore')}::timestamptz`),
      ),
    )
    .prepare('cache_get')

  return {
    async get(accountId: string, key: string, notBefore: Date) {
      const rows = await get.execute({ accountId, key, notBefore: notBefore.toISOString() })
      return rows[0]
    },
    /**
     * The first analysis wins: its time starts the 24 hours. A row 24 hours old or more is replaced
     * (the same boundary as `get`, which treats it as expired).
     * Returns the stored creation time.
     */
    async put(accountId: string, key: string, payload: string, createdAt: Date, notBefore: Date): Promise<Date> {
      const rows = await db
        .insert(analysisCache)
        .values({ accountId, key, payload, createdAt })
        .onConflictDoUpdate({
          target: [analysisCache.accountId, analysisCache.key],
          set: { payload, createdAt },
          setWhere: lte(analysisCache.createdAt, notBefore),
        })
        .returning({ createdAt: analysisCache.createdAt })
      return rows[0]?.createdAt ?? createdAt
    },
    async deleteOlderThan(notBefore: Date): Promise<number> {
      const rows = await db.delete(analysisCache).where(lt(analysisCache.createdAt, notBefore)).returning({ key: analysisCache.key })
      return rows.length
    },
  }
}
export type CacheRepository = ReturnType<typeof createCacheRepository>
