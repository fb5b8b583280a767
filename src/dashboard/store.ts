// Dashboard state in the database: sessions and login-attempt counters. Every node sees the
// same rows, so a logout or a lock-out holds on all of them. Query builder only, so the same
// code runs on PGlite and PostgreSQL.
import { and, eq, gt, inArray, like, lte, notLike, sql } from 'drizzle-orm'
import { createHash, randomBytes } from 'node:crypto'
import type { Db } from '../db/client.ts'
import { accounts, loginAttempts, sessions } from '../db/schema/index.ts'

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

export function createSessionStore(db: Db, policy: SessionPolicy = SESSION_POLICY) {
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
export type SessionStore = ReturnType<typeof createSessionStore>

export interface LoginLimits {
  windowMs: number
  perAccount: number
  perIp: number
}

export const LOGIN_LIMITS: LoginLimits = { windowMs: 15 * 60_000, perAccount: 5, perIp: 20 }

/**
 * Fixed-window counters of failed logins, one per normalised email (whether or not an account
 * has it, so the counter itself reveals nothing) and one per client IP.
 */
export function createLoginThrottle(db: Db, limits: LoginLimits = LOGIN_LIMITS) {
  const keys = (email: string, ip: string) => ({ account: `account:${email}`, ip: `ip:${ip}` })
  return {
    limits,
    /** When blocked: the moment the earliest blocking window ends. */
    async blockedUntil(email: string, ip: string, now: Date): Promise<Date | undefined> {
      const k = keys(email, ip)
      const rows = await db.select().from(loginAttempts).where(inArray(loginAttempts.key, [k.account, k.ip]))
      let until: Date | undefined
      for (const row of rows) {
        const limit = row.key === k.account ? limits.perAccount : limits.perIp
        const ends = new Date(row.windowStart.getTime() + limits.windowMs)
        if (row.failures >= limit && ends > now && (!until || ends > until)) until = ends
      }
      return until
    },
    async recordFailure(email: string, ip: string, now: Date): Promise<void> {
      const stale = sql`${loginAttempts.windowStart} <= ${new Date(now.getTime() - limits.windowMs).toISOString()}::timestamptz`
      for (const key of Object.values(keys(email, ip))) {
        // One atomic upsert: a new window starts when the old one has run out.
        await db
          .insert(loginAttempts)
          .values({ key, windowStart: now, failures: 1 })
          .onConflictDoUpdate({
            target: loginAttempts.key,
            set: {
              failures: sql`case when ${stale} then 1 else ${loginAttempts.failures} + 1 end`,
              windowStart: sql`case when ${stale} then ${now.toISOString()}::timestamptz else ${loginAttempts.windowStart} end`,
            },
          })
      }
    },
    /** Removes counters whose window has run out; returns how many. */
    async prune(now: Date): Promise<number> {
      const rows = await db
        .delete(loginAttempts)
        .where(and(notLike(loginAttempts.key, 'signup:%'), lte(loginAttempts.windowStart, new Date(now.getTime() - limits.windowMs))))
        .returning({ key: loginAttempts.key })
      return rows.length
    },
    /** A successful login clears the account's counter (not the IP's). */
    async clearAccount(email: string): Promise<void> {
      await db.delete(loginAttempts).where(eq(loginAttempts.key, keys(email, '').account))
    },
  }
}
export type LoginThrottle = ReturnType<typeof createLoginThrottle>

export interface SignupLimits {
  windowMs: number
  perIp: number
}

export const SIGNUP_LIMITS: SignupLimits = { windowMs: 3600_000, perIp: 10 }

/**
 * Sign-ups per client IP in fixed one-hour windows (each costs an argon2 hash and may create an
 * account). Kept in the login_attempts table under `signup:<ip>`; there `failures` counts
 * sign-ups. Counted whatever the outcome, so the limit says nothing about any email.
 */
export function createSignupThrottle(db: Db, limits: SignupLimits = SIGNUP_LIMITS) {
  return {
    limits,
    /** Counts one sign-up; when it is over the limit, returns the end of the window. */
    async hit(ip: string, now: Date): Promise<Date | undefined> {
      const stale = sql`${loginAttempts.windowStart} <= ${new Date(now.getTime() - limits.windowMs).toISOString()}::timestamptz`
      const [row] = await db
        .insert(loginAttempts)
        .values({ key: `signup:${ip}`, windowStart: now, failures: 1 })
        .onConflictDoUpdate({
          target: loginAttempts.key,
          set: {
            failures: sql`case when ${stale} then 1 else ${loginAttempts.failures} + 1 end`,
            windowStart: sql`case when ${stale} then ${now.toISOString()}::timestamptz else ${loginAttempts.windowStart} end`,
          },
        })
        .returning()
      return row.failures > limits.perIp ? new Date(row.windowStart.getTime() + limits.windowMs) : undefined
    },
    async prune(now: Date): Promise<number> {
      const rows = await db
        .delete(loginAttempts)
        .where(and(like(loginAttempts.key, 'signup:%'), lte(loginAttempts.windowStart, new Date(now.getTime() - limits.windowMs))))
        .returning({ key: loginAttempts.key })
      return rows.length
    },
  }
}
export type SignupThrottle = ReturnType<typeof createSignupThrottle>
