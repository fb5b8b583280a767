// The route table's compiled 200 serializer (`compiledResponses`), on stub plugins in place of
// the ones the table depends on.
import t from 'tap'
import Fastify from 'fastify'
import fp from 'fastify-plugin'
import openapiRoutes from '../../src/plugins/app/openapi-routes.ts'
import type { OperationHandlers } from '../../src/openapi.ts'

async function appWith(compiledResponses: ('getQuota' | 'getHealth')[]) {
  const app = Fastify({ logger: false })
  await app.register(
    fp(
      async (app) => {
        app.decorate('requireToken', async () => {})
        app.decorate('verifyDeferredToken', async () => {})
      },
      { name: 'auth' },
    ),
  )
  await app.register(
    fp(
      async (app) => {
        app.decorate('limitRate', () => {})
      },
      { name: 'rate-limit' },
    ),
  )
  await app.register(fp(async () => {}, { name: 'errors' }))
  const quota = { plan: 'pro', daily: { limit: 10000, used: 7, remaining: 9993 }, resetAt: '2026-11-28T00:00:00Z' }
  const handlers = {
    // One field more than the spec's Quota has: the compiled serializer writes the schema's fields only.
    getQuota: async () => ({ ...quota, extra: 'not in the spec' }),
    getHealth: async () => ({ status: 'ok', extra: 'not in the spec' }),
    getReadiness: async () => ({ status: 'ok' }),
    getMetrics: async () => '',
    analyzeText: async () => ({}),
  } as unknown as OperationHandlers
  await app.register(openapiRoutes, { handlers, compiledResponses })
  t.teardown(() => app.close())
  return { app, quota }
}

t.test("a listed operation's 200 body is written from the spec's schema", async (t) => {
  const { app, quota } = await appWith(['getQuota'])
  const res = await app.inject({ url: '/v1/quota' })
  t.equal(res.statusCode, 200)
  t.match(res.headers['content-type'], /^application\/json/)
  t.same(JSON.parse(res.body), quota, 'the fields of Quota, in order, nothing else')
  t.equal(res.body, JSON.stringify(quota), 'the same text JSON.stringify writes for the same fields')
})

t.test('an operation not listed is serialised as it is', async (t) => {
  const { app } = await appWith(['getQuota'])
  const res = await app.inject({ url: '/healthz' })
  t.same(JSON.parse(res.body), { status: 'ok', extra: 'not in the spec' })
  const plain = (await appWith([])).app
  t.match(JSON.parse((await plain.inject({ url: '/v1/quota' })).body), { extra: 'not in the spec' }, 'getQuota unlisted')
})
