// Small things a careful client or operator notices: the reset named near midnight, nosniff on
// every answer, and database errors logged without the values of their statements.
import t from 'tap'
import { Writable } from 'node:stream'
import { buildTestApp, englishText } from '../helpers/app.ts'
import { buildApp, loggerOptions } from '../../src/app.ts'
import { loadConfig } from '../../src/config.ts'
import { openDatabase } from '../../src/db/client.ts'
import { createRepositories } from '../../src/db/repositories/index.ts'
import { createAccount } from '../../src/domain/accounts.ts'
import { createToken } from '../../src/domain/tokens.ts'
import { hashToken } from '../../src/domain/token-format.ts'
import { migratedPgliteImage } from '../helpers/databases.ts'

/** 23:59:59.950 UTC for the first reading, then just past midnight: a request that straddles it. */
function straddlingClock() {
  let calls = 0
  const clock = () => new Date(calls++ === 0 ? '2026-11-22T23:59:59.950Z' : '2026-11-23T00:00:00.020Z')
  clock.reset = () => {
    calls = 0
  }
  return clock
}

t.test('X-RateLimit-Reset and resetAt name the end of the day whose count they report', async (t) => {
  const clock = straddlingClock()
  const h = await buildTestApp(t, { clock })
  const { account, token } = await h.account('free')
  for (let i = 0; i < 7; i++) await h.repos.usage.reserve(account.id, '2026-11-22', 100)
  const endOf22 = String(Date.parse('2026-11-23T00:00:00Z') / 1000)
  const auth = { authorization: `Bearer ${token}` }

  clock.reset()
  const q = await h.app.inject({ url: '/v1/quota', headers: auth })
  t.equal(q.statusCode, 200)
  t.same(q.json().daily, { limit: 100, used: 7, remaining: 93 }, "the 22nd's count, read at 23:59:59.950")
  t.equal(q.json().resetAt, '2026-11-23T00:00:00Z', 'resets at the end of the 22nd')
  t.equal(q.headers['x-ratelimit-remaining'], '93')
  t.equal(q.headers['x-ratelimit-reset'], endOf22, 'the header names the same midnight, not the next one')

  clock.reset()
  const bad = await h.app.inject({ method: 'POST', url: '/v1/analyze', headers: auth, payload: { text: 'too short' } })
  t.equal(bad.statusCode, 400)
  t.equal(bad.headers['x-ratelimit-remaining'], '93')
  t.equal(bad.headers['x-ratelimit-reset'], endOf22, 'an error answer too')
})

t.test('/v1, /docs and the rest carry X-Content-Type-Options: nosniff', async (t) => {
  const h = await buildTestApp(t)
  const { token } = await h.account('free')
  const auth = { authorization: `Bearer ${token}` }
  const responses = {
    'GET /v1/quota': await h.app.inject({ url: '/v1/quota', headers: auth }),
    'POST /v1/analyze': await h.app.inject({ method: 'POST', url: '/v1/analyze', headers: auth, payload: { text: englishText(1) } }),
    'a 401': await h.app.inject({ url: '/v1/quota' }),
    'a 400': await h.app.inject({ method: 'POST', url: '/v1/analyze', headers: auth, payload: '{' }),
    'a 404': await h.app.inject({ url: '/v1/nothing' }),
    'GET /docs': await h.app.inject({ url: '/docs' }),
    'GET /docs/': await h.app.inject({ url: '/docs/' }),
    'GET /docs/json': await h.app.inject({ url: '/docs/json' }),
    'GET /healthz': await h.app.inject({ url: '/healthz' }),
  }
  for (const [name, res] of Object.entries(responses))
    t.equal(res.headers['x-content-type-options'], 'nosniff', `${name} (${res.statusCode})`)
})

t.test('a database error is logged without its statement values (emails, token hashes)', async (t) => {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk))
      done()
    },
  })
  const database = await openDatabase({ dataDir: 'memory://', memoryImage: await migratedPgliteImage() })
  const config = loadConfig({ LOG_LEVEL: 'info', ANALYSIS_WORKERS: '0' })
  const app = await buildApp({ config, database, logger: { ...(loggerOptions('info') as object), stream } })
  t.teardown(() => app.close())
  await app.ready()
  const deps = { repos: createRepositories(database.db), clock: () => new Date(), tokenPrefix: config.tokenPrefix }
  const account = await createAccount(deps, { email: 'someone@example.com', plan: 'free' })
  const { token } = await createToken(deps, account.id, 'logged')
  const login = await app.inject({ url: '/dashboard/login' })
  const csrf = /name="_csrf" value="([^"]*)"/.exec(login.body)![1]
  const cookie = String(login.headers['set-cookie']).split(';')[0]
  // Every statement from now on fails: the database is gone.
  await database.close()

  const api = await app.inject({ url: '/v1/quota', headers: { authorization: `Bearer ${token}` } })
  t.ok(api.statusCode >= 500, `the API answers ${api.statusCode}`)
  const form = await app.inject({
    method: 'POST',
    url: '/dashboard/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    payload: new URLSearchParams({ _csrf: csrf, email: 'someone@example.com', password: 'not the password' }).toString(),
  })
  t.ok(form.statusCode >= 500, `the dashboard answers ${form.statusCode}`)

  const errors = lines.filter((l) => /"err"/.test(l))
  t.ok(errors.length >= 2, 'both failures were logged with their error')
  t.ok(
    errors.some((l) => l.includes('Failed query')),
    'the failed statement is named',
  )
  const logged = lines.join('')
  t.notOk(logged.includes(hashToken(token)), 'no token hash')
  t.notOk(logged.includes('someone@example.com'), 'no email')
  t.notOk(logged.includes(token), 'no token')
})
