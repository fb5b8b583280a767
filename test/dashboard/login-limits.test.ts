// Failed logins are throttled per email and per client IP; sign-ups per client IP.
import t from 'tap'
import { buildTestApp, DRIVERS, manualClock } from '../helpers/app.ts'
import { DashboardClient, text } from './client.ts'

for (const driver of DRIVERS) {
  t.test(`[${driver}] failed logins are limited per account`, async (t) => {
    const clock = manualClock()
    const { app } = await buildTestApp(t, { driver, clock })
    await new DashboardClient(app).signUp('target@example.com')
    const attacker = new DashboardClient(app)
    for (let i = 1; i <= 5; i++) {
      attacker.remoteAddress = `10.0.0.${i}` // a different IP each time: the account limit still holds
      const r = await attacker.logIn('target@example.com', `guess number ${i}!`)
      t.equal(r.status, 400, `failure ${i}`)
    }
    const owner = new DashboardClient(app)
    owner.remoteAddress = '192.0.2.7'
    let r = await owner.logIn('target@example.com')
    t.equal(r.status, 429, 'the sixth attempt is refused, even with the right password')
    t.match(text(r.body), /Too many failed login attempts for this account or from your network\. Try again in 15 minutes/)
    t.equal(r.headers['retry-after'], '900')
    t.notOk(owner.cookies.has('tea_session'))

    // An unregistered email is throttled the same way, so the lock-out reveals nothing.
    for (let i = 1; i <= 5; i++) await attacker.logIn('ghost@example.com', `guess number ${i}!`)
    const ghost = await attacker.logIn('ghost@example.com', 'one more try!!')
    t.equal(ghost.status, 429)

    clock.advance(15 * 60_000)
    r = await owner.logIn('target@example.com')
    t.equal(r.status, 303, 'after 15 minutes the right password works')
    t.equal(r.location, '/dashboard')
  })
  t.test(`[${driver}] failed logins are limited per IP`, async (t) => {
    const clock = manualClock()
    const { app } = await buildTestApp(t, { driver, clock })
    await new DashboardClient(app).signUp('victim@example.com')
    const bot = new DashboardClient(app)
    bot.remoteAddress = '203.0.113.9'
    for (let i = 1; i <= 20; i++) {
      const r = await bot.logIn(`spray${i}@example.com`, 'password123456')
      t.equal(r.status, 400, `spray ${i}`)
    }
    let r = await bot.logIn('victim@example.com')
    t.equal(r.status, 429, 'the 21st attempt from this IP is refused')
    t.match(text(r.body), /Too many failed login attempts/)
    const elsewhere = new DashboardClient(app)
    elsewhere.remoteAddress = '198.51.100.4'
    r = await elsewhere.logIn('victim@example.com')
    t.equal(r.status, 303, 'another IP is not affected')
    clock.advance(15 * 60_000 + 1)
    r = await bot.logIn('victim@example.com')
    t.equal(r.status, 303, 'the IP window runs out')
  })

  t.test(`[${driver}] sign-ups are limited per IP, whatever the email`, async (t) => {
    const clock = manualClock()
    const { app, repos } = await buildTestApp(t, { driver, clock })
    const c = new DashboardClient(app)
    c.remoteAddress = '203.0.113.50'
    await c.signUp('existing@example.com')
    for (let i = 2; i <= 10; i++) {
      // Registered or new, each counts: the limit cannot be used to probe emails.
      const r = await c.signUp(i % 2 ? 'existing@example.com' : `new${i}@example.com`)
      t.equal(r.status, 200, `sign-up ${i}`)
    }
    let r = await c.signUp('eleventh@example.com')
    t.equal(r.status, 429)
    t.match(text(r.body), /Too many sign-ups from your network\. Try again in 60 minutes/)
    t.equal(r.headers['retry-after'], '3600')
    t.notOk(await repos.accounts.findByEmail('eleventh@example.com'), 'no account made')
    r = await c.signUp('existing@example.com')
    t.equal(r.status, 429, 'the same answer for a registered email')
    const other = new DashboardClient(app)
    other.remoteAddress = '198.51.100.50'
    t.equal((await other.signUp('elsewhere@example.com')).status, 200, 'another IP is not affected')
    clock.advance(3600_000)
    t.equal((await c.signUp('eleventh@example.com')).status, 200, 'a new hour, a new window')
    t.ok(await repos.accounts.findByEmail('eleventh@example.com'))
  })
}
