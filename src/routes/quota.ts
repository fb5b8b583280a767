import type { components } from '../../generated/api-types.ts'
import { midnightAfter, nextUtcMidnight, type Clock } from '../domain/clock.ts'
import { remaining } from '../domain/quota.ts'
import { isoSeconds } from '../errors.ts'
import type { OperationHandler } from '../openapi.ts'

type Plan = components['schemas']['Quota']['plan']

/** GET /v1/quota: never counted; the token look-up already read today's usage. */
export function getQuota({ clock }: { clock: Clock }): OperationHandler<'getQuota'> {
  // `resetAt` changes once a day: written once per day, not per request.
  let resetMs = NaN
  let resetAt = ''
  return async (request) => {
    const a = request.account!
    // The end of the day whose count is reported, even if midnight has passed since it was read.
    const reset = a.day ? midnightAfter(a.day) : nextUtcMidnight(clock())
    if (reset.getTime() !== resetMs) {
      resetAt = isoSeconds(reset)
      resetMs = reset.getTime()
    }
    return {
      plan: a.plan as Plan,
      daily: { limit: a.limit, used: Math.min(a.used, a.limit), remaining: remaining(a) },
      resetAt,
    }
  }
}
