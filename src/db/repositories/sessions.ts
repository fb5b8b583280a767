// The dashboard's sessions. Every node sees the same rows, so a logout holds on all of them.
import { and, eq, gt, lte } from 'drizzle-orm'
import { createHash, randomBytes } from 'node:crypto'
import type { Db } from '../client.ts'
import { accounts, sessions } from '../schema/index.ts'

/** Hex SHA-256: what the sessions table keeps instead of the cookie value. */
export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('hex')
}

export function randomSecret(): string {
  return randomBytes(32).toString('base64url')
}

export interface SessionPolicy {
  /** A session ends this long after login, whatever happens. */
  absoluteMs: number
  /** …or this long after its last use. */
  idleMs: number
}

export const SESSION_POLICY: SessionPolicy = { absoluteMs: 7 * 24 * 3600_000, idleMs: 24 * 3600_000 }

export interface SessionView {
  idHash: string
  accountId: string
  email: string
  csrfToken: string
  createdAt: Date
  expiresAt: Date
}

export function createSessionsRepository(db: Db, policy: SessionPolicy = SESSION_POLICY) {
  const expiry = (createdAt: Date, now: Date) => new Date(Math.min(createdAt.getTime() + policy.absoluteMs, now.getTime() + policy.idleMs))
  return {
    policy,
    /** A new session; returns the cookie value (shown to nobody else, stored only as a hash). */
    async create(accountId: string, now: Date): Promise<{ cookie: string; csrfToken: string; expiresAt: Date }> {
      const cookie = randomSecret()
      const csrfToken = randomSecret()
      const expiresAt = expiry(now, now)
      await db.insert(sessions).values({ idHash: sha256(cookie), accountId, csrfToken, createdAt: now, expiresAt })
      // Housekeeping on the account's own rows: expired sessions are of no use to anyone.
      await db.delete(sessions).where(and(eq(sessions.accountId, accountId), lte(sessions.expiresAt, now)))
      return { cookie, csrfToken, expiresAt }
    },
    /** The live session behind a cookie value, its idle expiry pushed forward; undefined if none. */
    async find(cookie: string, now: Date): Promise<SessionView | undefined> {
      const idHash = sha256(cookie)
      const [row] = await db
        .select({
          idHash: sessions.idHash,
          accountId: sessions.accountId,
          email: accounts.email,
          csrfToken: sessions.csrfToken,
          createdAt: sessions.createdAt,
          expiresAt: sessions.expiresAt,
        })
        .from(sessions)
        .innerJoin(accounts, eq(accounts.id, sessions.accountId))
        .where(and(eq(sessions.idHash, idHash), gt(sessions.expiresAt, now)))
      if (!row) return undefined
      const next = expiry(row.createdAt, now)
      // Written at most about once a minute per session, not on every page view.
      if (next.getTime() - row.expiresAt.getTime() > 60_000) {
        await db.update(sessions).set({ expiresAt: next }).where(eq(sessions.idHash, idHash))
        row.expiresAt = next
      }
      return row
    },
    async delete(cookie: string): Promise<void> {
      await db.delete(sessions).where(eq(sessions.idHash, sha256(cookie)))
    },
    /** Removes every expired session; returns how many. */
    async prune(now: Date): Promise<number> {
      const rows = await db.delete(sessions).where(lte(sessions.expiresAt, now)).returning({ idHash: sessions.idHash })
      return rows.length
    },
  }
}
export type SessionsRepository = ReturnType<typeof createSessionsRepository>
