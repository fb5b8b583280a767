import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { operations } from '../../generated/api-types.ts'
import { midnightAfter, nextUtcMidnight } from '../domain/clock.ts'
import { remaining } from '../domain/quota.ts'
import { isoSeconds } from '../errors.ts'

type Quota = operations['getQuota']['responses']['200']['content']['application/json']

/** GET /v1/quota: never counted; the token look-up already read today's usage. */
export function getQuota(app: FastifyInstance) {
  // `resetAt` changes once a day: written once per day, not per request.
  let resetMs = NaN
  let resetAt = ''
  return async (request: FastifyRequest): Promise<Quota> => {
    const a = request.account!
    // The end of the day whose count is reported, even if midnight has passed since it was read.
    const reset = a.day ? midnightAfter(a.day) : nextUtcMidnight(app.ctx.clock())
    if (reset.getTime() !== resetMs) {
      resetAt = isoSeconds(reset)
      resetMs = reset.getTime()
    }
    return {
      plan: a.plan as Quota['plan'],
      daily: { limit: a.limit, used: Math.min(a.used, a.limit), remaining: remaining(a) },
      resetAt,
    }
  }
}
