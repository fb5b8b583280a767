// CSRF: every state-changing form is refused without the right token or from another site.
import t from 'tap'
import { buildTestApp, DRIVERS } from '../helpers/app.ts'
import { DashboardClient, PASSWORD, text } from './client.ts'

for (const driver of DRIVERS) {
  t.test(`[${driver}] CSRF: every state-changing form is refused without the right token`, async (t) => {
    const { app, repos } = await buildTestApp(t, { driver })
    const form = { email: 'csrf@example.com', password: PASSWORD }

    // Logged out: the hidden field must match the double-submit cookie.
    const noCookie = new DashboardClient(app)
    let r = await noCookie.post('/dashboard/signup', { ...form, _csrf: 'A'.repeat(43) })
    t.equal(r.status, 403, 'sign-up without the CSRF cookie')
    t.notOk(await repos.accounts.findByEmail('csrf@example.com'))
    const c = new DashboardClient(app)
    await c.get('/dashboard/signup')
    r = await c.post('/dashboard/signup', { ...form, _csrf: 'B'.repeat(43) })
    t.equal(r.status, 403, 'sign-up with a field that does not match the cookie')
    r = await c.post('/dashboard/signup', { ...form, _csrf: null })
    t.equal(r.status, 403, 'sign-up without the field')
    t.notOk(await repos.accounts.findByEmail('csrf@example.com'))
    r = await c.post('/dashboard/signup', form)
    t.equal(r.status, 200, 'with the token it works')
    r = await c.post('/dashboard/login', { ...form, _csrf: null })
    t.equal(r.status, 403, 'log in without the field')
    t.notOk(c.cookies.has('tea_session'))

    // Cross-site posts are refused even with a valid token (Origin / Sec-Fetch-Site).
    r = await c.post('/dashboard/login', form, { origin: 'https://evil.example' })
    t.equal(r.status, 403, 'foreign Origin')
    r = await c.post('/dashboard/login', form, { 'sec-fetch-site': 'cross-site' })
    t.equal(r.status, 403, 'Sec-Fetch-Site: cross-site')
    r = await c.post('/dashboard/login', form, { 'sec-fetch-site': 'same-site' })
    t.equal(r.status, 403, 'Sec-Fetch-Site: same-site (a sibling sub-domain)')
    r = await c.post('/dashboard/login', form, { origin: 'null' })
    t.equal(r.status, 403, 'Origin: null')
    r = await c.post('/dashboard/login', form, { origin: 'http://localhost.evil.example' })
    t.equal(r.status, 403, 'a look-alike host')
    t.notOk(c.cookies.has('tea_session'), 'no refused request logged in')
    r = await c.post('/dashboard/login', form, { origin: 'http://localhost:80' })
    t.equal(r.status, 303, 'our own Origin passes')

    // Logged in: the session's token, not the pre-session one, not another session's.
    await c.get('/dashboard/tokens')
    const own = c.csrf!
    const other = new DashboardClient(app)
    await other.newAccount('other@example.com')
    for (const bad of [null, '', 'x', other.csrf!, noCookie.cookies.get('tea_csrf') ?? 'C'.repeat(43)]) {
      r = await c.post('/dashboard/tokens', { name: 'sneaky', _csrf: bad })
      t.equal(r.status, 403, `create token with _csrf=${bad === null ? 'missing' : 'wrong'}`)
      t.match(text(r.body), /Request refused/)
    }
    const account = (await repos.accounts.findByEmail('csrf@example.com'))!
    t.equal((await repos.tokens.listByAccount(account.id)).length, 0, 'no token created')
    r = await c.post('/dashboard/plan/change', { plan: 'starter', quoted: '2900', _csrf: 'nope' })
    t.equal(r.status, 403, 'plan change refused')
    t.equal((await repos.accounts.findById(account.id))!.plan, 'free')
    r = await c.post('/dashboard/logout', { _csrf: 'nope' })
    t.equal(r.status, 403, 'logout refused')
    t.equal((await c.get('/dashboard')).status, 200, 'still logged in')
    r = await c.post('/dashboard/tokens', { name: 'fine', _csrf: own })
    t.equal(r.status, 201, 'the right token works')
  })
}
