import t from 'tap'
import { buildTestApp, englishText, DRIVERS } from '../helpers/app.ts'
import { RELATION_TYPES } from '../../src/nlp/types.ts'

for (const driver of DRIVERS) {
  t.test(`POST /v1/analyze (${driver})`, async (t) => {
    const h = await buildTestApp(t, { driver })
    const { token } = await h.account('free')
    const auth = { authorization: `Bearer ${token}` }

    const first = await h.app.inject({ method: 'POST', url: '/v1/analyze', headers: auth, payload: { text: englishText(1) } })
    t.equal(first.statusCode, 200)
    const body = first.json()
    t.same(Object.keys(body).sort(), ['entities', 'meta', 'relations'], 'exactly the spec fields')
    t.same(Object.keys(body.entities).sort(), ['locations', 'objects', 'organizations', 'persons'])
    t.equal(body.meta.cached, false)
    t.equal(body.meta.language, 'en')
    t.match(body.meta.model, /^tea-extract-\d+\.\d+\.\d+$/)
    t.ok(body.meta.processingMs >= 0)
    t.ok(
      body.entities.persons.some((p: string) => /Cook/.test(p)),
      'finds the person',
    )
    t.ok(body.entities.locations.includes('Cupertino') || body.entities.locations.includes('California'), 'finds a location')
    const names = new Set(Object.values(body.entities).flat())
    for (const r of body.relations) {
      t.ok(names.has(r.source) && names.has(r.target), `relation ${r.source} → ${r.target} uses listed names`)
      t.ok(RELATION_TYPES.includes(r.type))
      t.type(r.evidence, 'string', 'evidence included by default')
      t.ok(englishText(1).includes(r.evidence), 'evidence is an excerpt of the input')
    }
    t.equal(first.headers['x-ratelimit-limit'], '100')
    t.equal(first.headers['x-ratelimit-remaining'], '99')
    t.match(first.headers['x-request-id'], /^req-/)

    const second = await h.app.inject({ method: 'POST', url: '/v1/analyze', headers: auth, payload: { text: englishText(1) } })
    t.equal(second.statusCode, 200)
    t.equal(second.json().meta.cached, true, 'identical text is served from the cache')
    t.same(second.json().entities, body.entities, 'the cached result is the same analysis')
    t.equal(second.headers['x-ratelimit-remaining'], '98', 'cached answers count')
  })
}

t.test('options are applied after the cache', async (t) => {
  const h = await buildTestApp(t)
  const { token } = await h.account('free')
  const auth = { authorization: `Bearer ${token}` }
  const full = (await h.app.inject({ method: 'POST', url: '/v1/analyze', headers: auth, payload: { text: englishText(2) } })).json()
  const cut = await h.app.inject({
    method: 'POST',
    url: '/v1/analyze',
    headers: auth,
    payload: { text: englishText(2), options: { maxEntitiesPerType: 1, includeEvidence: false } },
  })
  const b = cut.json()
  t.equal(b.meta.cached, true)
  for (const type of ['persons', 'organizations', 'locations', 'objects']) {
    t.same(b.entities[type], full.entities[type].slice(0, 1), `${type} cut to 1, most salient first`)
  }
  const kept = new Set(Object.values(b.entities).flat())
  for (const r of b.relations) {
    t.notOk('evidence' in r, 'evidence omitted when includeEvidence is false')
    t.ok(kept.has(r.source) && kept.has(r.target), 'relations of cut entities are dropped')
  }
  const expected = full.relations.filter((r: any) => kept.has(r.source) && kept.has(r.target)).length
  t.equal(b.relations.length, expected, 'every relation between kept entities stays')
})

t.test('the cache is per account and per languageHint', async (t) => {
  const h = await buildTestApp(t)
  const a = await h.account('free')
  const b = await h.account('free')
  const send = (token: string, payload: object) =>
    h.app.inject({ method: 'POST', url: '/v1/analyze', headers: { authorization: `Bearer ${token}` }, payload })
  t.equal((await send(a.token, { text: englishText(3) })).json().meta.cached, false)
  t.equal((await send(b.token, { text: englishText(3) })).json().meta.cached, false, 'another account does not see the entry')
  t.equal(
    (await send(a.token, { text: englishText(3), options: { languageHint: 'en' } })).json().meta.cached,
    false,
    'a hint changes the key',
  )
  t.equal((await send(a.token, { text: englishText(3), options: { languageHint: 'en' } })).json().meta.cached, true)
})

t.test('languageHint overrides detection; other languages are 400 and not counted', async (t) => {
  const h = await buildTestApp(t)
  const { token } = await h.account('free')
  const auth = { authorization: `Bearer ${token}` }
  const de = await h.app.inject({
    method: 'POST',
    url: '/v1/analyze',
    headers: auth,
    payload: { text: englishText(4), options: { languageHint: 'de' } },
  })
  t.equal(de.statusCode, 400)
  t.same(de.json(), { error: 'Bad Request', code: 'UNSUPPORTED_LANGUAGE', message: 'Language "de" is not supported (supported: en)' })
  const german =
    'Die Bundesregierung hat am Mittwoch in Berlin einen neuen Gesetzentwurf vorgestellt, der die Förderung erneuerbarer Energien ' +
    'deutlich ausweiten soll. Nach Angaben des Ministeriums sollen die Mittel in den kommenden Jahren schrittweise steigen.'
  const detected = await h.app.inject({ method: 'POST', url: '/v1/analyze', headers: auth, payload: { text: german } })
  t.equal(detected.statusCode, 400)
  t.equal(detected.json().code, 'UNSUPPORTED_LANGUAGE')
  t.match(detected.json().message, /^Language "de" is not supported/)
  const quota = (await h.app.inject({ url: '/v1/quota', headers: auth })).json()
  t.equal(quota.daily.used, 0, 'unsupported languages are not counted')
  const en = await h.app.inject({
    method: 'POST',
    url: '/v1/analyze',
    headers: auth,
    payload: { text: englishText(4), options: { languageHint: 'en' } },
  })
  t.equal(en.json().meta.language, 'en')
})

t.test('an analysis that fails is a 500 with a request id, no internals, and is refunded', async (t) => {
  const h = await buildTestApp(t, {
    analyzer: {
      analyze: async () => {
        throw new Error('secret internal detail at /srv/model.bin')
      },
      ready: () => true,
      close: async () => {},
    },
  })
  const { token } = await h.account('free')
  const auth = { authorization: `Bearer ${token}`, 'x-request-id': 'trace-42' }
  const res = await h.app.inject({ method: 'POST', url: '/v1/analyze', headers: auth, payload: { text: englishText(5) } })
  t.equal(res.statusCode, 500)
  t.same(res.json(), {
    error: 'Internal Server Error',
    code: 'INTERNAL_ERROR',
    message: 'An unexpected error occurred; quote request id trace-42 when reporting it',
    requestId: 'trace-42',
  })
  t.notMatch(res.body, /secret|model\.bin/)
  t.equal(res.headers['x-request-id'], 'trace-42')
  t.equal(res.headers['x-ratelimit-remaining'], '100', 'refunded')
  t.equal((await h.app.inject({ url: '/v1/quota', headers: auth })).json().daily.used, 0)
})

t.test('text with a lone surrogate or without any letter or digit is 400 INVALID_TEXT, not counted', async (t) => {
  const h = await buildTestApp(t)
  const { token } = await h.account('free')
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const text = englishText(5)
  const cases = [
    // JSON escapes: a JSON text can carry a lone surrogate that no UTF-8 byte sequence can.
    {
      name: 'lone high surrogate at the end',
      payload: JSON.stringify({ text }).replace(/"}$/, '\\ud800"}'),
      message: /lone UTF-16 surrogate \(\\uD800 at UTF-16 offset \d+\)/,
    },
    { name: 'lone low surrogate', payload: JSON.stringify({ text }).replace(/"}$/, '\\udfff"}'), message: /\\uDFFF/ },
    {
      name: 'high surrogate before a letter',
      payload: JSON.stringify({ text: 'x' + text }).replace('"x', '"\\udbffx'),
      message: /\\uDBFF at UTF-16 offset 0/,
    },
    { name: '300 spaces', payload: JSON.stringify({ text: ' '.repeat(300) }), message: /no letter or digit/ },
    { name: '300 zero-width spaces', payload: JSON.stringify({ text: '\u200b'.repeat(300) }), message: /no letter or digit/ },
    {
      name: 'punctuation and emoji only',
      payload: JSON.stringify({ text: '!?.,😀 '.repeat(50), options: { languageHint: 'en' } }),
      message: /no letter or digit/,
    },
  ]
  for (const c of cases) {
    const res = await h.app.inject({ method: 'POST', url: '/v1/analyze', headers: auth, payload: c.payload })
    t.equal(res.statusCode, 400, c.name)
    t.equal(res.json().code, 'INVALID_TEXT', c.name)
    t.equal(res.json().error, 'Bad Request')
    t.match(res.json().message, c.message, c.name)
  }
  // A U+FFFD itself is a character: the text it ends is analysed like any other.
  const replacement = await h.app.inject({
    method: 'POST',
    url: '/v1/analyze',
    headers: auth,
    payload: JSON.stringify({ text: text + '\ufffd' }),
  })
  t.equal(replacement.statusCode, 200)
  const paired = await h.app.inject({ method: 'POST', url: '/v1/analyze', headers: auth, payload: JSON.stringify({ text: text + '😀' }) })
  t.equal(paired.statusCode, 200, 'a surrogate pair is fine')
  t.equal(paired.json().meta.cached, false, 'and has its own cache entry')
  const quota = (await h.app.inject({ url: '/v1/quota', headers: auth })).json()
  t.equal(quota.daily.used, 2, 'only the two well-formed texts were counted')
  const unauthenticated = await h.app.inject({
    method: 'POST',
    url: '/v1/analyze',
    headers: { 'content-type': 'application/json' },
    payload: cases[3].payload,
  })
  t.equal(unauthenticated.statusCode, 401, '401 comes first')
})
