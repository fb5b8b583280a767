import { QuotaExceededError } from '../errors.ts'
import { reserveCheckingToken } from './deferred-token-check.ts'
import type { CachedRow, UsageRepository } from '../db/repositories/usage.ts'
import { midnightAfter, nextUtcMidnight, utcDay, type Clock } from './clock.ts'

/** What the rate-limit headers and GET /v1/quota report. */
export interface QuotaState {
  plan: string
  limit: number
  used: number
  /**
   * The UTC day `used` belongs to. The reset the headers name is the end of that day, not of
   * the day the response happens to be sent on: a request read at 23:59:59.9 and answered
   * after midnight reports one day throughout.
   */
  day?: string
}

export function remaining(q: QuotaState): number {
  return Math.max(0, q.limit - q.used)
}

export function rateLimitHeaders(q: QuotaState, now: Date): Record<string, string> {
  return {
    'x-ratelimit-limit': String(q.limit),
    'x-ratelimit-remaining': String(remaining(q)),
    'x-ratelimit-reset': String(Math.floor((q.day ? midnightAfter(q.day) : nextUtcMidnight(now)).getTime() / 1000)),
  }
}

/** A counted request; refund it if the request ends in an error. */
export interface Reservation {
  accountId: string
  /** The day it was counted on: a refund after midnight goes back to that day. */
  day: string
  used: number
}

/**
 * The caller of a request. Normally its token was checked when the request arrived. On
 * POST /v1/analyze it may instead carry `unverifiedTokenHash` (src/domain/deferred-token-check.ts):
 * only the account is known, and the token is checked by the statement that counts the request,
 * which then fills in the rest.
 */
export type Caller = QuotaState & { accountId: string; tokenId?: string; unverifiedTokenHash?: string }

/**
 * Counts one request before the work runs, atomically against the limit; throws the 429 when
 * today's quota is spent, or the 401 when an unverified token turns out not to be valid (then
 * nothing is counted). `state` is updated so the response headers tell the truth.
 */
export async function reserveRequest(
  deps: { usage: Pick<UsageRepository, 'reserve' | 'reserveWithToken'>; clock: Clock },
  state: Caller,
): Promise<Reservation> {
  const now = deps.clock()
  const day = utcDay(now)
  const unverified = state.unverifiedTokenHash
  const used = unverified
    ? await reserveCheckingToken(deps.usage, state, unverified, day, now)
    : await deps.usage.reserve(state.accountId, day, state.limit)
  return counted(state, day, now, used)
}

/**
 * `reserveRequest` for a caller whose token check is deferred, which also reads the shared
 * cache's entry `lookUp.key` in the same statement (one round trip instead of two). The entry is
 * returned whether or not the request was counted; it is read only for a valid token.
 */
export async function reserveRequestLookingUp(
  deps: { usage: Pick<UsageRepository, 'reserveWithTokenLookingUp'>; clock: Clock },
  state: Caller & { unverifiedTokenHash: string },
  lookUp: { key: string; notBefore: Date },
): Promise<{ reservation: Reservation; cached: CachedRow | undefined }> {
  const now = deps.clock()
  const day = utcDay(now)
  let cached: CachedRow | undefined
  // The token check's rules stay in reserveCheckingToken; the statement is the one that also looks up.
  const usage: Pick<UsageRepository, 'reserveWithToken'> = {
    reserveWithToken: async (hash, accountId, d, n) => {
      const checked = await deps.usage.reserveWithTokenLookingUp(hash, accountId, d, n, 1, [lookUp.key], lookUp.notBefore)
      cached = checked?.cached[0]
      return checked
    },
  }
  const used = await reserveCheckingToken(usage, state, state.unverifiedTokenHash, day, now)
  return { reservation: counted(state, day, now, used), cached }
}

/** The reservation of a request counted (`used`, its new count), or the 429 when it was not. */
function counted(state: Caller, day: string, now: Date, used: number | undefined): Reservation {
  state.day = day
  if (used === undefined) {
    state.used = Math.max(state.used, state.limit)
    const reset = nextUtcMidnight(now)
    throw new QuotaExceededError(state.limit, reset, Math.max(1, Math.ceil((reset.getTime() - now.getTime()) / 1000)))
  }
  state.used = used
  return { accountId: state.accountId, day, used }
}

export async function refundRequest(deps: { usage: Pick<UsageRepository, 'refund'> }, r: Reservation, state?: QuotaState): Promise<void> {
  const used = await deps.usage.refund(r.accountId, r.day)
  if (state && used !== undefined) state.used = used
}
