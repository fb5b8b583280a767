import { DomainError } from '../errors.ts'
import type { Repositories } from '../db/repositories/index.ts'
import { isUniqueViolation } from '../db/errors.ts'
import type { Clock } from './clock.ts'

export const PLAN_NAMES = ['free', 'starter', 'pro', 'business'] as const

/** Emails compare case-insensitively; we store one spelling. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase()
}

// Deliberately loose: one @, something on each side, a dot in the domain, no spaces and no
// control characters (the database's text type cannot even hold a NUL).
const EMAIL = /^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+\.[^\s@\p{Cc}]+$/u

export function assertEmail(email: string): void {
  if (email.length > 254 || !EMAIL.test(email)) {
    throw new DomainError('INVALID_EMAIL', `${JSON.stringify(email)} is not an email address`)
  }
}

export async function createAccount(
  deps: { repos: Pick<Repositories, 'accounts'>; clock: Clock },
  input: { email: string; plan: string; passwordHash?: string | null },
) {
  const email = normalizeEmail(input.email)
  assertEmail(email)
  const plan = await deps.repos.accounts.findPlan(input.plan)
  if (!plan) throw new DomainError('INVALID_PLAN', `Unknown plan "${input.plan}" (plans: ${PLAN_NAMES.join(', ')})`)
  if (await deps.repos.accounts.findByEmail(email)) {
    throw new DomainError('EMAIL_TAKEN', `An account with email "${email}" already exists`)
  }
  try {
    return await deps.repos.accounts.insert({ email, passwordHash: input.passwordHash ?? null, plan: plan.name, cycleAnchor: deps.clock() })
  } catch (err) {
    // Two sign-ups racing on one email: the unique index decides.
    if (isUniqueViolation(err)) {
      throw new DomainError('EMAIL_TAKEN', `An account with email "${email}" already exists`)
    }
    throw err
  }
}

export async function requireAccountByEmail(repos: Pick<Repositories, 'accounts'>, email: string) {
  const account = await repos.accounts.findByEmail(normalizeEmail(email))
  if (!account) throw new DomainError('ACCOUNT_NOT_FOUND', `No account with email "${normalizeEmail(email)}"`)
  return account
}
