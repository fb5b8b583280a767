// Main-thread CPU per uncached analyze through the real service, cache and response body (stub
// repositories; the in-process level full), the analyzer answering as a pool worker does: as JSON
// text that the main thread parses (`analyze`, variant "parse") or as that text with the view
// already written (`analyzeText`, variant "text"; the worker then spends one `viewText` more;
// its strings come out of a structured-clone message, as a worker's answer does). Variant "hits":
// as "text", but every request after the first 40 is an in-process hit (default options).
// Run the variants in turn, each in a process of its own with the server's flags:
// for v in parse text parse text; do node --single-threaded-gc --max-semi-space-size=8 --max-old-space-size=512 --import tsx scripts/bench/result-text-micro.ts $v; done
import { deserialize, serialize } from 'node:v8'
import { analysisFromJson } from '../../src/analysis/analysis-json.ts'
import type { Analyzer } from '../../src/analysis/analyzer.ts'
import { createAnalysisCache } from '../../src/analysis/cache.ts'
import { analyzeResponseBody } from '../../src/analysis/response-body.ts'
import { createAnalysisService } from '../../src/analysis/service.ts'
import { viewText } from '../../src/analysis/view.ts'
import type { CacheRepository } from '../../src/db/repositories/cache.ts'
import { createEngine, loadEngineModels } from '../../src/nlp/index.ts'
import { makeText } from './texts.ts'

const variant = process.argv[2]
if (variant !== 'parse' && variant !== 'text' && variant !== 'hits') throw new Error('usage: result-text-micro.ts parse|text|hits')
const engine = createEngine(loadEngineModels())
const texts = Array.from({ length: 40 }, (_, i) => `Item ${i}. ` + makeText(2000 + i))
const analyses = texts.map((t) => engine.analyze(t, { language: 'en' }))
const jsons = analyses.map((a) => JSON.stringify(a))
const views = analyses.map((a, i) => viewText(a, {}, texts[i]))
let n = 0
// Fresh strings each time, as a worker's answer is.
const fresh = (s: string) => s.slice(0, -1) + s.slice(-1)
const messages = jsons.map((json, i) => serialize({ json, view: views[i] }))
const analyzer: Analyzer = {
  analyze: async () => analysisFromJson(fresh(jsons[n % 40])),
  ready: () => true,
  close: async () => {},
}
if (variant !== 'parse')
  analyzer.analyzeText = async () => {
    const { json, view } = deserialize(messages[n % 40]) as { json: string; view: string }
    return { json, model: 'm', language: 'en', view }
  }
const repo = {
  put: async (_a: string, _k: string, _p: string, createdAt: Date) => createdAt,
  get: async () => undefined,
} as unknown as CacheRepository
const cache = createAnalysisCache({ repo, clock: () => new Date(), maxBytes: 32 * 2 ** 20 })
const service = createAnalysisService({
  usage: { reserve: async () => 1 } as never,
  clock: () => new Date(),
  cache,
  analyzer,
  detectLanguage: () => 'en',
  supportedLanguages: ['en'],
  model: 'm',
})
const caller = { accountId: '00000000-0000-0000-0000-000000000001', plan: 'business', limit: 2e9, used: 0 }
async function one(): Promise<string> {
  const input = { text: variant === 'hits' ? texts[n % 40] : `Request ${n}. ${texts[n % 40]}` }
  const outcome = await service.analyze(caller, input)
  n++
  const about = outcome.entry ?? outcome.analysis
  return analyzeResponseBody(outcome, input, { model: about.model, language: about.language, processingMs: 1, cached: outcome.cached })
}
for (let i = 0; i < 4000; i++) await one() // the in-process level filled
const rounds: number[] = []
for (let r = 0; r < 4; r++) {
  const before = process.cpuUsage()
  for (let i = 0; i < 3000; i++) await one()
  const used = process.cpuUsage(before)
  rounds.push((used.user + used.system) / 3000)
}
process.stdout.write(`${variant}: ${rounds.map((x) => x.toFixed(1)).join(', ')} µs of CPU per request (rounds)\n`)
