import { and, eq, gt, gte, isNull, lte, sql } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { analysisCache, apiTokens, dailyUsage } from '../schema/index.ts'
import { asyncCommit as asyncCommitCondition } from './async-commit.ts'
import { DatabaseTimeoutError } from '../deadline.ts'
import { tokenEffectivePlanSql } from './accounts.ts'
import type { TokenPrincipal } from './tokens.ts'

// On a PostgreSQL server, counting statements commit asynchronously (on `asyncDb`, a pool whose
// sessions do, or else through asyncCommit's `set_config`): the limit is
// as exact as ever, and what a database crash may lose is the counts of its last ~0.6 s, which
// under-counts, never over-counts. On PGlite they commit synchronously: it has no WAL writer, so
// an asynchronous commit stays in memory until something else writes the WAL, and a killed
// process loses every count since. Refunds keep the synchronous commit everywhere: a refund lost
// while its count survived would over-count, and a refund's flush also carries every count
// committed before it.

/** The statement deadline's error in `err` or its causes (Drizzle wraps the driver's error). */
function deadlinePassed(err: unknown): DatabaseTimeoutError | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof DatabaseTimeoutError) return e
  }
  return undefined
}

/**
 * Whether a counting statement's raw driver result (postgres.js: rows of values; PGlite: an
 * object holding them) counted: `used` is the last column of each, null or absent when not.
 */
function countedIn(raw: unknown): boolean {
  const rows = Array.isArray(raw) ? (raw as unknown[]) : (raw as { rows?: unknown[] } | undefined)?.rows
  const row = rows?.[0]
  return Array.isArray(row) && row.length > 0 && row[row.length - 1] !== null && row[row.length - 1] !== undefined
}

/** A shared cache entry read by `reserveWithTokenLookingUp`. */
export interface CachedRow {
  key: string
  payload: string
  createdAt: Date
}

export interface UsageRepositoryOptions {
  asyncCommit: boolean
  /**
   * With `asyncCommit`: a pool whose sessions commit asynchronously (src/db/client.ts), on which
   * the counting statements run without a `set_config` of their own. Refunds stay on `db`.
   */
  asyncDb?: Db
  /**
   * A count whose statement passed its deadline (its request was answered 503) and that the
   * database applied afterwards: `k` requests of that account and day to refund.
   */
  onLateCount?: (accountId: string, day: string, k: number) => void
}

export function createUsageRepository(db: Db, opts: UsageRepositoryOptions) {
  // Where the counting statements run, and what makes them commit asynchronously there.
  const counter = opts.asyncCommit && opts.asyncDb ? opts.asyncDb : db
  const asyncCommit = opts.asyncCommit && !opts.asyncDb ? asyncCommitCondition : sql`true`
  /** Runs a counting statement; one that passes its deadline is watched for a late count. */
  const counting = async <T>(accountId: string, day: string, k: number, run: () => Promise<T>): Promise<T> => {
    try {
      return await run()
    } catch (err) {
      const late = deadlinePassed(err)
      const onLateCount = opts.onLateCount
      if (late && onLateCount) void late.late.then((raw) => countedIn(raw) && onLateCount(accountId, day, k))
      throw err
    }
  }
  // Atomic check-and-increment in one statement: N concurrent callers against R remaining
  // succeed exactly min(N, R) times, on one node or many. No row is returned when full.
  const reserve = counter
    .insert(dailyUsage)
    .values({ accountId: sql.placeholder('accountId'), day: sql.placeholder('day'), used: 1 })
    .onConflictDoUpdate({
      target: [dailyUsage.accountId, dailyUsage.day],
      set: { used: sql`${dailyUsage.used} + 1` },
      // With the `set_config`, the first count of a day (the insert) commits synchronously: once
      // a day per account. On the asynchronous pool every count commits asynchronously.
      setWhere: sql`${dailyUsage.used} < ${sql.placeholder('limit')}::integer and ${asyncCommit}`,
    })
    .returning({ used: dailyUsage.used })
    .prepare('quota_reserve')

  // The same for k requests at once, all or nothing (k ≤ limit): used by the per-account
  // batcher (src/db/reservation-batcher.ts) so that one hot account costs one statement per
  // batch instead of one per request.
  const reserveMany = counter
    .insert(dailyUsage)
    .values({ accountId: sql.placeholder('accountId'), day: sql.placeholder('day'), used: sql.placeholder('k') })
    .onConflictDoUpdate({
      target: [dailyUsage.accountId, dailyUsage.day],
      set: { used: sql`${dailyUsage.used} + ${sql.placeholder('k')}::integer` },
      setWhere: sql`${dailyUsage.used} + ${sql.placeholder('k')}::integer <= ${sql.placeholder('limit')}::integer and ${asyncCommit}`,
    })
    .returning({ used: dailyUsage.used })
    .prepare('quota_reserve_many')

  // The token check and the count in ONE statement, for POST /v1/analyze (see src/domain/deferred-token-check.ts):
  // `p` is the token look-up (valid, not revoked, of this account; its effective plan), `r`
  // counts k requests all or nothing against that plan's limit, only when `p` found the token.
  // No row: the token is not valid (and nothing was counted). A row whose `used` is null: valid,
  // but the k requests do not fit. Both parts read the database as it is when the statement
  // runs, so a revocation or a plan change committed before is seen, as by separate statements
  // (the plan and its limit are the token row's copy, which a plan change updates in its own
  // transaction: src/db/schema/tokens.ts).
  const effective = tokenEffectivePlanSql(sql.placeholder('now'))
  const principal = counter.$with('p').as(
    counter
      .select({
        tokenId: sql<string>`${apiTokens.id}`.as('token_id'),
        accountId: sql<string>`${apiTokens.accountId}`.as('account_id'),
        plan: sql<string>`${effective.plan}`.as('plan'),
        limit: sql<number>`${effective.limit}`.as('lim'),
      })
      .from(apiTokens)
      .where(
        and(
          eq(apiTokens.tokenHash, sql.placeholder('hash')),
          isNull(apiTokens.revokedAt),
          eq(apiTokens.accountId, sql.placeholder('accountId')),
          asyncCommit,
        ),
      ),
  )
  const counted = counter.$with('r').as(
    counter
      .insert(dailyUsage)
      .select(
        counter
          .select({
            accountId: principal.accountId,
            day: sql`${sql.placeholder('day')}::date`.as('day'),
            used: sql`${sql.placeholder('k')}::integer`.as('used'),
          })
          .from(principal)
          .where(sql`${sql.placeholder('k')}::integer <= ${principal.limit}`),
      )
      .onConflictDoUpdate({
        target: [dailyUsage.accountId, dailyUsage.day],
        set: { used: sql`${dailyUsage.used} + excluded.used` },
        setWhere: sql`${dailyUsage.used} + excluded.used <= (select ${principal.limit} from ${principal})`,
      })
      .returning({ used: dailyUsage.used }),
  )
  const reserveWithToken = counter
    .with(principal, counted)
    .select({
      tokenId: principal.tokenId,
      accountId: principal.accountId,
      plan: principal.plan,
      limit: sql<number>`${principal.limit}`.mapWith(Number),
      used: sql<number | null>`(select ${counted.used} from ${counted})`,
    })
    .from(principal)
    .prepare('quota_reserve_with_token')

  // The same statement that also reads the shared cache's entries `keys` of this account (an
  // in-process miss on POST /v1/analyze: the look-up and the count in one round trip instead of
  // two). One row per entry found (the principal and the count repeated on each; `used`, from
  // the count run once, stays the last column for `countedIn`), or one row with no entry. The
  // entries are read only when the token is valid: no row at all otherwise. A separate statement
  // from `reserveWithToken`, so that the cached path does not pay for the look-up.
  const found = counter.$with('c').as(
    counter
      .select({ key: analysisCache.key, payload: analysisCache.payload, createdAt: analysisCache.createdAt })
      .from(analysisCache)
      .where(
        and(
          eq(analysisCache.accountId, sql.placeholder('accountId')),
          sql`${analysisCache.key} = any(${sql.placeholder('keys')}::text[])`,
          gt(analysisCache.createdAt, sql`${sql.placeholder('notBefore')}::timestamptz`),
        ),
      ),
  )
  const reserveWithTokenLookingUp = counter
    .with(principal, counted, found)
    .select({
      tokenId: principal.tokenId,
      accountId: principal.accountId,
      plan: principal.plan,
      limit: sql<number>`${principal.limit}`.mapWith(Number),
      key: found.key,
      payload: found.payload,
      createdAt: found.createdAt,
      used: sql<number | null>`(select ${counted.used} from ${counted})`,
    })
    .from(principal)
    .leftJoin(found, sql`true`)
    .prepare('quota_reserve_with_token_look_up')

  const refund = db
    .update(dailyUsage)
    .set({ used: sql`${dailyUsage.used} - 1` })
    .where(and(eq(dailyUsage.accountId, sql.placeholder('accountId')), eq(dailyUsage.day, sql.placeholder('day')), gt(dailyUsage.used, 0)))
    .returning({ used: dailyUsage.used })
    .prepare('quota_refund')

  return {
    /** The new count, or undefined when the limit was already reached. */
    async reserve(accountId: string, day: string, limit: number): Promise<number | undefined> {
      const rows = await counting(accountId, day, 1, () => reserve.execute({ accountId, day, limit }))
      return rows[0]?.used
    },
    /** The new count after reserving `k` (1 ≤ k ≤ limit) at once, or undefined when they do not all fit. */
    async reserveMany(accountId: string, day: string, limit: number, k: number): Promise<number | undefined> {
      const rows = await counting(accountId, day, k, () => reserveMany.execute({ accountId, day, limit, k }))
      return rows[0]?.used
    },
    /**
     * Checks the token and counts `k` requests (k ≥ 1) at once, all or nothing, in one statement.
     * undefined: the token is unknown, revoked or not this account's; nothing counted. Otherwise
     * the principal, whose `used` is the new count, or undefined when the k do not fit.
     */
    async reserveWithToken(
      hash: string,
      accountId: string,
      day: string,
      now: Date,
      k = 1,
    ): Promise<{ principal: Omit<TokenPrincipal, 'used'>; used: number | undefined } | undefined> {
      const [row] = await counting(accountId, day, k, () => reserveWithToken.execute({ hash, accountId, day, now: now.toISOString(), k }))
      if (!row) return undefined
      const { used, ...principal } = row
      return { principal, used: used === null ? undefined : Number(used) }
    },
    /**
     * `reserveWithToken` that also reads the account's unexpired cache entries among `keys`
     * (created after `notBefore`), in the same statement; `cached` holds those found, read
     * whether or not the k fit.
     */
    async reserveWithTokenLookingUp(
      hash: string,
      accountId: string,
      day: string,
      now: Date,
      k: number,
      keys: string[],
      notBefore: Date,
    ): Promise<{ principal: Omit<TokenPrincipal, 'used'>; used: number | undefined; cached: CachedRow[] } | undefined> {
      const rows = await counting(accountId, day, k, () =>
        reserveWithTokenLookingUp.execute({ hash, accountId, day, now: now.toISOString(), k, keys, notBefore: notBefore.toISOString() }),
      )
      const first = rows[0]
      if (!first) return undefined
      const cached: CachedRow[] = []
      for (const r of rows)
        if (r.key !== null && r.payload !== null && r.createdAt !== null)
          cached.push({ key: r.key, payload: r.payload, createdAt: r.createdAt })
      const { tokenId, plan, limit, used } = first
      return { principal: { tokenId, accountId: first.accountId, plan, limit }, used: used === null ? undefined : Number(used), cached }
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
