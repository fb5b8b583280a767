// POST /v1/analyze with and without `include: ["mentions"]`, on each database driver: the short
// form is exactly what it always was, the detailed form's offsets are right in every encoding,
// and one cached analysis answers both.
import t from 'tap'
import { buildTestApp, englishText, DRIVERS } from '../helpers/app.ts'
import type { Analyzer } from '../../src/analysis/analyzer.ts'
import type { Analysis } from '../../src/nlp/types.ts'
import { ENCODINGS, sliceIn } from '../helpers/unicode.ts'

const RELATION_KEYS = ['source', 'target', 'type', 'evidence', 'sentiment', 'confidence']

for (const driver of DRIVERS) {
  t.test(`both forms of the answer, one cached analysis (${driver})`, async (t) => {
    const h = await buildTestApp(t, { driver })
    const { token } = await h.account('free')
    const headers = { authorization: `Bearer ${token}` }
    const text = '😀 ' + englishText(31) + ' Cook said the company is doing well.\r\nשלום, Berlin!'
    const post = (options?: object) =>
      h.app.inject({ method: 'POST', url: '/v1/analyze', headers, payload: options ? { text, options } : { text } })

    const detailed = await post({ include: ['mentions'], offsetEncoding: 'utf16' })
    t.equal(detailed.statusCode, 200)
    const d = detailed.json()
    t.equal(d.meta.cached, false)
    t.same(Object.keys(d), ['entities', 'relations', 'entityDetails', 'meta'])
    t.same(
      d.entityDetails.map((e: { name: string }) => e.name),
      Object.values(d.entities).flat(),
      'one detail per listed entity, in list order',
    )
    t.ok(d.entityDetails.length >= 3, 'entities found')
    t.ok(d.relations.length >= 1, 'relations found')
    for (const e of d.entityDetails) for (const m of e.mentions) t.equal(text.slice(m.start, m.end), m.text, `utf16 mention ${m.text}`)
    for (const r of d.relations) {
      t.same(Object.keys(r), [...RELATION_KEYS, 'evidenceStart', 'evidenceEnd', 'sourceIndex', 'targetIndex'])
      t.equal(text.slice(r.evidenceStart, r.evidenceEnd), r.evidence, 'utf16 evidence')
      t.equal(d.entityDetails[r.sourceIndex].name, r.source)
      t.equal(d.entityDetails[r.targetIndex].name, r.target)
    }
    const cook = d.entityDetails.find((e: { name: string }) => e.name === 'Tim Cook')
    t.same(
      cook?.mentions.map((m: { kind: string }) => m.kind),
      ['name', 'alias'],
      '"Cook" alone is an alias of "Tim Cook"',
    )

    // The same analysis, from the cache, in the short form: what the API always answered.
    const short = await post()
    const s = short.json()
    t.equal(s.meta.cached, true, 'the detailed analysis answers the short form from the cache')
    t.same(Object.keys(s), ['entities', 'relations', 'meta'])
    t.same(s.entities, d.entities)
    t.same(
      s.relations,
      d.relations.map((r: Record<string, unknown>) => Object.fromEntries(RELATION_KEYS.map((k) => [k, r[k]]))),
    )
    t.same(Object.keys(s.relations[0]), RELATION_KEYS)

    // And in the other encodings, still from the cache.
    for (const offsetEncoding of ENCODINGS) {
      const o = (await post({ include: ['mentions'], offsetEncoding })).json()
      t.equal(o.meta.cached, true)
      for (const e of o.entityDetails)
        for (const m of e.mentions) t.equal(sliceIn(text, offsetEncoding, m.start, m.end), m.text, `${offsetEncoding}: ${m.text}`)
      for (const r of o.relations)
        t.equal(sliceIn(text, offsetEncoding, r.evidenceStart, r.evidenceEnd), r.evidence, `${offsetEncoding}: evidence`)
    }
    const byDefault = (await post({ include: ['mentions'] })).json()
    t.same(
      byDefault.entityDetails,
      (await post({ include: ['mentions'], offsetEncoding: 'codepoint' })).json().entityDetails,
      'code points by default',
    )
    t.not(
      byDefault.entityDetails[0].mentions[0].start,
      d.entityDetails[0].mentions[0].start,
      'the emoji counts once in code points, twice in UTF-16',
    )

    // maxEntitiesPerType and includeEvidence apply to the detailed form too.
    const cut = (await post({ include: ['mentions'], maxEntitiesPerType: 1, includeEvidence: false })).json()
    t.same(
      cut.entityDetails.map((e: { name: string }) => e.name),
      Object.values(cut.entities).flat(),
      'the detail is cut with the lists',
    )
    for (const list of Object.values<string[]>(cut.entities)) t.ok(list.length <= 1)
    for (const r of cut.relations) {
      t.same(
        Object.keys(r),
        ['source', 'target', 'type', 'sentiment', 'confidence', 'evidenceStart', 'evidenceEnd', 'sourceIndex', 'targetIndex'],
        'evidence offsets without the evidence text',
      )
      t.equal(cut.entityDetails[r.sourceIndex].name, r.source)
      t.equal(cut.entityDetails[r.targetIndex].name, r.target)
    }
    t.same((await post({ include: [] })).json().entityDetails, undefined, 'an empty include is the short form')
  })
}

t.test('bad include and offsetEncoding values: 400 VALIDATION_ERROR naming the allowed values, not counted', async (t) => {
  const h = await buildTestApp(t)
  const { token } = await h.account('free')
  const headers = { authorization: `Bearer ${token}` }
  const cases = [
    { options: { include: ['mention'] }, message: /"options\.include\.0" must be one of "mentions"; got "mention"/ },
    { options: { include: 'mentions' }, message: /"options\.include" must be of type array/, code: 'INVALID_FIELD_TYPE' },
    { options: { include: ['mentions', 'mentions'] }, message: /options\.include/ },
    {
      options: { include: ['mentions'], offsetEncoding: 'utf-8' },
      message: /"options\.offsetEncoding" must be one of "codepoint", "utf16", "utf8"; got "utf-8"/,
    },
  ]
  for (const c of cases) {
    const res = await h.app.inject({ method: 'POST', url: '/v1/analyze', headers, payload: { text: englishText(32), options: c.options } })
    t.equal(res.statusCode, 400, JSON.stringify(c.options))
    t.equal(res.json().code, c.code ?? 'VALIDATION_ERROR')
    t.match(res.json().message, c.message)
  }
  t.equal((await h.app.inject({ url: '/v1/quota', headers })).json().daily.used, 0)
})

/** A fixed analysis with its detail, so that the short form's bytes do not depend on the model. */
const FIXED: Analysis = {
  entities: { persons: ['Tim Cook'], organizations: ['Apple'], locations: ['Cupertino', 'California'], objects: [] },
  relations: [
    {
      source: 'Tim Cook',
      target: 'Apple',
      type: 'works_for',
      evidence: 'Tim Cook runs Apple.',
      sentiment: 'neutral',
      confidence: 0.9,
      evidenceStart: 0,
      evidenceEnd: 20,
    },
    {
      source: 'Apple',
      target: 'Cupertino',
      type: 'located_in',
      evidence: 'It is in Cupertino, California.',
      sentiment: 'positive',
      confidence: 0.75,
      evidenceStart: 21,
      evidenceEnd: 52,
    },
  ],
  language: 'en',
  model: 'tea-extract-9.9.9',
  detail: {
    persons: [{ confidence: 0.9, salience: 0.4, mentions: [{ start: 0, end: 8, kind: 'name' }] }],
    organizations: [{ confidence: 0.8, salience: 0.3, mentions: [{ start: 14, end: 19, kind: 'name' }] }],
    locations: [
      { confidence: 0.7, salience: 0.2, mentions: [{ start: 30, end: 39, kind: 'name' }] },
      { confidence: 0.6, salience: 0.1, mentions: [{ start: 41, end: 51, kind: 'name' }] },
    ],
    objects: [],
  },
}

t.test('without the option the answer is byte for byte the short form', async (t) => {
  const analyzer: Analyzer = { analyze: async () => structuredClone(FIXED), ready: () => true, async close() {} }
  const h = await buildTestApp(t, { analyzer })
  const { token } = await h.account('free')
  const headers = { authorization: `Bearer ${token}` }
  const text = 'Tim Cook runs Apple. It is in Cupertino, California. ' + 'More words follow here. '.repeat(8)
  const SHORT =
    '{"entities":{"persons":["Tim Cook"],"organizations":["Apple"],"locations":["Cupertino","California"],"objects":[]},' +
    '"relations":[{"source":"Tim Cook","target":"Apple","type":"works_for","evidence":"Tim Cook runs Apple.","sentiment":"neutral","confidence":0.9},' +
    '{"source":"Apple","target":"Cupertino","type":"located_in","evidence":"It is in Cupertino, California.","sentiment":"positive","confidence":0.75}],"meta":'
  for (const [name, options] of [
    ['a fresh analysis', undefined],
    ['a cached one', undefined],
    ['explicit defaults', { maxEntitiesPerType: 50, includeEvidence: true, include: [] }],
    ['an encoding alone', { offsetEncoding: 'utf8' }],
  ] as const) {
    const res = await h.app.inject({ method: 'POST', url: '/v1/analyze', headers, payload: options ? { text, options } : { text } })
    t.equal(res.statusCode, 200)
    t.equal(res.body.slice(0, SHORT.length), SHORT, name)
    t.match(
      res.body.slice(SHORT.length),
      /^\{"model":"tea-extract-9\.9\.9","language":"en","processingMs":[\d.]+,"cached":(true|false)\}\}$/,
    )
  }
  const detailed = await h.app.inject({
    method: 'POST',
    url: '/v1/analyze',
    headers,
    payload: { text, options: { include: ['mentions'] } },
  })
  t.match(
    detailed.body,
    '"entityDetails":[{"name":"Tim Cook","type":"person","confidence":0.9,"salience":0.4,"mentions":[{"text":"Tim Cook","start":0,"end":8,"kind":"name"}]},' +
      '{"name":"Apple","type":"organization","confidence":0.8,"salience":0.3,"mentions":[{"text":"Apple","start":14,"end":19,"kind":"name"}]},',
  )
})
