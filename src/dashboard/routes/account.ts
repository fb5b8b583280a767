// Overview (plan, today's usage, reset time, 30-day chart) and Plan (change with the prorated
// quote shown before confirming, billing ledger).
import type { FastifyInstance } from 'fastify'
import { DomainError } from '../../errors.ts'
import {
  billingCycle,
  changePlan,
  effectivePlan,
  planInForce,
  previewPlanChange,
  quotePlanChange,
  type PlanChangeQuote,
} from '../../domain/billing.ts'
import { addUtcDays, nextUtcMidnight, utcDay } from '../../domain/clock.ts'
import type { PlanRow } from '../../db/repositories/accounts.ts'
import { html, type Html } from '../html.ts'
import { csrfField, formatDate, formatTime, money, page } from '../layout.ts'
import { CHART_DAYS, fillDays, usageChart } from '../chart.ts'
import type { Repositories } from '../../db/repositories/index.ts'
import type { SessionView } from '../../db/repositories/sessions.ts'
import type { Clock } from '../../domain/clock.ts'
import { field } from '../security.ts'
import { lookup, pageUser, requireSession, requireSessionPost, sendPage } from './common.ts'

const DAY_MS = 24 * 3600_000

function days(ms: number): string {
  return (ms / DAY_MS).toFixed(2).replace(/\.?0+$/, '')
}

/** One line a person can check: what a change costs and when it applies. */
export function describeQuote(q: PlanChangeQuote, from: PlanRow, to: PlanRow): string {
  if (q.kind === 'upgrade') {
    const cycleMs = q.cycleEnd.getTime() - q.cycleStart.getTime()
    const leftMs = q.prorationFraction * cycleMs
    return `${money(q.amountCents)} charged now: (${money(to.priceCents)} − ${money(from.priceCents)}) × ${days(leftMs)} of ${days(cycleMs)} days left in this billing cycle; the ${to.name} limit applies at once.`
  }
  if (q.kind === 'downgrade_scheduled')
    return `No charge; takes effect on ${formatDate(q.effectiveAt)} (${formatTime(q.effectiveAt)}), the start of the next billing cycle.`
  return `No charge; the scheduled downgrade is cancelled and the account stays on ${to.name}.`
}

const KIND_LABEL: Record<string, string> = {
  upgrade: 'Upgrade (prorated)',
  downgrade_scheduled: 'Downgrade scheduled',
  downgrade_cancelled: 'Scheduled downgrade cancelled',
}

export async function accountRoutes(
  app: FastifyInstance,
  deps: { repos: Pick<Repositories, 'accounts' | 'usage' | 'billing' | 'transaction'>; clock: Clock },
) {
  const { repos, clock } = deps

  /** Everything both pages show about the account right now. */
  async function snapshot(session: SessionView) {
    const now = clock()
    const account = (await repos.accounts.findById(session.accountId))!
    const planName = effectivePlan(account, now)
    const plans = await repos.accounts.listPlans()
    const plan = plans.find((p) => p.name === planName)!
    const today = utcDay(now)
    const used = Math.min(await repos.usage.usedOn(account.id, today), plan.dailyLimit)
    const pending =
      account.pendingPlan && account.pendingPlanAt && account.pendingPlanAt > now
        ? { plan: account.pendingPlan, at: account.pendingPlanAt }
        : undefined
    return { now, account, plan, plans, today, used, reset: nextUtcMidnight(now), pending, cycle: billingCycle(account.cycleAnchor, now) }
  }

  function usageStats(s: Awaited<ReturnType<typeof snapshot>>): Html {
    return html`<dl class="stats">
<div><dt>Plan</dt><dd data-testid="plan">${s.plan.name}</dd></div>
<div><dt>Today's usage</dt><dd><span data-testid="used">${s.used}</span> of <span data-testid="limit">${s.plan.dailyLimit}</span></dd>
<meter min="0" max="${s.plan.dailyLimit}" value="${s.used}" aria-label="Today's usage">${s.used} of ${s.plan.dailyLimit}</meter></div>
<div><dt>Remaining today</dt><dd>${s.plan.dailyLimit - s.used}</dd></div>
<div><dt>Quota resets</dt><dd><time datetime="${s.reset.toISOString()}">${formatTime(s.reset)}</time></dd></div>
</dl>
${s.pending ? html`<p class="notice" role="status">A downgrade to ${s.pending.plan} is scheduled for ${formatTime(s.pending.at)}; until then the ${s.plan.name} plan and its limit stay in force.</p>` : ''}`
  }

  app.get('/', async (request, reply) => {
    const session = requireSession(request, reply)
    if (!session) return reply
    const s = await snapshot(session)
    const history = await repos.usage.history(s.account.id, addUtcDays(s.today, -(CHART_DAYS - 1)), s.today)
    const ledger = await repos.billing.listByAccount(s.account.id)
    const limits = new Map(s.plans.map((p) => [p.name, p.dailyLimit]))
    // Each past day against the limit in force at its end (a plan change shows on its day).
    const limitOn = (day: string) =>
      day === s.today
        ? s.plan.dailyLimit
        : (limits.get(planInForce(s.account.plan, ledger, new Date(Date.parse(`${addUtcDays(day, 1)}T00:00:00Z`) - 1))) ??
          s.plan.dailyLimit)
    return sendPage(
      reply,
      200,
      page({
        title: 'Overview',
        section: 'overview',
        user: pageUser(session),
        body: html`<h1>Overview</h1>
${usageStats(s)}
<section><h2 id="usage-heading">Usage, last ${CHART_DAYS} days</h2>
${usageChart(fillDays(history, s.today, limitOn), s.today)}
</section>
<section><h2 id="next-heading">Next steps</h2>
<ul><li><a href="/dashboard/tokens">Create an API token</a> and call <code>GET /v1/quota</code> or <code>POST /v1/analyze</code> with it.</li>
<li><a href="/dashboard/plan">Change your plan</a>; upgrades apply at once.</li>
<li>Read the <a href="/docs">API reference</a>.</li></ul></section>`,
      }),
    )
  })

  async function planPage(session: SessionView, o: { notice?: string; error?: string } = {}) {
    const s = await snapshot(session)
    const ledger = await repos.billing.listByAccount(s.account.id)
    const rows = s.plans.map((p) => {
      let effect: string
      if (p.name === s.plan.name && !s.pending) effect = 'Current plan'
      else {
        try {
          effect = describeQuote(quotePlanChange(s.account, s.plan, p, s.now), s.plan, p)
        } catch (err) {
          if (!(err instanceof DomainError)) throw err
          effect = err.message
        }
      }
      return html`<tr${p.name === s.plan.name ? html` aria-current="true"` : ''}><th scope="row">${p.name}${p.name === s.plan.name ? ' (current)' : ''}</th><td class="num" data-label="Requests a day">${p.dailyLimit.toLocaleString('en-US')}</td><td class="num" data-label="Tokens">${p.maxTokens}</td><td class="num" data-label="Per month">${money(p.priceCents)}</td><td data-label="If you switch now">${effect}</td></tr>`
    })
    return page({
      title: 'Plan',
      section: 'plan',
      user: pageUser(session),
      notice: o.notice,
      error: o.error,
      body: html`<h1>Plan and billing</h1>
${usageStats(s)}
<p>Billing cycle: ${formatTime(s.cycle.start)} to ${formatTime(s.cycle.end)}. Upgrades apply at once and are charged for the part of the cycle that is left; downgrades are free and apply at the next cycle start.</p>
<section><h2 id="plans-heading">Plans</h2>
<div class="table-wrap"><table class="stack"><caption>Switching now would cost</caption>
<thead><tr><th scope="col">Plan</th><th scope="col" class="num">Requests a day</th><th scope="col" class="num">Tokens</th><th scope="col" class="num">Per month</th><th scope="col">If you switch now</th></tr></thead>
<tbody>${rows}</tbody></table></div>
<form method="get" action="/dashboard/plan/change" class="card">
<label for="plan">Plan</label>
<select id="plan" name="plan">${s.plans.map((p) => html`<option value="${p.name}"${p.name === (s.pending?.plan ?? s.plan.name) ? html` selected` : ''}>${p.name} — ${money(p.priceCents)}/month, ${p.dailyLimit.toLocaleString('en-US')} requests a day</option>`)}</select>
<p class="hint">You will see the charge or the date it takes effect, and confirm, on the next page.</p>
<div class="actions"><button type="submit">Preview change</button></div>
</form></section>
<section><h2 id="ledger-heading">Billing ledger</h2>
${
  ledger.length === 0
    ? html`<p>No charges yet.</p>`
    : html`<div class="table-wrap"><table class="stack"><caption>Every plan change and what it cost</caption>
<thead><tr><th scope="col">Date</th><th scope="col">Change</th><th scope="col">Kind</th><th scope="col">Proration</th><th scope="col">Effective</th><th scope="col" class="num">Amount</th></tr></thead>
<tbody>${ledger.map(
        (
          e,
        ) => html`<tr><td data-label="Date">${formatTime(e.createdAt)}</td><td data-label="Change">${e.fromPlan} → ${e.toPlan}</td><td data-label="Kind">${lookup(KIND_LABEL, e.kind) ?? e.kind}</td>
<td data-label="Proration">${(e.prorationFraction * 100).toFixed(1)}% of the cycle left (${formatDate(e.cycleStart)} – ${formatDate(e.cycleEnd)})</td><td data-label="Effective">${formatTime(e.effectiveAt)}</td><td class="num" data-label="Amount" data-testid="amount">${money(e.amountCents)}</td></tr>`,
      )}</tbody></table></div>`
}
</section>`,
    })
  }

  app.get('/plan', async (request, reply) => {
    const session = requireSession(request, reply)
    if (!session) return reply
    const s = await snapshot(session)
    const key = String((request.query as Record<string, string | string[] | undefined>).notice ?? '')
    const notices: Record<string, string> = {
      upgrade: `You are now on the ${s.plan.name} plan: ${s.plan.dailyLimit.toLocaleString('en-US')} requests a day, from now on. The prorated charge is in the ledger below.`,
      downgrade_scheduled: s.pending
        ? `The downgrade to ${s.pending.plan} is scheduled for ${formatTime(s.pending.at)}. No charge.`
        : 'The downgrade is scheduled.',
      downgrade_cancelled: `The scheduled downgrade is cancelled; you stay on the ${s.plan.name} plan.`,
    }
    return sendPage(reply, 200, await planPage(session, { notice: lookup(notices, key) }))
  })

  app.get('/plan/change', async (request, reply) => {
    const session = requireSession(request, reply)
    if (!session) return reply
    const toPlan = String((request.query as Record<string, string | string[] | undefined>).plan ?? '')
    try {
      return sendPage(reply, 200, await previewPage(session, toPlan))
    } catch (err) {
      if (!(err instanceof DomainError)) throw err
      return sendPage(reply, 400, await planPage(session, { error: err.message }))
    }
  })

  async function previewPage(session: SessionView, toPlan: string, error?: string) {
    const quote = await previewPlanChange(deps, session.accountId, toPlan)
    const from = (await repos.accounts.findPlan(quote.fromPlan))!
    const to = (await repos.accounts.findPlan(quote.toPlan))!
    return page({
      title: 'Confirm plan change',
      section: 'plan',
      user: pageUser(session),
      error,
      body: html`<div class="card confirm"><h1>Change plan: ${from.name} → ${to.name}</h1>
<dl class="stats">
<div><dt>${quote.kind === 'upgrade' ? 'Charged now' : 'Charge'}</dt><dd data-testid="quote-amount">${money(quote.amountCents)}</dd></div>
<div><dt>Takes effect</dt><dd>${quote.kind === 'downgrade_scheduled' ? formatDate(quote.effectiveAt) : 'Immediately'}</dd></div>
</dl>
<p data-testid="quote">${describeQuote(quote, from, to)}</p>
<p>New daily limit: ${to.dailyLimit.toLocaleString('en-US')} requests; up to ${to.maxTokens} tokens; ${money(to.priceCents)} a month from the next cycle.</p>
<form method="post" action="/dashboard/plan/change">
${csrfField(session.csrfToken)}
<input type="hidden" name="plan" value="${to.name}">
<input type="hidden" name="quoted" value="${quote.amountCents}">
<div class="actions"><button type="submit">Change plan</button><a class="button secondary" href="/dashboard/plan">Cancel</a></div>
</form></div>`,
    })
  }

  app.post('/plan/change', async (request, reply) => {
    const session = requireSessionPost(request, reply)
    if (!session) return reply
    const toPlan = field(request.body, 'plan')
    const quoted = Number(field(request.body, 'quoted'))
    try {
      // Never charge more than the person saw: if the quote went up (a new cycle began since
      // the preview), show the new quote instead of applying it.
      const fresh = await previewPlanChange(deps, session.accountId, toPlan)
      if (!Number.isInteger(quoted) || fresh.amountCents > quoted) {
        return sendPage(
          reply,
          409,
          await previewPage(session, toPlan, 'The charge has changed since the preview; review the new amount and confirm again.'),
        )
      }
      const { quote } = await changePlan(deps, session.accountId, toPlan)
      return reply.redirect(`/dashboard/plan?notice=${quote.kind}`, 303)
    } catch (err) {
      if (!(err instanceof DomainError)) throw err
      return sendPage(reply, 400, await planPage(session, { error: err.message }))
    }
  })
}
