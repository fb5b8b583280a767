// The deferred token check, in one place (the decision: docs/architecture.md, "The deferred
// token check").
//
// Every authenticated request has its token checked by the database after it arrived: no
// cache may accept a revoked token. For an operation that counts its request (the route
// table's `deferTokenCheck`: POST /v1/analyze), a node that has already seen the token knows
// its account, which never changes; so the cache is consulted at once, and the token is checked
// by the statement that counts the request instead of a statement of its own:
// - validity is never taken from memory, only the account (and the plan last seen, which only
//   the burst limit and the pool's fair share read before the check);
// - every 200 had its token checked by the statement that counted it, sent after the request
//   arrived, so a revocation through any node is refused at once;
// - any other answer checks the token first, so 401 keeps its place before 400, 429 and 503,
//   and a valid token's answer carries its quota headers;
// - a 401 makes the node forget the token.
// Callers: the auth plugin (`knownTokens`: defer, remember, forget), the error handler
// (`mustCheckBeforeAnswering`), the quota (`reserveCheckingToken`). The statement is the usage
// repository's `reserveWithToken`, batched per token (src/db/reservation-batcher.ts).
import { LRUCache } from 'lru-cache'
import { UnauthorizedError } from '../errors.ts'
import { isDatabaseDown } from '../db/errors.ts'
import type { UsageRepository } from '../db/repositories/usage.ts'

/** Token hashes a node remembers, with their account and the plan last seen. */
const KNOWN_TOKENS = 50_000

/** The caller of a request whose token check is deferred: only its account is known. */
export interface DeferredCaller {
  accountId: string
  /** The plan last seen for the token; the statement that checks it replaces it. */
  plan: string
  limit: number
  used: number
  /** Set until the token is checked. */
  unverifiedTokenHash?: string
  tokenId?: string
}

export interface KnownTokens {
  /** A caller whose token check is deferred, when this node knows the token; else undefined (check it now). */
  defer(hash: string): DeferredCaller | undefined
  /** A token the database has just found valid. */
  remember(hash: string, principal: { accountId: string; plan: string }): void
  /** The plan a checked request found for a token this node knows. */
  updatePlan(hash: string, plan: string): void
  /** A token the database refused. */
  forget(hash: string): void
}

export function knownTokens(max = KNOWN_TOKENS): KnownTokens {
  const accountOf = new LRUCache<string, { accountId: string; plan: string }>({ max })
  return {
    defer(hash) {
      const known = accountOf.get(hash)
      if (!known) return undefined
      return { accountId: known.accountId, plan: known.plan, limit: 0, used: 0, unverifiedTokenHash: hash }
    },
    remember(hash, { accountId, plan }) {
      // Nearly always already known as it is: updated in place, nothing allocated.
      const known = accountOf.get(hash)
      if (known && known.accountId === accountId) known.plan = plan
      else accountOf.set(hash, { accountId, plan })
    },
    updatePlan(hash, plan) {
      const known = accountOf.get(hash)
      if (known && known.plan !== plan) known.plan = plan
    },
    forget(hash) {
      accountOf.delete(hash)
    },
  }
}

/**
 * Counts one request and checks its deferred token in one statement. Not a valid token (unknown,
 * revoked, or not this account's): the 401, and nothing was counted. Otherwise the caller is
 * filled in from the token's row (token, plan, limit) and no longer deferred; the new count is
 * returned, or undefined when the quota is spent.
 */
export async function reserveCheckingToken(
  usage: Pick<UsageRepository, 'reserveWithToken'>,
  caller: DeferredCaller,
  hash: string,
  day: string,
  now: Date,
): Promise<number | undefined> {
  const checked = await usage.reserveWithToken(hash, caller.accountId, day, now)
  if (!checked) throw new UnauthorizedError()
  Object.assign(caller, checked.principal, { unverifiedTokenHash: undefined })
  return checked.used
}

/**
 * Whether a request about to be answered with `err` must have its deferred token checked first.
 * Not when the error is the 401 itself, nor when the database is not answering: the check would
 * wait for it a second time, and the answer is the same 503 whatever the token.
 */
export function mustCheckBeforeAnswering(caller: DeferredCaller | undefined, err: unknown): boolean {
  return caller?.unverifiedTokenHash !== undefined && !(err instanceof UnauthorizedError) && !isDatabaseDown(err)
}
