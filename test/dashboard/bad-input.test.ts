// Input the database's types cannot hold, and a database that does not answer: clear 4xx pages
// and a 503, never a 500.
import t from 'tap'
import { createConnection, createServer, type Socket } from 'node:net'
import { buildTestApp, DRIVERS, freshPostgresUrl, manualClock } from '../helpers/app.ts'
import { openDatabase } from '../../src/db/client.ts'
import { DashboardClient, text } from './client.ts'

for (const driver of DRIVERS) {
  t.test(`[${driver}] a NUL or other control character in an email is a 400 page`, async (t) => {
    const { app, database } = await buildTestApp(t, { driver, clock: manualClock() })
    const c = new DashboardClient(app)
    for (const email of ['a\u0000b@example.com', 'nul@example.com\u0000', 'tab\u0007@example.com']) {
      const signup = await c.signUp(email)
      t.equal(signup.status, 400, `sign-up ${JSON.stringify(email)}`)
      t.match(text(signup.body), /is not an email address/)
      t.notOk(signup.body.includes('\u0000'), 'the page never carries the NUL back')
      const login = await c.logIn(email)
      t.equal(login.status, 400, `login ${JSON.stringify(email)}`)
      t.match(text(login.body), /is not an email address/)
      t.notOk(c.cookies.has('tea_session'))
    }
    t.equal((await database.db.query.accounts.findMany()).length, 0, 'no account was made')
  })

  t.test(`[${driver}] token ids that are no UUID and token names with a NUL`, async (t) => {
    const { app } = await buildTestApp(t, { driver, clock: manualClock() })
    const c = new DashboardClient(app)
    await c.newAccount('ids@example.com')
    for (const id of [
      '------------------------------------',
      'ffffffffffffffffffffffffffffffffffff',
      'g0000000-0000-0000-0000-000000000000',
    ]) {
      t.equal(id.length, 36)
      const confirm = await c.get(`/dashboard/tokens/${id}/revoke`)
      t.equal(confirm.status, 404, `confirm page for ${id}`)
      await c.get('/dashboard/tokens')
      const revoke = await c.post(`/dashboard/tokens/${id}/revoke`)
      t.equal(revoke.status, 404, `revoke ${id}`)
      t.match(text(revoke.body), /No token with id/)
    }
    await c.get('/dashboard/tokens')
    const named = await c.post('/dashboard/tokens', { name: 'laptop\u0000' })
    t.equal(named.status, 400)
    t.match(text(named.body), /A token name may not contain control characters/)
  })
}

/** A TCP relay in front of PostgreSQL that the test can cut, as a network failure would. */
async function relay(target: URL) {
  const sockets = new Set<Socket>()
  let open = true
  const server = createServer((client) => {
    if (!open) return client.destroy()
    const upstream = createConnection({ host: target.hostname, port: Number(target.port || 5432) })
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('close', () => sockets.delete(s))
      s.on('error', () => {})
    }
    client.pipe(upstream).pipe(client)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    port: (server.address() as { port: number }).port,
    /** Every connection dropped and new ones refused. */
    cut: async () => {
      open = false
      for (const s of sockets) s.destroy()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

t.test(
  'while the database does not answer, the dashboard answers 503, not 500',
  { skip: process.env.TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL' },
  async (t) => {
    const { url, drop } = await freshPostgresUrl()
    t.teardown(drop)
    const target = new URL(url)
    const r = await relay(target)
    const viaRelay = new URL(url)
    viaRelay.host = `127.0.0.1:${r.port}`
    const database = await openDatabase({ databaseUrl: viaRelay.toString(), dataDir: 'unused', maxConnections: 4 })
    t.teardown(() => database.close())
    const { app } = await buildTestApp(t, { database, clock: manualClock() })
    const c = new DashboardClient(app)
    await c.newAccount('down@example.com')
    const anonymous = new DashboardClient(app)
    await anonymous.get('/dashboard/login')
    await r.cut()
    for (const [name, call] of [
      ['overview (session look-up)', () => c.get('/dashboard')],
      ['tokens page', () => c.get('/dashboard/tokens')],
      ['login', () => anonymous.post('/dashboard/login', { email: 'down@example.com', password: 'whatever password' })],
      ['sign-up', () => anonymous.post('/dashboard/signup', { email: 'new@example.com', password: 'whatever password' })],
    ] as const) {
      const res = await call()
      t.equal(res.status, 503, name)
      t.equal(res.headers['retry-after'], '5', `${name}: Retry-After`)
      t.match(text(res.body), /cannot reach its database/, name)
    }
  },
)
