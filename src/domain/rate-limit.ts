// The burst limit: a token bucket per API token, its rate and size set by the account's plan.
// A bucket holds up to `burst` requests and refills at `perSecond`; a request takes one, and
// finds it empty → 429 RATE_LIMITED with the seconds until one is back. Refused requests take
// nothing, so a client that keeps hammering is served again as soon as the rate allows.
// Buckets live in this process (the limit is per node) in a bounded LRU: a bucket evicted is one
// that nobody used for a while, and one idle for burst / perSecond seconds is full anyway.
import { LRUCache } from 'lru-cache'
import type { RateLimits } from '../config.ts'

interface Bucket {
  tokens: number
  /** When `tokens` was last brought up to date (ms). */
  at: number
}

export interface RateLimiter {
  /**
   * Takes one request from `key`'s bucket at `now` (ms): 0 when it may go on, else the whole
   * seconds (≥ 1) after which the next request will be let through. A plan without a limit always gets 0.
   */
  take(key: string, plan: string, now: number): number
  /** Requests per second of a plan (for the message), undefined when not limited. */
  rate(plan: string): number | undefined
}

export function createRateLimiter(limits: RateLimits, maxKeys = 100_000): RateLimiter {
  const buckets = new LRUCache<string, Bucket>({ max: maxKeys })
  return {
    take(key, plan, now) {
      const limit = limits[plan]
      if (!limit) return 0
      const bucket = buckets.get(key)
      // A clock that went back refills nothing (and takes nothing away).
      const elapsed = bucket ? Math.max(0, now - bucket.at) : 0
      const tokens = bucket ? Math.min(limit.burst, bucket.tokens + (elapsed / 1000) * limit.perSecond) : limit.burst
      const left = tokens >= 1 ? tokens - 1 : tokens
      // A known key's bucket is brought up to date in place: nothing allocated per request.
      if (bucket) {
        bucket.tokens = left
        bucket.at = now
      } else buckets.set(key, { tokens: left, at: now })
      return tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - tokens) / limit.perSecond))
    },
    rate: (plan) => limits[plan]?.perSecond,
  }
}
