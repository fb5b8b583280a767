import { and, eq, isNull, sql, desc, count, or, lt, type SQL } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { apiTokens, dailyUsage } from '../schema/index.ts'
import { tokenEffectivePlanSql } from './accounts.ts'
import { rawStatement } from '../raw-statement.ts'

export interface TokenPrincipal {
  tokenId: string
  accountId: string
  plan: string
  limit: number
  /** Today's count when looked up (0 when there is no row yet). */
  used: number
}

export function createTokensRepository(db: Db) {
  // Token, account, effective plan and today's usage in one round trip, for the tokens that
  // `where` picks; only unrevoked tokens. No cache in front of it, so a revocation is seen by
  // every node at once. The plan and its limit come from the token's own copy of them, which
  // the database keeps in step with the account (src/db/schema/tokens.ts).
  const effective = tokenEffectivePlanSql(sql.placeholder('now'))
  const principals = (where: SQL) =>
    db
      .select({
        hash: apiTokens.tokenHash,
        tokenId: apiTokens.id,
        accountId: apiTokens.accountId,
        plan: effective.plan,
        limit: sql<number>`${effective.limit}`.mapWith(Number),
        used: sql<number>`coalesce(${dailyUsage.used}, 0)`.mapWith(Number),
      })
      .from(apiTokens)
      .leftJoin(dailyUsage, and(eq(dailyUsage.accountId, apiTokens.accountId), eq(dailyUsage.day, sql.placeholder('day'))))
      .where(and(where, isNull(apiTokens.revokedAt)))
  // The hot path of every request, prepared once.
  const one = principals(eq(apiTokens.tokenHash, sql.placeholder('hash')))
  const lookup = one.prepare('token_lookup')
  // The same for many tokens in one statement (src/db/token-batcher.ts): the look-ups that
  // arrive while one is in flight are answered together. The hashes go as one text[] parameter.
  const many = principals(sql`${apiTokens.tokenHash} = any(${sql.placeholder('hashes')}::text[])`)
  const lookupMany = many.prepare('token_lookup_many')
  // Both also sent to the driver directly, their rows read by position (the columns in the
  // order `principals` selects them): on every request, Drizzle's own per-call work costs more
  // than the rest of the look-up on this side. Inside a transaction there is no such path.
  const rawOne = rawStatement(db, one)
  const rawMany = rawStatement(db, many)
  const principalOf = (row: unknown[]): TokenPrincipal => ({
    tokenId: row[1] as string,
    accountId: row[2] as string,
    plan: row[3] as string,
    limit: Number(row[4]),
    used: Number(row[5]),
  })
  const withHash = (row: unknown[]): TokenPrincipal & { hash: string } => ({ hash: row[0] as string, ...principalOf(row) })

  // Written at most once a minute per token so a busy token does not turn every request into a write.
  const touch = db
    .update(apiTokens)
    .set({ lastUsedAt: sql`${sql.placeholder('now')}::timestamptz` })
    .where(
      and(
        eq(apiTokens.id, sql.placeholder('id')),
        or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, sql`${sql.placeholder('now')}::timestamptz - interval '60 seconds'`)),
      ),
    )
    .prepare('token_touch')

  return {
    async findActiveByHash(hash: string, day: string, now: Date): Promise<TokenPrincipal | undefined> {
      if (rawOne) {
        const [row] = await rawOne({ hash, day, now: now.toISOString() })
        return row && principalOf(row)
      }
      const [row] = await lookup.execute({ hash, day, now: now.toISOString() })
      if (!row) return undefined
      const { hash: _hash, ...principal } = row
      return principal
    },

    /** The valid ones among `hashes`, each with its hash; unknown and revoked ones are absent. */
    async findActiveByHashes(hashes: string[], day: string, now: Date): Promise<(TokenPrincipal & { hash: string })[]> {
      if (rawMany) return (await rawMany({ hashes, day, now: now.toISOString() })).map(withHash)
      return lookupMany.execute({ hashes, day, now: now.toISOString() })
    },

    async touch(id: string, now: Date): Promise<void> {
      await touch.execute({ id, now: now.toISOString() })
    },

    async insert(row: { accountId: string; name: string; preview: string; tokenHash: string; createdAt: Date }) {
      const [created] = await db.insert(apiTokens).values(row).returning()
      return created
    },

    async listByAccount(accountId: string) {
      return db
        .select({
          id: apiTokens.id,
          name: apiTokens.name,
          preview: apiTokens.preview,
          createdAt: apiTokens.createdAt,
          lastUsedAt: apiTokens.lastUsedAt,
          revokedAt: apiTokens.revokedAt,
        })
        .from(apiTokens)
        .where(eq(apiTokens.accountId, accountId))
        .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id))
    },

    async countActive(accountId: string): Promise<number> {
      const [row] = await db
        .select({ n: count() })
        .from(apiTokens)
        .where(and(eq(apiTokens.accountId, accountId), isNull(apiTokens.revokedAt)))
      return row.n
    },

    async findById(id: string) {
      const [row] = await db.select().from(apiTokens).where(eq(apiTokens.id, id))
      return row
    },

    /** Revokes once; a second call (or an unknown id) changes nothing and returns undefined. */
    async revoke(id: string, now: Date, accountId?: string) {
      const [row] = await db
        .update(apiTokens)
        .set({ revokedAt: now })
        .where(and(eq(apiTokens.id, id), isNull(apiTokens.revokedAt), accountId ? eq(apiTokens.accountId, accountId) : undefined))
        .returning()
      return row
    },
  }
}
export type TokensRepository = ReturnType<typeof createTokensRepository>
