// Login and sign-up limits under attack, over real HTTP against nodes listening on real ports:
// a burst of simultaneous guesses for one account, a spray of emails from one address, the same
// split over two nodes on one database, and forwarding headers a client makes up.
import t, { type Test } from 'tap'
import { eq } from 'drizzle-orm'
import { buildTestApp, DRIVERS, manualClock, openTestDatabase } from '../helpers/app.ts'
import { loginAttempts } from '../../src/db/schema/index.ts'
import { loadConfig, type Config } from '../../src/config.ts'
import type { Database } from '../../src/db/client.ts'

const PASSWORD = 'correct horse battery staple'

/** A listening node on one database, with a logged-out form's CSRF pair ready for POSTs. */
async function node(t: Test, database: Database, clock: ReturnType<typeof manualClock>, config: Partial<Config> = {}) {
  const h = await buildTestApp(t, { database, clock, config })
  await h.app.listen({ port: 0, host: '127.0.0.1' })
  const base = `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}`
  const page = await fetch(`${base}/dashboard/login`)
  const cookie = page.headers
    .getSetCookie()
    .find((c) => c.startsWith('tea_csrf='))!
    .split(';')[0]
  const csrf = /name="_csrf" value="([^"]*)"/.exec(await page.text())![1]
  /** POSTs a logged-out form; returns the status and whether a session cookie was set. */
  const post = async (
    path: '/dashboard/login' | '/dashboard/signup',
    form: Record<string, string>,
    headers: Record<string, string> = {},
  ) => {
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

/** As nginx forwards a request of `client`: whatever the client sent first, then the address nginx saw. */
const via = (client: string, claimed?: string) => ({ 'x-forwarded-for': claimed ? `${claimed}, ${client}` : client })

for (const driver of DRIVERS) {
  t.test(`[${driver}] login and sign-up limits over real HTTP`, async (t) => {
    const clock = manualClock()
    const { database } = await openTestDatabase(t, driver)
    // Two nodes on one database behind one proxy on loopback, trusted one by address, one by hop count.
    const a = await node(t, database, clock, { trustProxy: loadConfig({ TRUST_PROXY: '127.0.0.1' }).trustProxy })
    const b = await node(t, database, clock, { trustProxy: loadConfig({ TRUST_PROXY: '1' }).trustProxy })
    const attemptsOf = async (key: string) =>
      (await a.database.db.select().from(loginAttempts).where(eq(loginAttempts.key, key)))[0]?.failures ?? 0

    t.test('100 simultaneous logins for one email: 5 are checked, the right password sent last is refused', async (t) => {
      t.equal((await a.post('/dashboard/signup', { email: 'target@example.com', password: PASSWORD }, via('192.0.2.1'))).status, 200)
      // Each guess from its own address, as a botnet would: only the account's limit stands in the way.
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          a.post(
            '/dashboard/login',
            { email: 'target@example.com', password: i === 99 ? PASSWORD : `wrong guess ${i}!` },
            via(`198.18.0.${i + 1}`),
          ),
        ),
      )
      t.equal(count(results, 400), 5, 'exactly the account limit of attempts is checked')
      t.equal(count(results, 429), 95, 'every other attempt is refused before its password is checked')
      t.equal(results[99].status, 429, 'the right password, sent last, is refused too')
      t.notOk(
        results.some((r) => r.session),
        'no session was opened',
      )
      t.equal(await attemptsOf('account:target@example.com'), 5, 'the database holds the 5 failures')
    })

    t.test('the same burst split over two nodes on one database', async (t) => {
      t.equal((await b.post('/dashboard/signup', { email: 'shared@example.com', password: PASSWORD }, via('192.0.2.1'))).status, 200)
      const results = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          (i % 2 ? a : b).post(
            '/dashboard/login',
            { email: 'shared@example.com', password: i === 59 ? PASSWORD : `wrong guess ${i}!` },
            via(`198.18.1.${i + 1}`),
          ),
        ),
      )
      t.equal(count(results, 400), 5, 'the account limit holds across both nodes')
      t.equal(count(results, 429), 55)
      t.notOk(results.some((r) => r.session))
    })

    t.test('100 simultaneous logins from one address to as many emails: 20 are checked', async (t) => {
      const results = await Promise.all(
        Array.from({ length: 100 }, (_, i) =>
          (i % 2 ? a : b).post('/dashboard/login', { email: `spray${i}@example.com`, password: 'password123456' }, via('203.0.113.1')),
        ),
      )
      t.equal(count(results, 400), 20, 'exactly the per-address limit is checked')
      t.equal(count(results, 429), 80)
      t.equal(await attemptsOf('ip:203.0.113.1'), 20)
    })

    t.test('40 simultaneous sign-ups from one address: 10 go through', async (t) => {
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          (i % 2 ? a : b).post('/dashboard/signup', { email: `new${i}@example.com`, password: PASSWORD }, via('203.0.113.2')),
        ),
      )
      t.equal(count(results, 200), 10)
      t.equal(count(results, 429), 30)
    })

    t.test('a successful login is not counted as a failure of its address', async (t) => {
      t.equal((await a.post('/dashboard/signup', { email: 'office@example.com', password: PASSWORD }, via('192.0.2.1'))).status, 200)
      // 21 good logins from one office address: more than the per-address limit of failures.
      for (let i = 0; i < 21; i++) {
        t.equal(
          (await a.post('/dashboard/login', { email: 'office@example.com', password: PASSWORD }, via('203.0.113.3'))).status,
          303,
          `login ${i + 1}`,
        )
      }
      t.equal(await attemptsOf('ip:203.0.113.3'), 0, 'nothing left on the address')
    })

    for (const [name, n] of [
      ['addresses', a],
      ['hop count', b],
    ] as const) {
      t.test(`trusted by ${name}: an X-Forwarded-For the client made up cannot rotate its address`, async (t) => {
        const client = n === a ? '203.0.113.4' : '203.0.113.5'
        const logins = []
        for (let i = 0; i < 30; i++) {
          logins.push(
            await n.post('/dashboard/login', { email: `spoof${i}@example.com`, password: 'password123456' }, via(client, `10.0.${i}.1`)),
          )
        }
        t.equal(count(logins, 400), 20, '20 failed logins from the client address, whatever it claimed')
        t.equal(count(logins, 429), 10)
        const signups = []
        for (let i = 0; i < 15; i++)
          signups.push(
            await n.post('/dashboard/signup', { email: `spoof${i}@example.com`, password: PASSWORD }, via(client, `10.1.${i}.1`)),
          )
        t.equal(count(signups, 200), 10, '10 sign-ups from the client address, whatever it claimed')
        t.equal(count(signups, 429), 5)
        t.equal(await attemptsOf(`ip:${client}`), 20, 'counted under the address the proxy saw')
        const made = await a.database.db.select().from(loginAttempts)
        t.notOk(
          made.some((r) => r.key.includes(':10.')),
          'never under an address the client made up',
        )
      })
    }
  })
}
