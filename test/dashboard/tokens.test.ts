// Tokens page: create (shown once), list, revoke with confirmation (immediate for the API),
// the plan's token limit, ownership, escaping.
import t from 'tap'
import { buildTestApp, DRIVERS, manualClock } from '../helpers/app.ts'
import { DashboardClient, text } from './client.ts'

const tokenIn = (body: string) => /id="new-token" type="text" readonly value="(tea_live_[0-9A-Za-z]{38})"/.exec(body)?.[1]

for (const driver of DRIVERS) {
  t.test(`[${driver}] create a token: shown once, works on the API, listed with its details`, async (t) => {
    const { app } = await buildTestApp(t, { driver, clock: manualClock() })
    const c = new DashboardClient(app)
    await c.newAccount('tokens@example.com')
    const created = await c.post('/dashboard/tokens', { name: 'production server' })
    t.equal(created.status, 201)
    const token = tokenIn(created.body)
    t.ok(token, 'the plain token is on the page')
    t.match(text(created.body), /Copy it now: it cannot be shown again/)
    t.match(created.body, /<button type="button" data-copy="new-token"[^>]*>Copy<\/button>/, 'a copy button')
    t.match(created.body, /<label for="new-token">New token<\/label>/)

    const quota = await app.inject({ url: '/v1/quota', headers: { authorization: `Bearer ${token}` } })
    t.equal(quota.statusCode, 200, 'the token works on the API')
    t.equal(quota.json().plan, 'free')

    const list = await c.get('/dashboard/tokens')
    t.equal(list.status, 200)
    t.notOk(list.body.includes(token!), 'never shown again')
    const row = /<tr data-token-id="[^"]+">([\s\S]*?)<\/tr>/.exec(list.body)![1]
    t.match(
      text(row),
      new RegExp(`production server ${token!.slice(0, 13)}… 2026-11-22 12:00 UTC 2026-11-22 12:00 UTC valid Revoke`),
      'name, preview, created, last used, status',
    )
  })

  t.test(`[${driver}] revoke: confirmation first, then immediately refused by the API`, async (t) => {
    const { app } = await buildTestApp(t, { driver, clock: manualClock() })
    const c = new DashboardClient(app)
    await c.newAccount('revoke@example.com')
    const token = tokenIn((await c.post('/dashboard/tokens', { name: 'to revoke' })).body)!
    const auth = { authorization: `Bearer ${token}` }
    t.equal((await app.inject({ url: '/v1/quota', headers: auth })).statusCode, 200)
    const id = /data-token-id="([^"]+)"/.exec((await c.get('/dashboard/tokens')).body)![1]

    const confirm = await c.get(`/dashboard/tokens/${id}/revoke`)
    t.equal(confirm.status, 200)
    t.match(text(confirm.body), /Revoke token “to revoke”\?/)
    t.match(text(confirm.body), /cannot be undone/)
    t.match(confirm.body, /<button type="submit" class="danger" autofocus>Revoke<\/button>/)
    t.equal((await app.inject({ url: '/v1/quota', headers: auth })).statusCode, 200, 'viewing the confirmation changes nothing')

    const done = await c.post(`/dashboard/tokens/${id}/revoke`)
    t.equal(done.status, 303)
    t.equal(done.location, '/dashboard/tokens?notice=revoked')
    const api = await app.inject({ url: '/v1/quota', headers: auth })
    t.equal(api.statusCode, 401, 'the API refuses it at once')
    t.equal(api.json().code, 'INVALID_TOKEN')
    const list = await c.get('/dashboard/tokens?notice=revoked')
    t.match(text(list.body), /Token revoked\. API calls with it are refused \(401\)/)
    t.match(text(list.body), /to revoke tea_live_\S+… .* revoked 2026-11-22 12:00 UTC/)
    t.notMatch(list.body, /<button[^>]*>Revoke<\/button>/, 'no revoke button for a revoked token')

    const twice = await c.post(`/dashboard/tokens/${id}/revoke`)
    t.equal(twice.status, 409)
    t.match(text(twice.body), /revocation is permanent/)
  })

  t.test(`[${driver}] the plan's token limit is enforced with a clear message`, async (t) => {
    const { app } = await buildTestApp(t, { driver, clock: manualClock() })
    const c = new DashboardClient(app)
    await c.newAccount('limit@example.com')
    for (let i = 1; i <= 3; i++) t.equal((await c.post('/dashboard/tokens', { name: `t${i}` })).status, 201, `token ${i}`)
    const over = await c.post('/dashboard/tokens', { name: 'fourth' })
    t.equal(over.status, 409)
    t.match(text(over.body), /The free plan allows 3 active tokens and this account has 3; revoke one or upgrade the plan/)
    t.notOk(tokenIn(over.body))
    t.match(over.body, /value="fourth"/, 'the typed name is kept')
    // Revoking one frees a place.
    const id = /data-token-id="([^"]+)"/.exec((await c.get('/dashboard/tokens')).body)![1]
    await c.get(`/dashboard/tokens/${id}/revoke`)
    await c.post(`/dashboard/tokens/${id}/revoke`)
    await c.get('/dashboard/tokens')
    t.equal((await c.post('/dashboard/tokens', { name: 'fourth' })).status, 201)
    const empty = await c.post('/dashboard/tokens', { name: '   ' })
    t.equal(empty.status, 400)
    t.match(text(empty.body), /A token name must have 1 to 100 characters/)
  })

  t.test(`[${driver}] nobody can see or revoke another account's token`, async (t) => {
    const { app, repos } = await buildTestApp(t, { driver })
    const owner = new DashboardClient(app)
    await owner.newAccount('owner@example.com')
    await owner.post('/dashboard/tokens', { name: 'mine' })
    const id = /data-token-id="([^"]+)"/.exec((await owner.get('/dashboard/tokens')).body)![1]
    const intruder = new DashboardClient(app)
    await intruder.newAccount('intruder@example.com')
    t.equal((await intruder.get(`/dashboard/tokens/${id}/revoke`)).status, 404)
    const r = await intruder.post(`/dashboard/tokens/${id}/revoke`)
    t.equal(r.status, 404)
    t.match(text(r.body), /No token with id/)
    t.notOk((await repos.tokens.findById(id)).revokedAt, 'still valid')
    t.notMatch((await intruder.get('/dashboard/tokens')).body, /mine/)
    t.equal((await intruder.get('/dashboard/tokens/not-a-uuid/revoke')).status, 404)
  })
}

t.test('names are escaped: no markup from a token name reaches the page', async (t) => {
  const { app } = await buildTestApp(t)
  const c = new DashboardClient(app)
  await c.newAccount('xss@example.com')
  const evil = '<script>alert(1)</script>"><img src=x onerror=alert(2)>'
  const created = await c.post('/dashboard/tokens', { name: evil })
  t.equal(created.status, 201)
  const list = await c.get('/dashboard/tokens')
  for (const body of [created.body, list.body]) {
    t.notOk(body.includes('<script>alert'), 'no script tag')
    t.notOk(body.includes('<img src=x'), 'no img tag')
    t.ok(body.includes('&lt;script&gt;alert(1)&lt;/script&gt;&quot;&gt;&lt;img src=x onerror=alert(2)&gt;'))
  }
})
