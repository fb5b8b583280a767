// Bearer authentication for /v1. Runs in onRequest, before the body is parsed, so a missing
// or bad token is answered 401 whatever the body holds (check order: 401, 400, 429).
import fp from 'fastify-plugin'
import { LRUCache } from 'lru-cache'
import type { FastifyRequest } from 'fastify'
import { authenticate } from '../../domain/tokens.ts'
import { rateLimitHeaders, type QuotaState } from '../../domain/quota.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once the token is valid: the account and its quota state for this request. */
    account?: QuotaState & { accountId: string; tokenId: string }
  }
  interface FastifyInstance {
    requireToken(request: FastifyRequest): Promise<void>
  }
}

export default fp(
  async (app) => {
    app.decorateRequest('account', undefined)
    // "Last used" has minute precision (the SQL throttles to one write a minute); skipping the
    // round trip here as well saves a statement on nearly every request of a busy token.
    const touched = new LRUCache<string, number>({ max: 100_000 })
    app.decorate('requireToken', async (request: FastifyRequest) => {
      const principal = await authenticate(app.ctx, request.headers.authorization)
      request.account = { ...principal }
      // Awaited, so that "last used" is up to date for whatever the caller does next (the
      // dashboard reads it from another connection); it happens at most once a minute per token
      // per node, so the cost is one statement a minute. A failure must not fail the request.
      const now = app.ctx.clock()
      const last = touched.get(principal.tokenId)
      if (last === undefined || now.getTime() - last >= 60_000 || now.getTime() < last) {
        touched.set(principal.tokenId, now.getTime())
        await app.ctx.repos.tokens.touch(principal.tokenId, now).catch((err) => request.log.warn({ err }, 'token touch failed'))
      }
    })
    // Every response to a request whose token was valid carries the quota headers, errors included.
    app.addHook('onSend', async (request, reply, payload) => {
      if (request.account) reply.headers(rateLimitHeaders(request.account, app.ctx.clock()))
      return payload
    })
  },
  { name: 'auth', dependencies: ['context'] },
)
