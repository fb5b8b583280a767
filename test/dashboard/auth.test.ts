// Accounts: sign-up, log in, session cookie, no email disclosure, error pages.
import t from 'tap'
import { buildTestApp, DRIVERS } from '../helpers/app.ts'
import { sessions, apiTokens } from '../../src/db/schema/index.ts'
import { sha256 } from '../../src/db/repositories/sessions.ts'
import { DashboardClient, PASSWORD, csrfOf, text } from './client.ts'

/** A page's text without its per-request CSRF token, for "indistinguishable" comparisons. */
const neutral = (body: string) => body.replace(/name="_csrf" value="[^"]*"/g, '')

for (const driver of DRIVERS) {
  t.test(`[${driver}] pages and forms need a session`, async (t) => {
    const { app, database } = await buildTestApp(t, { driver })
    const c = new DashboardClient(app)
    for (const url of ['/dashboard', '/dashboard/tokens', '/dashboard/plan', '/dashboard/plan/change?plan=starter']) {
      const r = await c.get(url)
      t.equal(r.status, 303, `GET ${url} redirects`)
      t.equal(r.location, '/dashboard/login')
    }
    const { tokenId } = await (await buildTestApp(t, { driver })).account('free')
    for (const url of ['/dashboard/tokens', '/dashboard/plan/change', `/dashboard/tokens/${tokenId}/revoke`, '/dashboard/logout']) {
      const r = await c.post(url, { _csrf: 'x', name: 'n', plan: 'starter', quoted: '99999' })
      t.equal(r.status, 403, `POST ${url} refused`)
      t.match(text(r.body), /Your session has ended/)
    }
    t.equal((await database.db.select().from(apiTokens)).length, 0, 'no token was created')
  })
  t.test(`[${driver}] sign up, log in: argon2id hash, session cookie, only its hash stored`, async (t) => {
    const { app, database, repos } = await buildTestApp(t, { driver })
    const c = new DashboardClient(app)
    const signup = await c.signUp('  New.User@Example.COM ')
    t.equal(signup.status, 200)
    t.match(text(signup.body), /Sign-up received for new.user@example.com/)
    const account = await repos.accounts.findByEmail('new.user@example.com')
    t.ok(account, 'account created with a normalised email')
    t.equal(account!.plan, 'free')
    t.match(account!.passwordHash!, /^\$argon2id\$/)
    t.notOk(account!.passwordHash!.includes(PASSWORD))

    const login = await c.logIn('new.user@example.com')
    t.equal(login.status, 303)
    t.equal(login.location, '/dashboard')
    const cookie = login.setCookies.find((s) => s.startsWith('tea_session='))!
    t.match(cookie, /HttpOnly/)
    t.match(cookie, /SameSite=Lax/)
    t.match(cookie, /Path=\/dashboard/)
    t.notMatch(cookie, /Secure/, 'not Secure over plain HTTP')
    const value = c.cookies.get('tea_session')!
    t.match(value, /^[A-Za-z0-9_-]{43}$/, '32 random bytes')
    const rows = await database.db.select().from(sessions)
    t.equal(rows.length, 1)
    t.equal(rows[0].idHash, sha256(value), 'the table holds the hash')
    t.not(rows[0].idHash, value)

    const overview = await c.get('/dashboard')
    t.equal(overview.status, 200)
    t.match(text(overview.body), /new.user@example.com/)
    t.match(overview.headers['content-security-policy'], /default-src 'none'/)
    t.equal(overview.headers['cache-control'], 'no-store')
    t.equal(overview.headers['x-frame-options'], 'DENY')
  })
  t.test(`[${driver}] the session cookie is Secure over HTTPS`, async (t) => {
    const { app } = await buildTestApp(t, { driver, config: { trustProxy: 1 } })
    const c = new DashboardClient(app)
    c.headers = { 'x-forwarded-proto': 'https' }
    await c.signUp('secure@example.com')
    const login = await c.logIn('secure@example.com')
    t.equal(login.status, 303)
    t.match(
      login.setCookies.find((s) => s.startsWith('tea_session='))!,
      /; Secure/,
    )
  })
  t.test(`[${driver}] sign-up rules`, async (t) => {
    const { app, repos } = await buildTestApp(t, { driver })
    const c = new DashboardClient(app)
    let r = await c.signUp('short@example.com', 'elevenchars')
    t.equal(r.status, 400)
    t.match(text(r.body), /at least 12 characters; it has 11/)
    t.notOk(await repos.accounts.findByEmail('short@example.com'))
    r = await c.signUp('not-an-email', PASSWORD)
    t.equal(r.status, 400)
    t.match(text(r.body), /"not-an-email" is not an email address/)
    r = await c.signUp('twelve@example.com', 'twelve chars')
    t.equal(r.status, 200, 'exactly 12 characters is enough')
    t.ok(await repos.accounts.findByEmail('twelve@example.com'))
  })
  t.test(`[${driver}] no page reveals whether an email is registered`, async (t) => {
    const { app, repos } = await buildTestApp(t, { driver })
    const c = new DashboardClient(app)
    await c.signUp('taken@example.com')
    const before = (await repos.accounts.findByEmail('taken@example.com'))!

    // Sign-up: a registered email and a new one get the same page.
    const again = await new DashboardClient(app).signUp('taken@example.com', 'another password entirely')
    const fresh = await new DashboardClient(app).signUp('fresh@example.com', 'another password entirely')
    t.equal(again.status, fresh.status)
    t.equal(
      neutral(again.body).replaceAll('taken@example.com', 'E'),
      neutral(fresh.body).replaceAll('fresh@example.com', 'E'),
      'identical pages',
    )
    const after = (await repos.accounts.findByEmail('taken@example.com'))!
    t.equal(after.passwordHash, before.passwordHash, 'the existing account is untouched')
    t.equal(
      (await new DashboardClient(app).logIn('taken@example.com', 'another password entirely')).status,
      400,
      'the second password does not log in',
    )

    // Log in: unknown email and wrong password get the same answer.
    const unknown = await new DashboardClient(app).logIn('nobody@example.com', PASSWORD)
    const wrong = await new DashboardClient(app).logIn('taken@example.com', 'wrong password here')
    t.equal(unknown.status, 400)
    t.equal(wrong.status, 400)
    t.match(text(unknown.body), /Email or password is incorrect/)
    t.equal(neutral(unknown.body).replaceAll('nobody@example.com', 'E'), neutral(wrong.body).replaceAll('taken@example.com', 'E'))
    t.notMatch(unknown.body, /set-cookie|tea_session/)
  })
}

t.test('HTML error pages stay inside /dashboard; the JSON API keeps its own', async (t) => {
  const { app } = await buildTestApp(t)
  const r = await app.inject('/dashboard/nope')
  t.equal(r.statusCode, 404)
  t.match(r.headers['content-type'], /text\/html/)
  t.match(r.body, /Page not found/)
  const api = await app.inject('/v1/nope')
  t.equal(api.statusCode, 404)
  t.match(api.headers['content-type'], /application\/json/)
  const css = await app.inject('/dashboard/assets/dashboard.css')
  t.equal(css.statusCode, 200)
  t.match(css.headers['content-type'], /text\/css/)
  t.equal((await app.inject('/dashboard/assets/..%2Fsecurity.ts')).statusCode, 404)
  for (const name of ['__proto__', 'constructor', 'hasOwnProperty']) {
    t.equal((await app.inject(`/dashboard/assets/${name}`)).statusCode, 404, `no asset called ${name}`)
  }
  const odd = await app.inject('/dashboard/login?notice=constructor')
  t.equal(odd.statusCode, 200)
  t.notMatch(odd.body, /class="notice"/, 'only known notices are shown')
  t.ok(csrfOf((await app.inject('/dashboard/login')).body), 'the login form carries a CSRF field')
})
