// Bearer authentication for /v1. Runs in onRequest, before the body is parsed, so a missing
// or bad token is answered 401 whatever the body holds (check order: 401, 429 RATE_LIMITED, 400, 429 QUOTA_EXCEEDED).
//
// POST /v1/analyze may defer the database check of its token (`deferrable`): when this node has
// already seen the token, it knows the token's account (which never changes), so the cache can
// be consulted at once, and the token is checked by the same statement that counts the request
// (src/domain/quota.ts) instead of a statement of its own. Validity is never taken from memory:
// every request that gets a 200 had its token checked by a statement sent after it arrived, so a
// revocation through any node is refused at once. A request that ends in any other answer has
// its token checked before that answer (src/plugins/app/errors.ts), so 401 still comes first.
import fp from 'fastify-plugin'
import { LRUCache } from 'lru-cache'
import type { FastifyRequest } from 'fastify'
import { authenticateHash, bearerTokenHash } from '../../domain/tokens.ts'
import { rateLimitHeaders, type Caller } from '../../domain/quota.ts'
import type { Clock } from '../../domain/clock.ts'

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

/**
 * Token hashes this node has seen, with their account (a mapping that never changes) and the
 * plan last seen for it (only the burst limit reads it before the token is checked).
 */
const KNOWN_TOKENS = 50_000

export default fp<{ clock: Clock; tokenPrefix: string }>(
  async (app, { clock, tokenPrefix }) => {
    const deps = { repos: app.repos, clock, tokenPrefix }
    app.decorateRequest('account', undefined)
    // "Last used" has minute precision (the SQL throttles to one write a minute); skipping the
    // round trip here as well saves a statement on nearly every request of a busy token.
    const touched = new LRUCache<string, number>({ max: 100_000 })
    const accountOf = new LRUCache<string, { accountId: string; plan: string }>({ max: KNOWN_TOKENS })

    async function verify(request: FastifyRequest, hash: string): Promise<void> {
      const principal = await authenticateHash(deps, hash)
      accountOf.set(hash, { accountId: principal.accountId, plan: principal.plan })
      request.account = { ...principal, tokenHash: hash }
    }

    app.decorate('requireToken', async (request: FastifyRequest, opts?: { deferrable?: boolean }) => {
      const hash = bearerTokenHash(request.headers.authorization, tokenPrefix)
      const known = opts?.deferrable ? accountOf.get(hash) : undefined
      if (known) {
        // The plan is the one last seen; the statement that checks the token replaces it.
        request.account = {
          accountId: known.accountId,
          tokenId: '',
          tokenHash: hash,
          plan: known.plan,
          limit: 0,
          used: 0,
          unverifiedTokenHash: hash,
        }
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
        accountOf.delete(account.unverifiedTokenHash)
        request.account = undefined
        return done(null, payload)
      }
      // Every response to a request whose token was valid carries the quota headers, errors included.
      const now = clock()
      const known = accountOf.get(account.tokenHash)
      if (known && known.plan !== account.plan) known.plan = account.plan
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
