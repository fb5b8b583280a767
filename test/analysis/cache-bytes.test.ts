// A worker's analysis is kept in the in-process level as UTF-8 bytes (its JSON text and its
// default-options response text), off V8's heap: what a later request reads from it must be
// exactly what the first one answered, for any text, and the analyses made in process (no
// bytes) are answered as before.
import t from 'tap'
import { analysisJson } from '../../src/analysis/analysis-json.ts'
import { cacheKey, CachedAnalysis, createAnalysisCache } from '../../src/analysis/cache.ts'
import { analyzeResponseBody } from '../../src/analysis/response-body.ts'
import { viewText } from '../../src/analysis/view.ts'
import type { CacheRepository } from '../../src/db/repositories/cache.ts'
import type { Analysis } from '../../src/nlp/types.ts'

// Names outside ASCII: two-, three- and four-byte UTF-8, and a lone surrogate as JSON.stringify
// writes it (escaped), so that a decoding that is not the exact inverse would show.
const persons = ['Zoë Ångström', '李小龍', 'Ana 🙂 Lima', 'half \ud800 name']
const analysis = {
  model: 'm-1',
  language: 'en',
  entities: { persons, organizations: ['Çelik A.Ş.'], locations: ['Düsseldorf'], objects: [] },
  relations: [
    {
      source: persons[0],
      target: 'Çelik A.Ş.',
      type: 'works_for',
      evidence: 'Zoë Ångström — Çelik',
      sentiment: 'neutral',
      confidence: 0.9,
    },
  ],
} as unknown as Analysis
const text = 'Zoë Ångström works for Çelik A.Ş. in Düsseldorf; 李小龍 and Ana 🙂 Lima too.'
const meta = { model: 'm-1', language: 'en', processingMs: 1, cached: true }

const repo = { put: async (_a: string, _k: string, _p: string, createdAt: Date) => createdAt } as unknown as CacheRepository
const account = '00000000-0000-0000-0000-000000000001'

t.test("a worker's texts kept as bytes answer a later request exactly as the first", async (t) => {
  const cache = createAnalysisCache({ repo, clock: () => new Date(), maxBytes: 2 ** 20 })
  const json = JSON.stringify(analysis)
  const view = viewText(analysis, {}, text)
  const k = cacheKey('m-1', account, undefined, text)
  const first = await cache.putText(k, { json, model: 'm-1', language: 'en' }, view)
  const hit = cache.getLocal(k).hit!
  t.equal(hit, first)
  t.equal(hit.body, undefined, 'the response text is not kept as a string')
  const answer = analyzeResponseBody({ analysis: hit.analysis, cached: true, entry: hit }, { text }, meta)
  t.equal(answer, `${view},"meta":${JSON.stringify(meta)}}`, 'a default-options hit answers the same text')
  t.equal(hit.body, view, 'decoded once, then kept')
  t.same(hit.analysis, JSON.parse(json), 'the JSON text reads back as the analysis')
  t.equal(analysisJson(hit.analysis), json, 'and as the same text')
  t.equal(hit.analysis.entities.persons[3], 'half \ud800 name', 'a lone surrogate survives the round trip')
  const withOptions = analyzeResponseBody(
    { analysis: hit.analysis, cached: true, entry: hit },
    { text, options: { maxEntitiesPerType: 1 } },
    meta,
  )
  t.equal(
    withOptions,
    `${viewText(analysis, { maxEntitiesPerType: 1 }, text)},"meta":${JSON.stringify(meta)}}`,
    'other options are applied to the parsed analysis',
  )
})

t.test('an entry without kept bytes is answered as before', async (t) => {
  const cache = createAnalysisCache({ repo, clock: () => new Date(), maxBytes: 2 ** 20 })
  const k = cacheKey('m-1', account, undefined, `${text} (in process)`)
  const entry = await cache.put(k, analysis)
  t.equal(entry.keptBody(), undefined, 'an analysis made in process has no response text kept')
  const answer = analyzeResponseBody({ analysis: entry.analysis, cached: true, entry }, { text }, meta)
  t.equal(answer, `${viewText(analysis, {}, text)},"meta":${JSON.stringify(meta)}}`)
  t.equal(entry.analysis, analysis, 'its objects, not a copy')

  const unwritten = new CachedAnalysis({ json: JSON.stringify(analysis), model: 'm-1', language: 'en' }, new Date(), 'head')
  t.equal(unwritten.body, 'head', 'a text at hand stays text (an entry the cache write failed to keep)')
  t.equal(unwritten.keptBody(), undefined)
  t.same(unwritten.analysis, analysis)
  t.equal(unwritten.model, 'm-1')
  t.equal(unwritten.language, 'en')
})
