import { and, eq, gt, lt, lte, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { analysisCache } from '../schema/index.ts'
import { asyncCommit as asyncCommitSetting } from './async-commit.ts'

/**
 * `asyncDb`: a pool whose sessions commit asynchronously (src/db/client.ts), for the writes;
 * without it they make their own transaction commit asynchronously (`asyncCommit`).
 */
export function createCacheRepository(db: Db, asyncDb?: Db) {
  const writer = asyncDb ?? db
  const asyncCommit = asyncDb ? sql`true` : asyncCommitSetting
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

  // The same for many entries in one statement (src/db/cache-batcher.ts): the look-ups
  // that arrive while one is in flight go together. Pairs travel as two arrays, unnested.
  const getMany = db
    .select({
      accountId: analysisCache.accountId,
      key: analysisCache.key,
      payload: analysisCache.payload,
      createdAt: analysisCache.createdAt,
    })
    .from(analysisCache)
    .where(
      and(
        sql`(${analysisCache.accountId}, ${analysisCache.key}) in (select * from unnest(${sql.placeholder('accountIds')}::uuid[], ${sql.placeholder('keys')}::text[]))`,
        gt(analysisCache.createdAt, sql`${sql.placeholder('notBefore')}::timestamptz`),
      ),
    )
    .prepare('cache_get_many')

  // Many writes in one statement, with `put`'s rule per row: the first analysis wins, a row
  // `maxAgeMs` old or more (relative to the new row's time) is replaced. Times travel as text[]:
  // drizzle's postgres-js driver passes timestamptz[] parameters through unserialised.
  // Cache writes commit asynchronously (asyncCommit): an entry a database crash loses costs one
  // analysis afresh, and every uncached request waits for its write.
  const putMany = writer
    .insert(analysisCache)
    .select(
      sql`select * from unnest(${sql.placeholder('accountIds')}::uuid[], ${sql.placeholder('keys')}::text[], ${sql.placeholder('payloads')}::text[], ${sql.placeholder('createdAts')}::text[]::timestamptz[]) where ${asyncCommit}`,
    )
    .onConflictDoUpdate({
      target: [analysisCache.accountId, analysisCache.key],
      set: { payload: sql`excluded.payload`, createdAt: sql`excluded.created_at` },
      setWhere: sql`${analysisCache.createdAt} <= excluded.created_at - ${sql.placeholder('maxAgeMs')}::integer * interval '1 millisecond'`,
    })
    .returning({ accountId: analysisCache.accountId, key: analysisCache.key, createdAt: analysisCache.createdAt })
    .prepare('cache_put_many')

  // One write, as a named prepared statement: an unnamed statement with parameters costs
  // postgres.js two round trips (describe, then execute), and every uncached analysis that is
  // alone in its batch takes this path. The payload travels once (`excluded` in the update).
  const put = writer
    .insert(analysisCache)
    .select(
      sql`select ${sql.placeholder('accountId')}::uuid, ${sql.placeholder('key')}::text, ${sql.placeholder('payload')}::text, ${sql.placeholder('createdAt')}::timestamptz where ${asyncCommit}`,
    )
    .onConflictDoUpdate({
      target: [analysisCache.accountId, analysisCache.key],
      set: { payload: sql`excluded.payload`, createdAt: sql`excluded.created_at` },
      setWhere: lte(analysisCache.createdAt, sql`${sql.placeholder('notBefore')}::timestamptz`),
    })
    .returning({ createdAt: analysisCache.createdAt })
    .prepare('cache_put')

  return {
    /** Unexpired entries among `wanted`; the others are absent. */
    async getMany(wanted: { accountId: string; key: string }[], notBefore: Date) {
      return getMany.execute({
        accountIds: wanted.map((w) => w.accountId),
        keys: wanted.map((w) => w.key),
        notBefore: notBefore.toISOString(),
      })
    },
    /**
     * Writes distinct entries (at most one per account and key) in one statement; returns the
     * entries written, with their creation time. An entry absent from the answer was kept as it was.
     */
    async putMany(rows: { accountId: string; key: string; payload: string; createdAt: Date }[], maxAgeMs: number) {
      return putMany.execute({
        accountIds: rows.map((r) => r.accountId),
        keys: rows.map((r) => r.key),
        payloads: rows.map((r) => r.payload),
        createdAts: rows.map((r) => r.createdAt.toISOString()),
        maxAgeMs,
      })
    },
    async get(accountId: string, key: string, notBefore: Date): Promise<{ payload: string; createdAt: Date } | undefined> {
      const rows = await get.execute({ accountId, key, notBefore: notBefore.toISOString() })
      return rows[0]
    },
    /**
     * The first analysis wins: its time starts the 24 hours. A row 24 hours old or more is replaced
     * (the same boundary as `get`, which treats it as expired).
     * Returns the stored creation time.
     */
    async put(accountId: string, key: string, payload: string, createdAt: Date, notBefore: Date): Promise<Date> {
      const rows = await put.execute({ accountId, key, payload, createdAt: createdAt.toISOString(), notBefore: notBefore.toISOString() })
      return rows[0]?.createdAt ?? createdAt
    },
    async deleteOlderThan(notBefore: Date): Promise<number> {
      const rows = await db.delete(analysisCache).where(lt(analysisCache.createdAt, notBefore)).returning({ key: analysisCache.key })
      return rows.length
    },
  }
}
export type CacheRepository = ReturnType<typeof createCacheRepository>
