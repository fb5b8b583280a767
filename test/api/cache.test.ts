import t from 'tap'
import { sql } from 'drizzle-orm'
import { buildTestApp, englishText, manualClock, openTestDatabase, DRIVERS } from '../helpers/app.ts'

for (const driver of DRIVERS) {
  t.test(`the shared cache level: another node (or a restarted one) hits; 24 hours from the first analysis (${driver})`, async (t) => {
    const clock = manualClock(new Date('2026-11-22T08:00:00Z'))
    const { database } = await openTestDatabase(t, driver)
    const a = await buildTestApp(t, { database, clock })
    const b = await buildTestApp(t, { database, clock, config: { cacheMaxBytes: 0 } })
    const { token } = await a.account('pro')
    const send = (h: typeof a) =>
      h.app.inject({
        method: 'POST',
        url: '/v1/analyze',
        headers: { authorization: `Bearer ${token}` },
        payload: { text: englishText(11) },
      })

    t.equal((await send(a)).json().meta.cached, false)
    t.equal((await send(b)).json().meta.cached, true, 'a second app on the same database hits')

    clock.advance(23 * 3600 * 1000)
    t.equal((await send(a)).json().meta.cached, true, 'still cached after 23 h')
    t.equal((await send(b)).json().meta.cached, true)
    clock.advance(3600 * 1000)
    t.equal((await send(a)).json().meta.cached, false, '24 h after the first analysis it is analysed afresh (hits do not extend it)')
    t.equal((await send(b)).json().meta.cached, true, 'and the fresh analysis starts a new 24 h')

    const rows = await a.database.db.execute(sql`select key, payload from analysis_cache`)
    const list = (Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as { key: string; payload: string }[]
    t.equal(list.length, 1)
    const stored = JSON.stringify(list)
    for (const fragment of ['Tim Cook', 'Cupertino', 'Apple', 'chief executive'])
      t.notOk(stored.includes(fragment), `"${fragment}" is not stored readably`)
    t.notOk(Buffer.from(list[0].payload, 'base64').toString('latin1').includes('Cupertino'), 'the payload is encrypted')

    clock.advance(25 * 3600 * 1000)
    t.equal(await a.app.analysisCache.prune(), 1, 'expired rows are pruned')
  })

  t.test(`cached results are kept per model: a node with another model neither reads nor is read by them (${driver})`, async (t) => {
    const { database } = await openTestDatabase(t, driver)
    const older = await buildTestApp(t, { database, config: { cacheMaxBytes: 0 } })
    const newer = await buildTestApp(t, { database, config: { cacheMaxBytes: 0 } })
    newer.app.analysis.deps.model = `${older.app.analysis.deps.model}-next`
    const { token } = await older.account('pro')
    const send = (h: typeof older) =>
      h.app.inject({
        method: 'POST',
        url: '/v1/analyze',
        headers: { authorization: `Bearer ${token}` },
        payload: { text: englishText(12) },
      })

    t.equal((await send(older)).json().meta.cached, false)
    t.equal((await send(newer)).json().meta.cached, false, "the other model's result is not served")
    t.equal((await send(newer)).json().meta.cached, true, 'its own is')
    t.equal((await send(older)).json().meta.cached, true, 'and the first model still finds its own')
    const rows = await older.database.db.execute(sql`select count(*)::int as n from analysis_cache`)
    t.equal(((Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as { n: number }[])[0].n, 2, 'one entry per model')
  })
}

t.test('tokens and submitted text never reach the logs', async (t) => {
  const lines: string[] = []
  const { Writable } = await import('node:stream')
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(String(chunk))
      cb()
    },
  })
  const { database } = await openTestDatabase(t, 'pglite')
  const { buildApp, loggerOptions } = await import('../../src/app.ts')
  const { loadConfig } = await import('../../src/config.ts')
  const app = await buildApp({ config: loadConfig({}), database, logger: { ...(loggerOptions('trace') as object), stream } })
  t.teardown(() => app.close())
  const h = await buildTestApp(t, { database })
  const { token } = await h.account('free')
  const text = englishText(12).replace('Tim Cook', 'Zebulon Quartermain')
  await app.inject({
    method: 'POST',
    url: '/v1/analyze?debug=1',
    headers: { authorization: `Bearer ${token}`, cookie: 'sid=s3cret' },
    payload: { text },
  })
  await app.inject({
    method: 'POST',
    url: '/v1/analyze',
    headers: { authorization: `Bearer ${token}` },
    payload: '{"text": "Zebulon Quartermain broken',
  })
  await app.inject({ method: 'GET', url: '/v1/quota', headers: { authorization: token } })
  const log = lines.join('')
  t.ok(log.length > 0, 'something was logged')
  t.match(log, /request completed/)
  t.notOk(log.includes(token), 'no token')
  t.notOk(log.includes(token.slice(9, 30)), 'no part of a token')
  t.notOk(log.includes('Zebulon') || log.includes('Quartermain'), 'no submitted text')
  t.notOk(log.includes('s3cret'), 'no cookie')
})

t.test('a cache hit answers the same body as the analysis it came from, for every combination of options', async (t) => {
  const h = await buildTestApp(t)
  const { token } = await h.account('pro')
  const text = englishText(13)
  const send = (options?: Record<string, unknown>) =>
    h.app.inject({
      method: 'POST',
      url: '/v1/analyze',
      headers: { authorization: `Bearer ${token}` },
      payload: options ? { text, options } : { text },
    })
  const first = await send()
  t.equal(first.statusCode, 200)
  t.match(first.headers['content-type'], /^application\/json; charset=utf-8$/)
  const fresh = first.json()
  t.equal(fresh.meta.cached, false)
  t.ok(fresh.relations.length > 0 && fresh.entities.locations.length > 1, 'the text has relations and several locations')
  for (let round = 0; round < 2; round++) {
    // The second round is served from the response text the first round kept on the entry.
    const hit = await send()
    t.equal(hit.statusCode, 200)
    t.match(hit.headers['content-type'], /^application\/json; charset=utf-8$/)
    const body = hit.json()
    t.equal(body.meta.cached, true)
    t.same(
      { entities: body.entities, relations: body.relations },
      { entities: fresh.entities, relations: fresh.relations },
      `hit ${round + 1}: same entities and relations`,
    )
    t.same(Object.keys(body), ['entities', 'relations', 'meta'])
    t.same(Object.keys(body.meta), ['model', 'language', 'processingMs', 'cached'])
  }
  const trimmed = (await send({ maxEntitiesPerType: 1, includeEvidence: false })).json()
  t.equal(trimmed.meta.cached, true)
  t.same(trimmed.entities.locations, fresh.entities.locations.slice(0, 1), 'options still apply to a hit')
  t.ok(
    trimmed.relations.every((r: Record<string, unknown>) => !('evidence' in r)),
    'no evidence when it was turned off',
  )
  const again = (await send()).json()
  t.same(again.relations, fresh.relations, 'and a default request after it is not affected by them')
  t.equal(
    (await send({ maxEntitiesPerType: 50, includeEvidence: true })).json().relations.length,
    fresh.relations.length,
    'explicit defaults equal the defaults',
  )
  const detailed = (await send({ include: ['mentions'] })).json()
  t.same(Object.keys(detailed), ['entities', 'relations', 'entityDetails', 'meta'], 'the kept default text is not the detailed answer')
  t.same(detailed.entities, fresh.entities)
  t.same((await send()).json().relations, fresh.relations, 'nor does the detailed answer change the default one')
})
