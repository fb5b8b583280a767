// The quota headers every answer to a valid token carries, parsed once into typed fields.

/** `X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` of an answer. */
export interface RateLimit {
  /** The account's daily quota. */
  limit: number
  /** Requests left today (UTC), after this one. */
  remaining: number
  /** When the quota resets (midnight UTC). */
  reset: Date
}

function nonNegativeInteger(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value.trim())) return undefined
  return Number(value)
}

/** The rate-limit headers, or undefined when any is missing or malformed (a 401 has none). */
export function parseRateLimit(headers: Headers): RateLimit | undefined {
  const limit = nonNegativeInteger(headers.get('x-ratelimit-limit'))
  const remaining = nonNegativeInteger(headers.get('x-ratelimit-remaining'))
  const reset = nonNegativeInteger(headers.get('x-ratelimit-reset'))
  if (limit === undefined || remaining === undefined || reset === undefined) return undefined
  return { limit, remaining, reset: new Date(reset * 1000) }
}

/** `Retry-After` in seconds: a number of seconds or an HTTP date (RFC 9110 §10.2.3). */
export function parseRetryAfter(headers: Headers, now: number): number | undefined {
  const value = headers.get('retry-after')
  if (value === null) return undefined
  const seconds = nonNegativeInteger(value)
  if (seconds !== undefined) return seconds
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000))
}
