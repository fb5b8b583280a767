// Bearer authentication for /v1. Runs in onRequest, before the body is parsed, so a missing
// or bad token is answered 401 whatever the body holds (check order: 401, 429 RATE_LIMITED, 400, 429 QUOTA_EXCEEDED).
// A route may let its token's check be deferred to the statement that counts the request
// (`deferrable`; src/domain/deferred-token-check.ts).
import fp from 'fastify-plugin'
import { LRUCache } from 'lru-cache'
import type { FastifyRequest } from 'fastify'
import { authenticateHash, bearerTokenHash } from '../../domain/tokens.ts'
import { rateLimitHeaders, type Caller } from '../../domain/quota.ts'
import type { Clock } from '../../domain/clock.ts'
import { knownTokens } from '../../domain/deferred-token-check.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Set once the token is known: the account and its quota state for this request. While
     * `unverifiedTokenHash` is set, only `accountId` is known and the token is not checked yet.
     */
    account?: Caller & { tokenId: string; tokenHash: string }
  }
  interface FastifyInstance {
    requireToken(request: FastifyRequest, opts?: { deferrable?: boolean }): Promise<void>
    /** Checks a token whose check was deferred; throws the 401 when it is not valid. */
    verifyDeferredToken(request: FastifyRequest): Promise<void>
  }
}

export default fp<{ clock: Clock; tokenPrefix: string }>(
  async (app, { clock, tokenPrefix }) => {
    const deps = { repos: app.repos, clock, tokenPrefix }
    app.decorateRequest('account', undefined)
    // "Last used" has minute precision (the SQL throttles to one write a minute); skipping the
    // round trip here as well saves a statement on nearly every request of a busy token.
    const touched = new LRUCache<string, number>({ max: 100_000 })
    const known = knownTokens()

    async function verify(request: FastifyRequest, hash: string): Promise<void> {
      const principal = (await authenticateHash(deps, hash)) as Awaited<ReturnType<typeof authenticateHash>> & { tokenHash: string }
      known.remember(hash, principal)
      // The request's own object (authenticateHash's), completed in place rather than copied.
      principal.tokenHash = hash
      request.account = principal
    }

    app.decorate('requireToken', async (request: FastifyRequest, opts?: { deferrable?: boolean }) => {
      const hash = bearerTokenHash(request.headers.authorization, tokenPrefix)
      const deferred = opts?.deferrable ? known.defer(hash) : undefined
      if (deferred) {
        // defer() made this object for this request: completed in place.
        const account = deferred as typeof deferred & { tokenId: string; tokenHash: string }
        account.tokenId = ''
        account.tokenHash = hash
        request.account = account
        return
      }
      await verify(request, hash)
    })

    app.decorate('verifyDeferredToken', async (request: FastifyRequest) => {
      const hash = request.account?.unverifiedTokenHash
      if (!hash) return
      try {
        await verify(request, hash)
      } catch (err) {
        request.account = undefined
        throw err
      }
    })

    app.addHook('onSend', (request, reply, payload, done) => {
      const account = request.account
      if (!account) return done(null, payload)
      if (account.unverifiedTokenHash) {
        // Only a 401 leaves a deferred token unchecked (every other answer checks it first):
        // no quota headers, and this node forgets the token.
        known.forget(account.unverifiedTokenHash)
        request.account = undefined
        return done(null, payload)
      }
      // Every response to a request whose token was valid carries the quota headers, errors included.
      const now = clock()
      known.updatePlan(account.tokenHash, account.plan)
      reply.headers(rateLimitHeaders(account, now))
      // Awaited, so that "last used" is up to date for whatever the caller does next (the
      // dashboard reads it from another connection); it happens at most once a minute per token
      // per node, so the cost is one statement a minute. A failure must not fail the request.
      const last = touched.get(account.tokenId)
      if (last === undefined || now.getTime() - last >= 60_000 || now.getTime() < last) {
        touched.set(account.tokenId, now.getTime())
        app.repos.tokens.touch(account.tokenId, now).then(
          () => done(null, payload),
          (err) => {
            request.log.warn({ err }, 'token touch failed')
            done(null, payload)
          },
        )
        return
      }
      done(null, payload)
    })
  },
  { name: 'auth', dependencies: ['database'] },
)
