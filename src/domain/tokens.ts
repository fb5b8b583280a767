import { DomainError, UnauthorizedError } from '../errors.ts'
import type { Repositories } from '../db/repositories/index.ts'
import type { TokenPrincipal } from '../db/repositories/tokens.ts'
import { generateToken, hashToken, isWellFormedToken, tokenPreview } from './token-format.ts'
import { utcDay, type Clock } from './clock.ts'
import { effectivePlan } from './billing.ts'

export interface TokenDeps {
  repos: Pick<Repositories, 'tokens' | 'transaction'>
  clock: Clock
  tokenPrefix: string
}

export const TOKEN_NAME_MAX = 100

/**
 * Creates a token and returns its plain value: the only time it exists outside the caller's
 * hands. The plan's token limit is checked under a lock on the account row, so two concurrent
 * creations cannot both take the last place.
 */
export async function createToken(deps: TokenDeps, accountId: string, rawName: string) {
  const name = rawName.trim()
  if (name.length === 0 || [...name].length > TOKEN_NAME_MAX) {
    throw new DomainError('INVALID_TOKEN_NAME', `A token name must have 1 to ${TOKEN_NAME_MAX} characters; got ${JSON.stringify(rawName)}`)
  }
  // The database's text type cannot hold a NUL, and no other control character belongs in a name.
  if (/\p{Cc}/u.test(name)) {
    throw new DomainError('INVALID_TOKEN_NAME', `A token name may not contain control characters; got ${JSON.stringify(rawName)}`)
  }
  const now = deps.clock()
  return deps.repos.transaction(async (tx) => {
    const account = await tx.accounts.lockById(accountId)
    if (!account) throw new DomainError('ACCOUNT_NOT_FOUND', `No account with id "${accountId}"`)
    const plan = await tx.accounts.findPlan(effectivePlan(account, now))
    if (!plan) throw new Error(`plan ${account.plan} missing from the catalogue`)
    const active = await tx.tokens.countActive(accountId)
    if (active >= plan.maxTokens) {
      throw new DomainError(
        'TOKEN_LIMIT_REACHED',
        `The ${plan.name} plan allows ${plan.maxTokens} active tokens and this account has ${active}; revoke one or upgrade the plan`,
      )
    }
    const token = generateToken(deps.tokenPrefix)
    const row = await tx.tokens.insert({
      accountId,
      name,
      preview: tokenPreview(token, deps.tokenPrefix),
      tokenHash: hashToken(token),
      createdAt: now,
    })
    return { token, id: row.id, name: row.name, preview: row.preview, createdAt: row.createdAt }
  })
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/** Whether `id` can be a token id at all: anything else is no token, not a database error. */
export function isUuid(id: string): boolean {
  return UUID.test(id)
}

export async function revokeToken(deps: TokenDeps, tokenId: string, accountId?: string) {
  if (!isUuid(tokenId)) throw new DomainError('TOKEN_NOT_FOUND', `No token with id "${tokenId}"`)
  const revoked = await deps.repos.tokens.revoke(tokenId, deps.clock(), accountId)
  if (revoked) return revoked
  const existing = await deps.repos.tokens.findById(tokenId)
  if (!existing || (accountId && existing.accountId !== accountId))
    throw new DomainError('TOKEN_NOT_FOUND', `No token with id "${tokenId}"`)
  throw new DomainError(
    'TOKEN_ALREADY_REVOKED',
    `Token "${tokenId}" was revoked at ${existing.revokedAt?.toISOString()}; revocation is permanent`,
  )
}

/**
 * The token hash an Authorization header carries, or the one 401 that never says which check
 * failed. Malformed tokens stop here, before the database.
 */
export function bearerTokenHash(header: string | undefined, tokenPrefix: string): string {
  // The scheme name is case-insensitive (RFC 7235 §2.1); the token itself is not.
  if (!header || !/^bearer /i.test(header)) throw new UnauthorizedError()
  const token = header.slice(7).trim()
  if (!isWellFormedToken(token, tokenPrefix)) throw new UnauthorizedError()
  return hashToken(token)
}

/** The account a token hash speaks for, as the database says now; else the one 401. */
export async function authenticateHash(deps: TokenDeps, hash: string): Promise<TokenPrincipal & { day: string }> {
  const now = deps.clock()
  const day = utcDay(now)
  const principal = (await deps.repos.tokens.findActiveByHash(hash, day, now)) as (TokenPrincipal & { day: string }) | undefined
  if (!principal) throw new UnauthorizedError()
  // `used` is that day's count. The look-up's object is this request's own: completed in place.
  principal.day = day
  return principal
}

/** Resolves an Authorization header to the account it speaks for, or throws the one 401. */
export async function authenticate(deps: TokenDeps, header: string | undefined): Promise<TokenPrincipal> {
  return authenticateHash(deps, bearerTokenHash(header, deps.tokenPrefix))
}
