// The burst limit of /v1 (src/domain/rate-limit.ts), checked right after the token and before
// the body is parsed or validated, so that a flood of invalid requests is limited like any
// other (check order: 401, 429 RATE_LIMITED, 400, 429 QUOTA_EXCEEDED). A refused request is
// never counted; a token whose check was deferred is checked before the 429 is sent
// (src/plugins/app/errors.ts), so a revoked token still gets its 401 first.
import fp from 'fastify-plugin'
import type { FastifyRequest } from 'fastify'
import { createRateLimiter } from '../../domain/rate-limit.ts'
import { RateLimitedError } from '../../errors.ts'
import type { Config } from '../../config.ts'
import type { Clock } from '../../domain/clock.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Throws the 429 RATE_LIMITED when the request's token is over its plan's rate. */
    limitRate(request: FastifyRequest): void
  }
}

export default fp<{ limits: Config['rateLimits']; clock: Clock }>(
  async (app, { limits, clock }) => {
    const limiter = limits ? createRateLimiter(limits) : undefined
    app.decorate('limitRate', (request: FastifyRequest) => {
      const account = request.account
      if (!limiter || !account) return
      const retryAfter = limiter.take(account.tokenHash, account.plan, clock().getTime())
      if (retryAfter > 0) throw new RateLimitedError(limiter.rate(account.plan)!, retryAfter)
    })
  },
  { name: 'rate-limit', dependencies: ['auth'] },
)
