// An analysis that a worker sends as JSON text is written to the cache as that text: the cache
// write does not serialise it again, and what it stores reads back as the same analysis.
import t from 'tap'
import { createDecipheriv } from 'node:crypto'
import { analysisFromJson, analysisJson } from '../../src/analysis/analysis-json.ts'
import { cacheKey, createAnalysisCache } from '../../src/analysis/cache.ts'
import type { CacheRepository } from '../../src/db/repositories/cache.ts'
import type { Analysis } from '../../src/nlp/types.ts'

const analysis: Analysis = {
  model: 'm-1',
  language: 'en',
  entities: { persons: ['Tim Cook'], organizations: ['Apple'], locations: ['Cupertino'], objects: [] },
  relations: [
    { source: 'Tim Cook', target: 'Apple', type: 'works_for', evidence: 'Tim Cook leads Apple', sentiment: 'neutral', confidence: 0.9 },
  ],
} as unknown as Analysis

function decrypt(secret: Buffer, payload: string): string {
  const raw = Buffer.from(payload, 'base64')
  const d = createDecipheriv('aes-256-gcm', secret, raw.subarray(0, 12))
  d.setAuthTag(raw.subarray(12, 28))
  return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8')
}

t.test('the text an analysis was parsed from is the one returned, else JSON.stringify', async (t) => {
  // Indented text, so that a fresh serialisation would differ from it.
  const text = JSON.stringify(analysis, null, 1)
  const parsed = analysisFromJson(text)
  t.same(parsed, analysis)
  t.equal(analysisJson(parsed), text)
  t.equal(analysisJson(analysis), JSON.stringify(analysis), 'an object not parsed here is serialised')
  t.equal(analysisJson(structuredClone(parsed)), JSON.stringify(analysis), 'a copy is not taken for the original')
})

t.test('the cache write encrypts the remembered text, which reads back as the analysis', async (t) => {
  const written: string[] = []
  const repo = {
    put: async (_a: string, _k: string, payload: string, createdAt: Date) => (written.push(payload), createdAt),
  } as unknown as CacheRepository
  const cache = createAnalysisCache({ repo, clock: () => new Date(), maxBytes: 2 ** 20 })
  const text = JSON.stringify(analysis, null, 1)
  const k1 = cacheKey('m-1', '00000000-0000-0000-0000-000000000001', undefined, 'Tim Cook leads Apple.')
  await cache.put(k1, analysisFromJson(text))
  t.equal(decrypt(k1.secret, written[0]), text, 'the worker text, not a new serialisation')
  const k2 = cacheKey('m-1', '00000000-0000-0000-0000-000000000001', undefined, 'Tim Cook leads Apple again.')
  await cache.put(k2, analysis)
  t.equal(decrypt(k2.secret, written[1]), JSON.stringify(analysis), 'an analysis made in process is serialised')
  const other = createAnalysisCache({ repo, clock: () => new Date(), maxBytes: 0 })
  t.same(other.found(k1, { payload: written[0], createdAt: new Date() })?.analysis, analysis, 'read back from the shared level')
})

t.test('an analysis that came as text stays text until its objects are asked for', async (t) => {
  const written: string[] = []
  const repo = {
    put: async (_a: string, _k: string, payload: string, createdAt: Date) => (written.push(payload), createdAt),
  } as unknown as CacheRepository
  const cache = createAnalysisCache({ repo, clock: () => new Date(), maxBytes: 2 ** 20 })
  const json = JSON.stringify(analysis, null, 1)
  const view = '{"entities":{},"relations":[]'
  const k = cacheKey('m-1', '00000000-0000-0000-0000-000000000001', undefined, 'Tim Cook leads Apple, as text.')
  const entry = await cache.putText(k, { json, model: 'm-1', language: 'en' }, view)
  t.equal(decrypt(k.secret, written[0]), json, 'the text is written as it came')
  t.equal(entry.model, 'm-1')
  t.equal(entry.language, 'en')
  t.equal(entry.body, undefined, 'the response text the worker wrote is kept as bytes')
  t.equal(entry.keptBody(), view, 'and decoded when first used')
  t.equal(entry.body, view, 'then kept as text')
  t.equal(cache.getLocal(k).hit, entry, 'kept in the in-process level')
  t.same(entry.analysis, analysis, 'parsed when asked for')
  t.equal(entry.analysis, entry.analysis, 'once')
  t.equal(analysisJson(entry.analysis), json, 'and still written as the same text')
})

t.test('every cache write has an IV of its own, across blocks of random bytes', async (t) => {
  const written: string[] = []
  const repo = {
    put: async (_a: string, _k: string, payload: string, createdAt: Date) => (written.push(payload), createdAt),
  } as unknown as CacheRepository
  const cache = createAnalysisCache({ repo, clock: () => new Date(), maxBytes: 0 })
  const k = cacheKey('m-1', '00000000-0000-0000-0000-000000000001', undefined, 'Tim Cook leads Apple.')
  // More writes than one block of IVs serves, so that the block is drawn again.
  for (let i = 0; i < 1000; i++) await cache.put(k, analysis)
  const ivs = new Set(written.map((p) => Buffer.from(p, 'base64').subarray(0, 12).toString('hex')))
  t.equal(ivs.size, written.length, 'no IV used twice')
  t.equal(decrypt(k.secret, written[999]), JSON.stringify(analysis), 'a write after the first block reads back')
})
