// Plan page: the prorated quote before confirming (cycle start, middle, end), upgrades at once
// (the API's limit changes on the next call), downgrades at the next cycle, the ledger.
import t from 'tap'
import { buildTestApp, DRIVERS, englishText, manualClock } from '../helpers/app.ts'
import { DashboardClient, text } from './client.ts'
import { changePlan } from '../../src/domain/billing.ts'

const quoteOf = (body: string) => text(/<p data-testid="quote">([\s\S]*?)<\/p>/.exec(body)?.[1] ?? '')
const amountOf = (body: string) => text(/data-testid="quote-amount">([^<]*)</.exec(body)?.[1] ?? '')

for (const driver of DRIVERS) {
  t.test(`[${driver}] proration arithmetic at the cycle's start, middle and end`, async (t) => {
    const clock = manualClock(new Date('2026-11-01T00:00:00Z'))
    const { app } = await buildTestApp(t, { driver, clock })
    const c = new DashboardClient(app)
    await c.newAccount('prorate@example.com') // the billing cycle starts now: Nov 1 → Dec 1, 30 days
    const preview = async (plan: string) => {
      const r = await c.get(`/dashboard/plan/change?plan=${plan}`)
      t.equal(r.status, 200)
      return { amount: amountOf(r.body), quote: quoteOf(r.body) }
    }
    let q = await preview('starter')
    t.equal(q.amount, '$29.00', 'at the start: the whole price difference')
    t.equal(q.quote, '$29.00 charged now: ($29.00 − $0.00) × 30 of 30 days left in this billing cycle; the starter limit applies at once.')

    clock.set('2026-11-16T00:00:00Z')
    await c.stayLoggedIn()

    q = await preview('starter')
    t.equal(q.amount, '$14.50', 'in the middle: half')
    t.match(q.quote, /× 15 of 30 days left/)
    t.equal((await preview('business')).amount, '$149.50')

    clock.set('2026-11-30T12:00:00Z')
    await c.stayLoggedIn()

    t.equal((await preview('starter')).amount, '$0.48', '12 hours of 720: 2900 / 60 = 48.33 cents, rounded')
    t.equal((await preview('business')).amount, '$4.98', '29900 / 60 = 498.33 cents')
    t.equal((await preview('pro')).amount, '$1.65', '9900 / 60 = 165 cents')

    clock.set('2026-11-30T23:59:59Z')
    await c.stayLoggedIn()

    t.equal((await preview('business')).amount, '$0.00', 'one second before the end: nothing left to charge')

    clock.set('2026-12-01T00:00:00Z')
    await c.stayLoggedIn()

    t.equal((await preview('starter')).amount, '$29.00', 'the next cycle starts whole again')

    // The plan table on the plan page shows the same quotes before anything is chosen.
    clock.set('2026-11-16T00:00:00Z')
    await c.stayLoggedIn()
    const plan = text((await c.get('/dashboard/plan')).body)
    t.match(plan, /starter 1,000 5 \$29\.00 \$14\.50 charged now/)
    t.match(plan, /free \(current\) 100 3 \$0\.00 Current plan/)
  })

  t.test(`[${driver}] an upgrade applies at once: the API's next call succeeds; the ledger shows the charge`, async (t) => {
    const clock = manualClock(new Date('2026-11-01T00:00:00Z'))
    const { app, repos } = await buildTestApp(t, { driver, clock })
    const c = new DashboardClient(app)
    await c.newAccount('upgrade@example.com')
    const token = /value="(tea_live_[0-9A-Za-z]{38})"/.exec((await c.post('/dashboard/tokens', { name: 'ci' })).body)![1]
    const account = (await repos.accounts.findByEmail('upgrade@example.com'))!
    clock.set('2026-11-16T00:00:00Z')
    await c.stayLoggedIn()
    // Spend today's free quota directly (the browser test spends it through the API).
    for (let i = 0; i < 100; i++) await repos.usage.reserve(account.id, '2026-11-16', 100)
    const analyze = () =>
      app.inject({ method: 'POST', url: '/v1/analyze', headers: { authorization: `Bearer ${token}` }, payload: { text: englishText(1) } })
    t.equal((await analyze()).statusCode, 429, 'the free quota is spent')

    const preview = await c.get('/dashboard/plan/change?plan=starter')
    t.equal(amountOf(preview.body), '$14.50')
    t.match(preview.body, /<button type="submit">Change plan<\/button>/)
    t.equal((await analyze()).statusCode, 429, 'a preview changes nothing')
    const done = await c.post('/dashboard/plan/change', { plan: 'starter', quoted: '1450' })
    t.equal(done.status, 303)
    t.equal(done.location, '/dashboard/plan?notice=upgrade')

    const next = await analyze()
    t.equal(next.statusCode, 200, 'the next API call succeeds')
    t.equal(next.headers['x-ratelimit-limit'], '1000')
    const page = text((await c.get('/dashboard/plan?notice=upgrade')).body)
    t.match(page, /You are now on the starter plan: 1,000 requests a day, from now on/)
    t.match(page, /Today's usage 101 of 1000/)
    t.match(
      page,
      /2026-11-16 00:00 UTC free → starter Upgrade \(prorated\) 50\.0% of the cycle left \(2026-11-01 – 2026-12-01\) 2026-11-16 00:00 UTC \$14\.50/,
    )
    const ledger = await repos.billing.listByAccount(account.id)
    t.equal(ledger.length, 1)
    t.equal(ledger[0].amountCents, 1450)
  })

  t.test(`[${driver}] a downgrade is free and waits for the next cycle; it can be cancelled`, async (t) => {
    const clock = manualClock(new Date('2026-11-01T00:00:00Z'))
    const { app, repos } = await buildTestApp(t, { driver, clock })
    const c = new DashboardClient(app)
    await c.newAccount('down@example.com')
    await c.get('/dashboard/plan/change?plan=pro')
    await c.post('/dashboard/plan/change', { plan: 'pro', quoted: '9900' })
    const token = /value="(tea_live_[0-9A-Za-z]{38})"/.exec((await c.post('/dashboard/tokens', { name: 'ci' })).body)![1]
    const quota = async () => (await app.inject({ url: '/v1/quota', headers: { authorization: `Bearer ${token}` } })).json()

    clock.set('2026-11-10T08:00:00Z')
    await c.stayLoggedIn()

    const preview = await c.get('/dashboard/plan/change?plan=starter')
    t.equal(amountOf(preview.body), '$0.00')
    t.equal(quoteOf(preview.body), 'No charge; takes effect on 2026-12-01 (2026-12-01 00:00 UTC), the start of the next billing cycle.')
    const done = await c.post('/dashboard/plan/change', { plan: 'starter', quoted: '0' })
    t.equal(done.location, '/dashboard/plan?notice=downgrade_scheduled')
    let page = text((await c.get('/dashboard/plan?notice=downgrade_scheduled')).body)
    t.match(page, /The downgrade to starter is scheduled for 2026-12-01 00:00 UTC\. No charge\./)
    t.match(page, /A downgrade to starter is scheduled for 2026-12-01 00:00 UTC; until then the pro plan and its limit stay in force/)
    t.match(page, /pro → starter Downgrade scheduled .* \$0\.00/)
    t.equal((await quota()).plan, 'pro', 'still pro until the cycle ends')

    // Changing one's mind: choosing pro again cancels the scheduled downgrade, free.
    const cancel = await c.get('/dashboard/plan/change?plan=pro')
    t.match(quoteOf(cancel.body), /No charge; the scheduled downgrade is cancelled/)
    t.equal((await c.post('/dashboard/plan/change', { plan: 'pro', quoted: '0' })).location, '/dashboard/plan?notice=downgrade_cancelled')
    t.match(
      text((await c.get('/dashboard/plan?notice=downgrade_cancelled')).body),
      /The scheduled downgrade is cancelled; you stay on the pro plan/,
    )

    await c.get('/dashboard/plan/change?plan=free')
    await c.post('/dashboard/plan/change', { plan: 'free', quoted: '0' })
    clock.set('2026-11-30T23:59:59Z')
    await c.stayLoggedIn()
    t.equal((await quota()).plan, 'pro')
    clock.set('2026-12-01T00:00:00Z')
    await c.stayLoggedIn()
    t.equal((await quota()).plan, 'free', 'the downgrade applies at the cycle start')
    page = text((await c.get('/dashboard/plan')).body)
    t.match(page, /Plan free Today's usage 0 of 100/)
    const account = (await repos.accounts.findByEmail('down@example.com'))!
    t.same((await repos.billing.listByAccount(account.id)).map((e) => [e.kind, e.amountCents]).sort(), [
      ['downgrade_cancelled', 0],
      ['downgrade_scheduled', 0],
      ['downgrade_scheduled', 0],
      ['upgrade', 9900],
    ])
  })

  t.test(`[${driver}] never charges more than the preview showed; bad choices are explained`, async (t) => {
    const clock = manualClock(new Date('2026-11-01T00:00:00Z'))
    const { app, repos } = await buildTestApp(t, { driver, clock })
    const c = new DashboardClient(app)
    await c.newAccount('stale@example.com')
    clock.set('2026-11-30T23:00:00Z')
    await c.stayLoggedIn()
    const preview = await c.get('/dashboard/plan/change?plan=starter')
    t.equal(amountOf(preview.body), '$0.04')
    clock.set('2026-12-01T00:00:01Z') // a new cycle began while the page was open
    await c.stayLoggedIn()
    const r = await c.post('/dashboard/plan/change', { plan: 'starter', quoted: '4' })
    t.equal(r.status, 409)
    t.match(text(r.body), /The charge has changed since the preview; review the new amount and confirm again/)
    t.equal(amountOf(r.body), '$29.00', 'the new quote is shown')
    const account = (await repos.accounts.findByEmail('stale@example.com'))!
    t.equal((await repos.accounts.findById(account.id))!.plan, 'free', 'nothing applied')
    t.equal((await repos.billing.listByAccount(account.id)).length, 0, 'nothing charged')
    t.equal((await c.post('/dashboard/plan/change', { plan: 'starter', quoted: '2900' })).status, 303, 'confirmed at the new amount')

    let bad = await c.get('/dashboard/plan/change?plan=starter')
    t.equal(bad.status, 400)
    t.match(text(bad.body), /The account is already on the starter plan/)
    bad = await c.get('/dashboard/plan/change?plan=platinum')
    t.equal(bad.status, 400)
    t.match(text(bad.body), /Unknown plan "platinum"/)
    bad = await c.post('/dashboard/plan/change', { plan: 'platinum', quoted: '0' })
    t.equal(bad.status, 400)
  })

  t.test(`[${driver}] overview: plan, today's usage against the limit, reset time, 30-day chart`, async (t) => {
    const clock = manualClock(new Date('2026-11-22T15:30:00Z'))
    const { app, repos } = await buildTestApp(t, { driver, clock })
    const c = new DashboardClient(app)
    await c.newAccount('chart@example.com')
    const token = /value="(tea_live_[0-9A-Za-z]{38})"/.exec((await c.post('/dashboard/tokens', { name: 'ci' })).body)![1]
    const account = (await repos.accounts.findByEmail('chart@example.com'))!
    // Earlier days: written directly (the API cannot be called in the past).
    for (let i = 0; i < 7; i++) await repos.usage.reserve(account.id, '2026-11-20', 100)
    for (let i = 0; i < 100; i++) await repos.usage.reserve(account.id, '2026-10-24', 100) // 29 days ago: the first day shown
    await repos.usage.reserve(account.id, '2026-10-23', 100) // 30 days ago: outside the chart
    for (let i = 0; i < 3; i++) {
      const r = await app.inject({
        method: 'POST',
        url: '/v1/analyze',
        headers: { authorization: `Bearer ${token}` },
        payload: { text: englishText(i) },
      })
      t.equal(r.statusCode, 200)
    }
    const r = await c.get('/dashboard')
    t.equal(r.status, 200)
    const page = text(r.body)
    t.match(page, /Plan free Today's usage 3 of 100 .* Remaining today 97 Quota resets 2026-11-23 00:00 UTC/)
    t.equal((r.body.match(/<g class="bar/g) ?? []).length, 30, '30 bars')
    t.match(r.body, /<title>2026-11-22 \(today\): 3 requests of 100<\/title>/)
    t.match(r.body, /<title>2026-11-20: 7 requests of 100<\/title>/)
    t.match(r.body, /<title>2026-10-24: 100 requests of 100<\/title>/)
    t.notMatch(r.body, /2026-10-23/, 'only the last 30 days')
    t.match(r.body, /Daily limit 100<\/text>/)
    t.match(page, /Today: 3 of 100/)
    t.match(page, /2026-11-22 \(today\) 3 100 2026-11-21 0 100 2026-11-20 7 100/, 'the table has the numbers')
  })

  t.test(`[${driver}] the chart shows each day against the limit of the plan then in force`, async (t) => {
    const clock = manualClock(new Date('2026-11-10T09:00:00Z'))
    const { app, repos } = await buildTestApp(t, { driver, clock })
    const c = new DashboardClient(app)
    await c.newAccount('history@example.com')
    const account = (await repos.accounts.findByEmail('history@example.com'))!
    await repos.usage.reserve(account.id, '2026-11-09', 100)
    // Upgraded to starter on the 12th (from then on 1,000 a day), shown on the 22nd.
    clock.set('2026-11-12T10:00:00Z')
    await changePlan({ repos, clock }, account.id, 'starter')
    clock.set('2026-11-22T15:30:00Z')
    await c.logIn('history@example.com') // the session of the 10th has expired
    const r = await c.get('/dashboard')
    t.match(r.body, /<title>2026-11-09: 1 request of 100<\/title>/, 'before the upgrade: the free limit')
    t.match(r.body, /<title>2026-11-11: 0 requests of 100<\/title>/)
    t.match(r.body, /<title>2026-11-12: 0 requests of 1000<\/title>/, 'the day of the upgrade: the new limit')
    t.match(r.body, /<title>2026-11-22 \(today\): 0 requests of 1000<\/title>/)
    t.match(r.body, /Daily limit 1000<\/text>/)
  })
}
