// Login and sign-up limits under attack, over real HTTP against nodes listening on real ports:
// a burst of simultaneous guesses for one account, a spray of emails from one address, the same
// split over two nodes on one database, and forwarding headers a client makes up.
import t, { type Test } from 'tap'
import { eq } from 'drizzle-orm'
import { buildTestApp, DRIVERS, manualClock, openTestDatabase, type Driver } from '../helpers/app.ts'
import { loginAttempts } from '../../src/db/schema/index.ts'
import type { Config } from '../../src/config.ts'
import type { Database } from '../../src/db/client.ts'

const PASSWORD = 'correct horse battery staple'

/** A listening node on one database, with a logged-out form's CSRF pair ready for POSTs. */
async function node(t: Test, database: Database, clock: ReturnType<typeof manualClock>, config: Partial<Config> = {}) {
  const h = await buildTestApp(t, { database, clock, config })
  await h.app.listen({ port: 0, host: '127.0.0.1' })
  const base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`
  const page = await fetch(`${base}/dashboard/login`)
  const cookie = page.headers.getSetCookie().find((c) => c.startsWith('tea_csrf='))!.split(';')[0]
  const csrf = /name="_csrf" value="([^"]*)"/.exec(await page.text())![1]
  /** POSTs a logged-out form; returns the status and whether a session cookie was set. */
  const post = async (path: '/dashboard/login' | '/dashboard/signup', form: Record<string, string>, headers: Record<string, string> = {}) => {
    const res = await fetch(base + path, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, ...headers },
      body: new URLSearchParams({ _csrf: csrf, ...form }).toString(),
    })
    await res.arrayBuffer()
    return { status: res.status, session: res.headers.getSetCookie().some((c) => c.startsWith('tea_session=') && !/max-age=0/i.test(c)) }
  }
  return { ...h, base, post }
}

const count = (results: { status: number }[], status: number) => results.filter((r) => r.status === status).length

async function database(t: Test, driver: Driver) {
  return (await openTestDatabase(t, driver)).database
}

for (const driver of DRIVERS) {
  t.test(`[${driver}] 100 simultaneous logins for one email: 5 are checked, the right password last is refused`, async (t) => {
    const clock = manualClock()
    const db = await database(t, driver)
    const n = await node(t, db, clock)
    t.equal((await n.post('/dashboard/signup', { email: 'target@example.com', password: PASSWORD })).status, 200)
    // Each guess from its own address, as a botnet would: only the account's limit stands in the way.
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        n.post('/dashboard/login', { email: 'target@example.com', password: i === 99 ? PASSWORD : `wrong guess ${i}!` }),
      ),
    )
    t.equal(count(results, 400), 5, 'exactly the account limit of attempts is checked')
    t.equal(count(results, 429), 95, 'every other attempt is refused before its password is checked')
    t.equal(results[99].status, 429, 'the right password, sent last, is refused too')
    t.notOk(results.some((r) => r.session), 'no session was opened')
    const [row] = await n.repos.db.select().from(loginAttempts).where(eq(loginAttempts.key, 'account:target@example.com'))
    t.equal(row.failures, 5, 'the database holds the 5 failures')
  })

  t.test(`[${driver}] 100 simultaneous logins from one address to as many emails: 20 are checked`, async (t) => {
    const clock = manualClock()
    const n = await node(t, await database(t, driver), clock)
    const results = await Promise.all(Array.from({ length: 100 }, (_, i) => n.post('/dashboard/login', { email: `spray${i}@example.com`, password: 'password123456' })))
    t.equal(count(results, 400), 20, 'exactly the per-address limit is checked')
    t.equal(count(results, 429), 80)
  })

  t.test(`[${driver}] a successful login is not counted as a failure of its address`, async (t) => {
    const clock = manualClock()
    const n = await node(t, await database(t, driver), clock)
    t.equal((await n.post('/dashboard/signup', { email: 'office@example.com', password: PASSWORD })).status, 200)
    // 21 good logins from one office address: more than the per-address limit of failures.
    for (let i = 0; i < 21; i++) t.equal((await n.post('/dashboard/login', { email: 'office@example.com', password: PASSWORD })).status, 303, `login ${i + 1}`)
    const [row] = await n.repos.db.select().from(loginAttempts).where(eq(loginAttempts.key, 'ip:127.0.0.1'))
    t.equal(row?.failures ?? 0, 0, 'nothing left on the address')
  })

  t.test(`[${driver}] 40 simultaneous sign-ups from one address: 10 go through`, async (t) => {
    const clock = manualClock()
    const n = await node(t, await database(t, driver), clock)
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => n.post('/dashboard/signup', { email: `new${i}@example.com`, password: PASSWORD })))
    t.equal(count(results, 200), 10)
    t.equal(count(results, 429), 30)
  })

  t.test(`[${driver}] two nodes on one database share the limits`, async (t) => {
    const clock = manualClock()
    const db = await database(t, driver)
    const a = await node(t, db, clock)
    const b = await node(t, db, clock)
    t.equal((await a.post('/dashboard/signup', { email: 'shared@example.com', password: PASSWORD })).status, 200)
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).post('/dashboard/login', { email: 'shared@example.com', password: i === 59 ? PASSWORD : `wrong guess ${i}!` })),
    )
    t.equal(count(results, 400), 5, 'the account limit holds across both nodes')
    t.equal(count(results, 429), 55)
    t.notOk(results.some((r) => r.session))
  })

  t.test(`[${driver}] TRUST_PROXY=1: an X-Forwarded-For the client made up cannot rotate its address`, async (t) => {
    const clock = manualClock()
    const n = await node(t, await database(t, driver), clock, { trustProxy: 1 })
    // As nginx forwards them: whatever the client sent, then the address nginx saw (one client here).
    const forwarded = (i: number) => ({ 'x-forwarded-for': `10.${i >> 8}.${i & 255}.1, 203.0.113.7` })
    const logins = []
    for (let i = 0; i < 30; i++) logins.push(await n.post('/dashboard/login', { email: `spray${i}@example.com`, password: 'password123456' }, forwarded(i)))
    t.equal(count(logins, 400), 20, '20 failed logins from the client address, whatever it claimed')
    t.equal(count(logins, 429), 10)
    const signups = []
    for (let i = 0; i < 15; i++) signups.push(await n.post('/dashboard/signup', { email: `new${i}@example.com`, password: PASSWORD }, forwarded(i)))
    t.equal(count(signups, 200), 10, '10 sign-ups from the client address, whatever it claimed')
    t.equal(count(signups, 429), 5)
    // Another client behind the same proxy is not affected.
    const other = await n.post('/dashboard/signup', { email: 'else@example.com', password: PASSWORD }, { 'x-forwarded-for': '198.51.100.4' })
    t.equal(other.status, 200)
    const rows = await n.repos.db.select().from(loginAttempts)
    t.same(new Set(rows.map((r) => r.key.replace(/^(ip|signup):/, ''))).has('203.0.113.7'), true, 'counted under the address the proxy saw')
    t.notOk(rows.some((r) => r.key.includes('10.')), 'never under an address the client made up')
  })
}
