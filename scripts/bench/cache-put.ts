// Main-thread CPU of one analysis-cache write, without the database (the repository answers at
// once): serialisation, encryption and the in-process level's bookkeeping.
// Usage: npx tsx scripts/bench/cache-put.ts [puts]
import { createAnalysisCache, cacheKey } from '../../src/analysis/cache.ts'
import type { CacheRepository } from '../../src/db/repositories/cache.ts'
import { createEngine, loadEngineModels } from '../../src/nlp/index.ts'

const SENTENCES = [
  'Tim Cook is the chief executive of Apple, which is based in Cupertino, California.',
  'Apple acquired Beats Electronics in 2014 for about three billion dollars.',
  'Satya Nadella, who leads Microsoft, met Angela Merkel in Munich on Tuesday.',
  'Maria Schmidt works for Siemens and lives in Hamburg with her family.',
]
let text = ''
for (let i = 0; text.length < 2000; i++) text += SENTENCES[i % SENTENCES.length] + ' '
const analysis = createEngine(loadEngineModels()).analyze(text.slice(0, 2000), { language: 'en' })
const puts = Number(process.argv[2] ?? 2000)
const repo = { put: async (_a: string, _k: string, _p: string, createdAt: Date) => createdAt } as unknown as CacheRepository
const cache = createAnalysisCache({ repo, clock: () => new Date(), maxBytes: 32 * 2 ** 20 })
// Keys (and their secrets) made beforehand: only the write is measured.
const keys = Array.from({ length: puts * 1.5 }, (_, i) => {
  const k = cacheKey('m', '00000000-0000-0000-0000-000000000000', undefined, `text ${i}`)
  void k.secret
  return k
})
for (let i = 0; i < puts / 2; i++) await cache.put(keys[i], analysis) // warm-up, not recorded
const before = process.cpuUsage()
for (let i = puts / 2; i < keys.length; i++) await cache.put(keys[i], analysis)
const used = process.cpuUsage(before)
process.stdout.write(
  `${((used.user + used.system) / puts).toFixed(1)} µs of CPU per cache write (${JSON.stringify(analysis).length}-character result)\n`,
)
