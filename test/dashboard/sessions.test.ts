// Sessions: rotated at login, deleted at logout, idle and absolute expiry, pruning.
import t from 'tap'
import { eq } from 'drizzle-orm'
import { buildTestApp, DRIVERS, manualClock } from '../helpers/app.ts'
import { sessions } from '../../src/db/schema/index.ts'
import { sha256 } from '../../src/db/repositories/sessions.ts'
import { DashboardClient, PASSWORD, text } from './client.ts'

for (const driver of DRIVERS) {
  t.test(`[${driver}] the session rotates at login and ends at logout`, async (t) => {
    const { app, database } = await buildTestApp(t, { driver })
    const c = new DashboardClient(app)
    await c.newAccount('rotate@example.com')
    const first = c.cookies.get('tea_session')!
    // Logging in again from the same browser (the login form is still in its history).
    const login = await c.post('/dashboard/login', { email: 'rotate@example.com', password: PASSWORD, _csrf: c.cookies.get('tea_csrf')! })
    t.equal(login.status, 303)
    const second = c.cookies.get('tea_session')!
    t.not(second, first, 'a new id at login')
    const stale = new DashboardClient(app)
    stale.cookies.set('tea_session', first)
    t.equal((await stale.get('/dashboard')).status, 303, 'the old id no longer works')
    t.equal(
      (
        await database.db
          .select()
          .from(sessions)
          .where(eq(sessions.idHash, sha256(first)))
      ).length,
      0,
      'the old row is gone',
    )

    // Session fixation: a planted cookie value is never adopted.
    const fixed = new DashboardClient(app)
    fixed.cookies.set('tea_session', 'planted-by-an-attacker-0000000000000000000')
    await fixed.get('/dashboard/login')
    await fixed.post('/dashboard/login', { email: 'rotate@example.com', password: PASSWORD })
    t.not(fixed.cookies.get('tea_session'), 'planted-by-an-attacker-0000000000000000000', 'a planted id is replaced')
    t.equal((await fixed.get('/dashboard')).status, 200)

    await c.get('/dashboard')
    const out = await c.post('/dashboard/logout')
    t.equal(out.status, 303)
    t.equal(out.location, '/dashboard/login?notice=logged-out')
    t.ok(
      out.setCookies.some((s) => /^tea_session=;/.test(s) && /Path=\/dashboard/.test(s)),
      'cookie cleared',
    )
    t.equal(
      (
        await database.db
          .select()
          .from(sessions)
          .where(eq(sessions.idHash, sha256(second)))
      ).length,
      0,
      'row deleted',
    )
    const replay = new DashboardClient(app)
    replay.cookies.set('tea_session', second)
    t.equal((await replay.get('/dashboard/tokens')).status, 303, 'the logged-out id is dead')
    t.match(text((await c.get('/dashboard/login?notice=logged-out')).body), /You are logged out/)
  })
  t.test(`[${driver}] sessions expire: 24 hours idle, 7 days at most`, async (t) => {
    const clock = manualClock()
    const { app } = await buildTestApp(t, { driver, clock })
    const idle = new DashboardClient(app)
    await idle.newAccount('idle@example.com')
    clock.advance(23 * 3600_000)
    t.equal((await idle.get('/dashboard')).status, 200, 'used within 24 hours')
    clock.advance(23 * 3600_000)
    t.equal((await idle.get('/dashboard')).status, 200, 'use pushes the idle expiry forward')
    clock.advance(24 * 3600_000 + 1000)
    t.equal((await idle.get('/dashboard')).status, 303, 'idle for 24 hours: logged out')

    const busy = new DashboardClient(app)
    await busy.newAccount('busy@example.com')
    for (let h = 12; h < 7 * 24; h += 12) {
      clock.advance(12 * 3600_000)
      t.equal((await busy.get('/dashboard')).status, 200, `alive after ${h} hours`)
    }
    clock.advance(12 * 3600_000)
    t.equal((await busy.get('/dashboard')).status, 303, 'ended after 7 days however busy')
  })
}

t.test('expired sessions and spent login counters are pruned', async (t) => {
  const clock = manualClock()
  const { app, database, repos } = await buildTestApp(t, { clock })
  const { sessions: store, loginThrottle: throttle } = repos
  const c = new DashboardClient(app)
  await c.newAccount('prune@example.com')
  await new DashboardClient(app).logIn('prune@example.com', 'wrong password!!')
  t.equal(await store.prune(clock()), 0, 'a live session stays')
  t.equal(await throttle.prune(clock()), 0, 'a live counter stays')
  clock.advance(24 * 3600_000 + 1)
  t.equal(await store.prune(clock()), 1, 'the expired session goes')
  t.equal(await throttle.prune(clock()), 2, 'both counters (email and IP) go')
  t.equal((await database.db.select().from(sessions)).length, 0)
})
