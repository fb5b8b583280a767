// Three nodes on one PostgreSQL database, each with its own connection pool and its own
// in-process cache, each on a real loopback port: everything one node needs from another is
// in the database. Needs TEST_DATABASE_URL (a PostgreSQL server); .ci/run sets it.
import t from 'tap'
import { buildTestApp, englishText, freshPostgresUrl, manualClock } from '../helpers/app.ts'
import { openDatabase } from '../../src/db/client.ts'
import { revokeToken } from '../../src/domain/tokens.ts'
import { changePlan } from '../../src/domain/billing.ts'

const skip = process.env.TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set: the many-nodes test needs a PostgreSQL server'

t.test('three nodes on one database', { skip }, async (t) => {
  const { url, drop } = await freshPostgresUrl()
  t.teardown(drop)
  const nodes: { h: Awaited<ReturnType<typeof buildTestApp>>; base: string }[] = []
  // One fixed instant (noon) for every node: counts land on one UTC day whenever the test runs.
  const clock = manualClock()
  const day = '2026-11-22'
  for (let i = 0; i < 3; i++) {
    const database = await openDatabase({ databaseUrl: url, dataDir: 'unused', maxConnections: 10 })
    const h = await buildTestApp(t, { database, clock })
    t.teardown(() => database.close())
    await h.app.listen({ port: 0, host: '127.0.0.1' })
    nodes.push({ h, base: `http://127.0.0.1:${(h.app.server.address() as { port: number }).port}` })
  }
  t.equal(new Set(nodes.map((n) => n.base)).size, 3, 'three listening nodes')
  const [a, b, c] = nodes

  const call = async (node: (typeof nodes)[number], token: string, path: string, text?: string) => {
    const res = await fetch(node.base + path, {
      method: text === undefined ? 'GET' : 'POST',
      headers: { authorization: `Bearer ${token}`, ...(text === undefined ? {} : { 'content-type': 'application/json' }) },
      body: text === undefined ? undefined : JSON.stringify({ text }),
    })
    return { status: res.status, body: await res.json(), headers: res.headers }
  }

  t.test('the quota stays exact under concurrent load spread over the nodes', async (t) => {
    const { account, token } = await a.h.account('free')
    for (let i = 0; i < 10; i++) await a.h.repos.usage.reserve(account.id, day, 100)
    // 150 concurrent requests round-robin over the three nodes against 90 remaining; some texts
    // repeat, so cached answers (which count too) mix with fresh analyses.
    const results = await Promise.all(Array.from({ length: 150 }, (_, i) => call(nodes[i % 3], token, '/v1/analyze', englishText(i % 40))))
    const codes = results.map((r) => r.status)
    t.equal(codes.filter((s) => s === 200).length, 90, 'exactly the 90 remaining succeed')
    t.equal(codes.filter((s) => s === 429).length, 60, 'the other 60 are refused with 429')
    t.equal(await b.h.repos.usage.usedOn(account.id, day), 100, 'the shared counter ends exactly at the limit')
    for (const n of nodes)
      t.same((await call(n, token, '/v1/quota')).body.daily, { limit: 100, used: 100, remaining: 0 }, `${n.base} agrees`)
  })

  t.test('a text analysed on one node is a cache hit on the others', async (t) => {
    const { token } = await a.h.account('free')
    const text = englishText(4242)
    const first = await call(a, token, '/v1/analyze', text)
    t.equal(first.status, 200)
    t.equal(first.body.meta.cached, false, 'analysed on node A')
    for (const n of [b, c]) {
      const again = await call(n, token, '/v1/analyze', text)
      t.equal(again.status, 200)
      t.equal(again.body.meta.cached, true, `a cache hit on ${n.base}`)
      t.same(again.body.entities, first.body.entities)
    }
  })

  t.test('a token revoked through one node is refused by every node at once', async (t) => {
    const { token, tokenId } = await a.h.account('free')
    for (const n of nodes) t.equal((await call(n, token, '/v1/quota')).status, 200)
    await revokeToken({ repos: a.h.repos, clock: () => new Date(), tokenPrefix: 'tea_live_' }, tokenId)
    for (const n of nodes) {
      const res = await call(n, token, '/v1/quota')
      t.equal(res.status, 401, `refused by ${n.base}`)
      t.equal(res.body.code, 'INVALID_TOKEN')
      t.equal((await call(n, token, '/v1/analyze', englishText(1))).status, 401)
    }
  })

  t.test('a plan upgrade is seen by every node at once', async (t) => {
    const { account, token } = await a.h.account('free')
    for (let i = 0; i < 100; i++) await a.h.repos.usage.reserve(account.id, day, 100)
    for (const n of nodes) t.equal((await call(n, token, '/v1/analyze', englishText(7))).status, 429)
    await changePlan({ repos: c.h.repos, clock }, account.id, 'starter')
    for (const n of nodes) {
      const q = await call(n, token, '/v1/quota')
      t.equal(q.body.plan, 'starter', `${n.base} sees the new plan`)
      t.equal(q.body.daily.limit, 1000)
    }
    const res = await call(b, token, '/v1/analyze', englishText(8))
    t.equal(res.status, 200, 'the next call succeeds on any node')
    t.equal(res.headers.get('x-ratelimit-remaining'), '899')
  })
})
