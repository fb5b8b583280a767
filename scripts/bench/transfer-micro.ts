// CPU of handing one 2,000-character analysis from a worker to the main thread and serialising it
// for the cache: structured clone of the object and `JSON.stringify` (before) against the worker's
// JSON text parsed once (src/analysis/analysis-json.ts). Usage: npx tsx scripts/bench/transfer-micro.ts
import { deserialize, serialize } from 'node:v8'
import { createEngine, loadEngineModels } from '../../src/nlp/index.ts'
import { makeText } from './texts.ts'
import { analysisFromJson, analysisJson } from '../../src/analysis/analysis-json.ts'
const engine = createEngine(loadEngineModels())
const texts = Array.from({ length: 50 }, (_, i) => makeText(2000 + i))
const analyses = texts.map((t) => engine.analyze(t, { language: 'en' }))
const N = 4000
const cpu = (f: (i: number) => unknown) => {
  for (let i = 0; i < 500; i++) f(i)
  const t = process.cpuUsage()
  for (let i = 0; i < N; i++) f(i)
  const u = process.cpuUsage(t)
  return (u.user + u.system) / N
}
const oldMsgs = analyses.map((a) => serialize({ analysis: a, ms: 1 }))
const newMsgs = analyses.map((a) => serialize({ json: JSON.stringify(a), ms: 1 }))
const res: Record<string, number[]> = {}
for (let r = 0; r < 5; r++) {
  for (const [name, f] of [
    ['worker old: serialize', (i: number) => serialize({ analysis: analyses[i % 50], ms: 1 })],
    ['worker new: stringify+serialize', (i: number) => serialize({ json: JSON.stringify(analyses[i % 50]), ms: 1 })],
    ['main old: deserialize+stringify', (i: number) => JSON.stringify((deserialize(oldMsgs[i % 50]) as { analysis: object }).analysis)],
    [
      'main new: deserialize+parse+json',
      (i: number) => analysisJson(analysisFromJson((deserialize(newMsgs[i % 50]) as { json: string }).json)),
    ],
  ] as const)
    (res[name] ??= []).push(cpu(f))
}
for (const [k, v] of Object.entries(res))
  console.log(k.padEnd(36), v.map((x) => x.toFixed(1)).join(' '), ' median', [...v].sort((a, b) => a - b)[2].toFixed(1), 'µs')
