import t from 'tap'
import { addMonths, billingCycle, planInForce, quotePlanChange, type PlanChangeRecord } from '../../src/domain/billing.ts'

const PLANS = {
  free: { name: 'free', dailyLimit: 100, priceCents: 0, maxTokens: 3, rank: 0 },
  starter: { name: 'starter', dailyLimit: 1000, priceCents: 2900, maxTokens: 5, rank: 1 },
  pro: { name: 'pro', dailyLimit: 10000, priceCents: 9900, maxTokens: 10, rank: 2 },
  business: { name: 'business', dailyLimit: 50000, priceCents: 29900, maxTokens: 25, rank: 3 },
}
const anchor = new Date('2026-11-01T00:00:00Z')
const account = { plan: 'free', pendingPlan: null, pendingPlanAt: null, cycleAnchor: anchor }

t.test('billing cycles are calendar months from the anchor', async (t) => {
  t.same(billingCycle(anchor, new Date('2026-11-22T12:00:00Z')), { start: anchor, end: new Date('2026-12-01T00:00:00Z') })
  t.same(billingCycle(anchor, new Date('2026-12-01T00:00:00Z')).start, new Date('2026-12-01T00:00:00Z'), 'the end is the next start')
  const jan31 = new Date('2026-01-31T10:00:00Z')
  t.same(addMonths(jan31, 1), new Date('2026-02-28T10:00:00Z'), 'clamped to the last day')
  t.same(addMonths(jan31, 2), new Date('2026-03-31T10:00:00Z'), 'no drift after a short month')
  t.same(billingCycle(jan31, new Date('2026-03-15T00:00:00Z')), {
    start: new Date('2026-02-28T10:00:00Z'),
    end: new Date('2026-03-31T10:00:00Z'),
  })
})

t.test('upgrade proration: (new − old) × time left / cycle length, to the cent', async (t) => {
  const atStart = quotePlanChange(account, PLANS.free, PLANS.starter, anchor)
  t.equal(atStart.kind, 'upgrade')
  t.equal(atStart.amountCents, 2900, 'at the cycle start: the whole difference')
  t.equal(atStart.prorationFraction, 1)
  t.same(atStart.effectiveAt, anchor, 'effective at once')

  // November has 30 days; the 16th at 00:00 leaves exactly half.
  const middle = quotePlanChange(account, PLANS.free, PLANS.starter, new Date('2026-11-16T00:00:00Z'))
  t.equal(middle.prorationFraction, 0.5)
  t.equal(middle.amountCents, 1450)

  const proToBusiness = quotePlanChange({ ...account, plan: 'pro' }, PLANS.pro, PLANS.business, new Date('2026-11-21T00:00:00Z'))
  t.equal(proToBusiness.amountCents, Math.round(20000 * (10 / 30)), 'a third left: 66.67 USD')
  t.equal(proToBusiness.amountCents, 6667)

  const nearEnd = quotePlanChange(account, PLANS.free, PLANS.business, new Date('2026-11-30T23:59:59Z'))
  t.equal(nearEnd.amountCents, 0, 'one second before the end rounds to 0 cents')
  t.ok(nearEnd.prorationFraction > 0 && nearEnd.prorationFraction < 0.00001)

  const oneHourLeft = quotePlanChange(account, PLANS.free, PLANS.business, new Date('2026-11-30T23:00:00Z'))
  t.equal(oneHourLeft.amountCents, Math.round(29900 / 720), '1/720 of the month: 42 cents')
})

t.test('downgrades are free and wait for the next cycle; same plan is refused', async (t) => {
  const now = new Date('2026-11-10T00:00:00Z')
  const down = quotePlanChange({ ...account, plan: 'pro' }, PLANS.pro, PLANS.starter, now)
  t.equal(down.kind, 'downgrade_scheduled')
  t.equal(down.amountCents, 0)
  t.same(down.effectiveAt, new Date('2026-12-01T00:00:00Z'))
  t.throws(() => quotePlanChange(account, PLANS.free, PLANS.free, now), { code: 'PLAN_UNCHANGED' })
  const pending = { ...account, plan: 'pro', pendingPlan: 'starter', pendingPlanAt: new Date('2026-12-01T00:00:00Z') }
  t.equal(
    quotePlanChange(pending, PLANS.pro, PLANS.pro, now).kind,
    'downgrade_cancelled',
    'choosing the current plan cancels a pending downgrade',
  )
  t.throws(() => quotePlanChange(pending, PLANS.pro, PLANS.starter, now), { code: 'PLAN_UNCHANGED' })
})

t.test('planInForce replays the ledger: upgrades at once, downgrades at their date unless cancelled', async (t) => {
  const d = (s: string) => new Date(s)
  const entry = (kind: string, fromPlan: string, toPlan: string, createdAt: string, effectiveAt = createdAt): PlanChangeRecord => ({
    kind,
    fromPlan,
    toPlan,
    createdAt: d(createdAt),
    effectiveAt: d(effectiveAt),
  })
  t.equal(planInForce('pro', [], d('2026-01-01T00:00:00Z')), 'pro', 'no change ever: the current plan')

  const ledger = [
    // Listed out of order on purpose: the ledger is read newest first.
    entry('downgrade_scheduled', 'pro', 'starter', '2026-03-10T00:00:00Z', '2026-04-01T00:00:00Z'),
    entry('upgrade', 'free', 'pro', '2026-03-05T12:00:00Z'),
    entry('downgrade_scheduled', 'pro', 'free', '2026-03-06T00:00:00Z', '2026-04-01T00:00:00Z'),
    entry('downgrade_cancelled', 'pro', 'pro', '2026-03-07T00:00:00Z'),
  ]
  t.equal(planInForce('pro', ledger, d('2026-03-01T00:00:00Z')), 'free', 'before the first change: its fromPlan')
  t.equal(planInForce('pro', ledger, d('2026-03-05T11:59:59.999Z')), 'free')
  t.equal(planInForce('pro', ledger, d('2026-03-05T12:00:00Z')), 'pro', 'an upgrade applies at once')
  t.equal(planInForce('pro', ledger, d('2026-03-20T00:00:00Z')), 'pro', 'a scheduled downgrade waits')
  t.equal(planInForce('pro', ledger, d('2026-03-31T23:59:59.999Z')), 'pro')
  t.equal(
    planInForce('pro', ledger, d('2026-04-01T00:00:00Z')),
    'starter',
    'the later downgrade applies at the cycle start; the cancelled one never does',
  )

  const upgradedAfterScheduling = [
    entry('downgrade_scheduled', 'pro', 'free', '2026-03-06T00:00:00Z', '2026-04-01T00:00:00Z'),
    entry('upgrade', 'pro', 'business', '2026-03-08T00:00:00Z'),
  ]
  t.equal(planInForce('business', upgradedAfterScheduling, d('2026-04-02T00:00:00Z')), 'business', 'an upgrade drops a pending downgrade')
})
