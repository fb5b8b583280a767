// The extraction baselines, in their own process on one thread: wink-nlp's bare readDoc and the
// service's full analyze(), back to back on one text for a fixed time.
// Usage: node --import tsx scripts/bench/inprocess.ts wink|analyze <text file> <seconds>
import { readFileSync } from 'node:fs'

const [mode, file, seconds] = process.argv.slice(2)
const text = readFileSync(file, 'utf8')
let run: (t: string) => unknown
if (mode === 'wink') {
  const { default: winkNLP } = await import('wink-nlp')
  const { default: model } = await import('wink-eng-lite-web-model')
  const nlp = winkNLP(model)
  run = (t) => nlp.readDoc(t)
} else {
  const nlp = await import('../../src/nlp/index.ts')
  run = (t) => nlp.analyze(t, { language: 'en' })
}
// Warm-up, then measure; each call gets a distinct text like an uncached request would.
for (let i = 0; i < 20; i++) run(`Item w${i}. ` + text)
const times: number[] = []
const end = performance.now() + Number(seconds) * 1000
let i = 0
while (performance.now() < end) {
  const t = `Item ${i++}. ` + text.slice(8)
  const s = performance.now()
  run(t)
  times.push(performance.now() - s)
}
times.sort((a, b) => a - b)
const total = times.reduce((a, b) => a + b, 0)
process.stdout.write(
  JSON.stringify({ rps: times.length / (total / 1000), p50: times[Math.floor(times.length * 0.5)], p99: times[Math.floor(times.length * 0.99)], total: times.length }) + '\n',
)
