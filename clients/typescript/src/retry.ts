// When a failed call is tried again, and after how long. The server's word wins: a `Retry-After`
// (or `retryAfter`) is never cut short, and a wait longer than the caller's bound is not waited
// at all: the error is thrown at once. A daily quota is only waited for when the caller says so.
import { QuotaExceededError, RateLimitedError, ServiceUnavailableError, type TeaApiError } from './errors.js'

export interface RetryOptions {
  /** Retries after the first attempt, at most (default 3). */
  maxRetries?: number
  /** The first backoff step in milliseconds; it doubles with each retry (default 500). */
  baseDelayMs?: number
  /**
   * The longest wait before a retry, in milliseconds (default 30,000). A 503 or `RATE_LIMITED`
   * whose `Retry-After` is longer is thrown at once instead of waited for.
   */
  maxDelayMs?: number
  /**
   * The longest wait for the daily quota to reset, in seconds (default 0: a `QUOTA_EXCEEDED` is
   * thrown at once as a QuotaExceededError). A larger value waits when the reset is that close.
   */
  maxQuotaWaitSeconds?: number
}

export type RetryPolicy = Required<RetryOptions>

export const DEFAULT_RETRY: RetryPolicy = Object.freeze({ maxRetries: 3, baseDelayMs: 500, maxDelayMs: 30_000, maxQuotaWaitSeconds: 0 })

/** A failed attempt: no answer at all, or an error answer of the API. */
export type Failure = { kind: 'network' } | { kind: 'api'; error: TeaApiError }

/**
 * The wait in milliseconds before retry number `attempt` (0-based), or undefined when the
 * failure is not retried. Backoff is exponential with jitter (half fixed, half random), so
 * clients that failed together do not come back together; a server hint is a floor.
 */
export function retryDelayMs(
  failure: Failure,
  attempt: number,
  policy: RetryPolicy,
  random: () => number = Math.random,
): number | undefined {
  if (attempt >= policy.maxRetries) return undefined
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt)
  const jitter = random() * (step / 2)
  if (failure.kind === 'network') return step / 2 + jitter
  const err = failure.error
  if (err instanceof QuotaExceededError) {
    if (policy.maxQuotaWaitSeconds <= 0 || err.retryAfter > policy.maxQuotaWaitSeconds) return undefined
    return err.retryAfter * 1000 + jitter
  }
  let hintSeconds: number | undefined
  if (err instanceof RateLimitedError) hintSeconds = err.retryAfter
  else if (err instanceof ServiceUnavailableError) hintSeconds = err.retryAfter
  else return undefined
  if (hintSeconds === undefined) return step / 2 + jitter
  if (hintSeconds * 1000 > policy.maxDelayMs) return undefined
  return Math.max(hintSeconds * 1000, step / 2) + jitter
}
