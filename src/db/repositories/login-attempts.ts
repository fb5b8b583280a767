// Counters of dashboard logins and sign-ups (the login_attempts table). Every node sees the same
// rows, so a lock-out holds on all of them.
import { and, eq, gt, like, lte, notLike, sql, type SQL } from 'drizzle-orm'
import type { Db } from '../client.ts'
import { loginAttempts } from '../schema/index.ts'

export interface LoginLimits {
  windowMs: number
  perAccount: number
  perIp: number
}

export const LOGIN_LIMITS: LoginLimits = { windowMs: 15 * 60_000, perAccount: 5, perIp: 20 }

/** A login attempt counted by `LoginThrottle.begin`, or the end of the window that refused it. */
export type LoginAttempt = { blockedUntil: Date } | { blockedUntil?: undefined; email: string; ipKey: string; ipWindowStart: Date }

/**
 * Fixed-window counters of failed logins, one per normalised email (whether or not an account
 * has it, so the counter itself reveals nothing) and one per client IP.
 *
 * An attempt is counted before its password is checked, by one conditional upsert per counter
 * that only increments while the counter is under its limit: concurrent attempts (on one node
 * or many) are serialised by the row, so no more than the limit are ever checked in a window.
 * A counter therefore holds failures plus attempts still being checked; a successful login
 * takes its own attempt back off the IP's counter and clears the email's.
 */
export function createLoginThrottle(db: Db, limits: LoginLimits = LOGIN_LIMITS) {
  const stale = (now: Date) => sql`${loginAttempts.windowStart} <= ${new Date(now.getTime() - limits.windowMs).toISOString()}::timestamptz`

  /** Counts one attempt on `key` unless it is at `limit`; the window's start when counted. */
  async function take(key: string, limit: number, now: Date): Promise<Date | undefined> {
    const [row] = await db
      .insert(loginAttempts)
      .values({ key, windowStart: now, failures: 1 })
      .onConflictDoUpdate({
        target: loginAttempts.key,
        set: {
          failures: sql`case when ${stale(now)} then 1 else ${loginAttempts.failures} + 1 end`,
          windowStart: sql`case when ${stale(now)} then ${now.toISOString()}::timestamptz else ${loginAttempts.windowStart} end`,
        },
        setWhere: sql`${stale(now)} or ${loginAttempts.failures} < ${limit}`,
      })
      .returning({ windowStart: loginAttempts.windowStart })
    return row?.windowStart
  }

  /** Takes one counted attempt back off `key`, if its window is still the one it was counted in. */
  async function giveBack(key: string, windowStart: Date): Promise<void> {
    await db
      .update(loginAttempts)
      .set({ failures: sql`${loginAttempts.failures} - 1` })
      .where(and(eq(loginAttempts.key, key), eq(loginAttempts.windowStart, windowStart), gt(loginAttempts.failures, 0)))
  }

  /** The end of the window that blocks `key` (read after a refused increment). */
  async function windowEnd(key: string, now: Date): Promise<Date> {
    const [row] = await db.select({ windowStart: loginAttempts.windowStart }).from(loginAttempts).where(eq(loginAttempts.key, key))
    // The row can only be missing if it was pruned in between: a fresh window is the safe answer.
    return new Date((row?.windowStart ?? now).getTime() + limits.windowMs)
  }

  return {
    limits,
    /**
     * Counts an attempt for `email` from `ip` before its password is checked. When either
     * counter is at its limit nothing is counted and the attempt must be refused.
     */
    async begin(email: string, ip: string, now: Date): Promise<LoginAttempt> {
      const accountKey = `account:${email}`
      const ipKey = `ip:${ip}`
      const accountWindow = await take(accountKey, limits.perAccount, now)
      if (!accountWindow) return { blockedUntil: await windowEnd(accountKey, now) }
      const ipWindowStart = await take(ipKey, limits.perIp, now)
      if (!ipWindowStart) {
        await giveBack(accountKey, accountWindow)
        return { blockedUntil: await windowEnd(ipKey, now) }
      }
      return { email, ipKey, ipWindowStart }
    },
    /** The password was right: the attempt was no failure. Clears the email's counter (not the IP's). */
    async succeeded(attempt: Exclude<LoginAttempt, { blockedUntil: Date }>): Promise<void> {
      await db.delete(loginAttempts).where(eq(loginAttempts.key, `account:${attempt.email}`))
      await giveBack(attempt.ipKey, attempt.ipWindowStart)
    },
    /** Removes counters whose window has run out; returns how many. */
    async prune(now: Date): Promise<number> {
      return pruneWindows(db, notLike(loginAttempts.key, 'signup:%'), now, limits.windowMs)
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
      return pruneWindows(db, like(loginAttempts.key, 'signup:%'), now, limits.windowMs)
    },
  }
}
export type SignupThrottle = ReturnType<typeof createSignupThrottle>

/** Deletes the counters among `keys` whose window has run out; returns how many. */
async function pruneWindows(db: Db, keys: SQL, now: Date, windowMs: number): Promise<number> {
  const rows = await db
    .delete(loginAttempts)
    .where(and(keys, lte(loginAttempts.windowStart, new Date(now.getTime() - windowMs))))
    .returning({ key: loginAttempts.key })
  return rows.length
}
