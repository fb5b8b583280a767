// Plans and prorated billing (product decisions): an upgrade applies at once and is charged
// (new monthly price − old) × (time left in the cycle / cycle length), rounded to the cent;
// a downgrade is free and takes effect at the next cycle start.
import { DomainError } from '../errors.ts'
import type { Repositories } from '../db/repositories/index.ts'
import type { AccountRow, AccountsRepository, PlanRow } from '../db/repositories/accounts.ts'
import type { Clock } from './clock.ts'

/** The plan in force at `now` (a scheduled downgrade wins once its date has come). */
export function effectivePlan(account: Pick<AccountRow, 'plan' | 'pendingPlan' | 'pendingPlanAt'>, now: Date): string {
  return account.pendingPlan && account.pendingPlanAt && account.pendingPlanAt <= now ? account.pendingPlan : account.plan
}

/** What `planInForce` needs of a ledger entry. */
export interface PlanChangeRecord {
  kind: string
  fromPlan: string
  toPlan: string
  effectiveAt: Date
  createdAt: Date
}

/**
 * The plan in force at `at`, replayed from the billing ledger: every plan change goes through
 * `changePlan`, which writes it there, so the ledger is the plan's history. Before the first
 * change the plan was that change's `fromPlan`; without any change it is `currentPlan`.
 */
export function planInForce(currentPlan: string, ledger: readonly PlanChangeRecord[], at: Date): string {
  const entries = [...ledger].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())
  if (entries.length === 0) return currentPlan
  let plan = entries[0].fromPlan
  let pending: { plan: string; at: Date } | null = null
  const settle = (t: Date) => {
    if (pending && pending.at <= t) {
      plan = pending.plan
      pending = null
    }
  }
  for (const e of entries) {
    if (e.createdAt > at) break
    settle(e.createdAt)
    if (e.kind === 'upgrade') {
      plan = e.toPlan
      pending = null
    } else if (e.kind === 'downgrade_scheduled') pending = { plan: e.toPlan, at: e.effectiveAt }
    else if (e.kind === 'downgrade_cancelled') pending = null
  }
  settle(at)
  return plan
}

/** `anchor` plus whole calendar months, clamped to the month's last day (Jan 31 → Feb 28). */
export function addMonths(anchor: Date, months: number): Date {
  const y = anchor.getUTCFullYear()
  const m = anchor.getUTCMonth() + months
  const lastDay = new Date(Date.UTC(y, m + 1, 0)).getUTCDate()
  return new Date(
    Date.UTC(
      y,
      m,
      Math.min(anchor.getUTCDate(), lastDay),
      anchor.getUTCHours(),
      anchor.getUTCMinutes(),
      anchor.getUTCSeconds(),
      anchor.getUTCMilliseconds(),
    ),
  )
}

/** The monthly billing cycle containing `now`: [start, end). */
export function billingCycle(anchor: Date, now: Date): { start: Date; end: Date } {
  let k = (now.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (now.getUTCMonth() - anchor.getUTCMonth())
  if (addMonths(anchor, k) > now) k--
  if (k < 0) k = 0
  let start = addMonths(anchor, k)
  while (addMonths(anchor, k + 1) <= now) start = addMonths(anchor, ++k)
  return { start, end: addMonths(anchor, k + 1) }
}

export type PlanChangeKind = 'upgrade' | 'downgrade_scheduled' | 'downgrade_cancelled'

export interface PlanChangeQuote {
  kind: PlanChangeKind
  fromPlan: string
  toPlan: string
  /** Positive: charged now. Downgrades are never charged or credited mid-cycle. */
  amountCents: number
  /** Share of the cycle left at `now`, 0..1. */
  prorationFraction: number
  cycleStart: Date
  cycleEnd: Date
  /** When the new plan applies: now for upgrades, the next cycle start for downgrades. */
  effectiveAt: Date
}

/** What a plan change would do and cost at `now`; pure, so the dashboard can show it before confirming. */
export function quotePlanChange(
  account: Pick<AccountRow, 'plan' | 'pendingPlan' | 'pendingPlanAt' | 'cycleAnchor'>,
  from: PlanRow,
  to: PlanRow,
  now: Date,
): PlanChangeQuote {
  const { start, end } = billingCycle(account.cycleAnchor, now)
  const fraction = Math.min(1, Math.max(0, (end.getTime() - now.getTime()) / (end.getTime() - start.getTime())))
  const base = { fromPlan: from.name, toPlan: to.name, prorationFraction: fraction, cycleStart: start, cycleEnd: end }
  const pending = account.pendingPlan && account.pendingPlanAt && account.pendingPlanAt > now ? account.pendingPlan : null
  if (to.name === from.name) {
    if (pending) return { ...base, kind: 'downgrade_cancelled', amountCents: 0, effectiveAt: now }
    throw new DomainError('PLAN_UNCHANGED', `The account is already on the ${to.name} plan`)
  }
  if (to.rank > from.rank) {
    return { ...base, kind: 'upgrade', amountCents: Math.round((to.priceCents - from.priceCents) * fraction), effectiveAt: now }
  }
  if (pending === to.name)
    throw new DomainError('PLAN_UNCHANGED', `A downgrade to ${to.name} is already scheduled for ${end.toISOString()}`)
  return { ...base, kind: 'downgrade_scheduled', amountCents: 0, effectiveAt: end }
}

async function loadPlans(accounts: Pick<AccountsRepository, 'findPlan'>, account: AccountRow, toPlan: string, now: Date) {
  const from = await accounts.findPlan(effectivePlan(account, now))
  const to = await accounts.findPlan(toPlan)
  if (!to) throw new DomainError('INVALID_PLAN', `Unknown plan "${toPlan}" (plans: free, starter, pro, business)`)
  if (!from) throw new Error(`plan ${account.plan} missing from the catalogue`)
  return { from, to }
}

export async function previewPlanChange(deps: { repos: Pick<Repositories, 'accounts'>; clock: Clock }, accountId: string, toPlan: string) {
  const now = deps.clock()
  const account = await deps.repos.accounts.findById(accountId)
  if (!account) throw new DomainError('ACCOUNT_NOT_FOUND', `No account with id "${accountId}"`)
  const { from, to } = await loadPlans(deps.repos.accounts, account, toPlan, now)
  return quotePlanChange(account, from, to, now)
}

/**
 * Applies a plan change and writes it to the ledger, in one transaction with the account row
 * locked. The API reads the plan on every request, so an upgrade's new limit applies to the
 * very next call, on every node.
 */
export async function changePlan(deps: { repos: Pick<Repositories, 'transaction'>; clock: Clock }, accountId: string, toPlan: string) {
  const now = deps.clock()
  return deps.repos.transaction(async (tx) => {
    const account = await tx.accounts.lockById(accountId)
    if (!account) throw new DomainError('ACCOUNT_NOT_FOUND', `No account with id "${accountId}"`)
    const { from, to } = await loadPlans(tx.accounts, account, toPlan, now)
    const quote = quotePlanChange(account, from, to, now)
    if (quote.kind === 'downgrade_scheduled') {
      await tx.accounts.update(accountId, { plan: from.name, pendingPlan: to.name, pendingPlanAt: quote.effectiveAt })
    } else {
      await tx.accounts.update(accountId, { plan: to.name, pendingPlan: null, pendingPlanAt: null })
    }
    const entry = await tx.billing.append({ accountId, ...quote, createdAt: now })
    return { quote, entry }
  })
}
