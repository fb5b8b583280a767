// CPU per target of sentimentInput + sentimentScores for model files, on the NewsMTSC held-out
// 15% (tokenized once), the files' passes alternated in one process; prints the median µs per
// target of each file over the passes. Usage: npx tsx scripts/nlp/bench-sentiment.ts a.bin.gz b.bin.gz [passes]
import { tokenize } from '../../src/nlp/tokens.ts'
import { wordHashes } from '../../src/nlp/relations.ts'
import { inputsOf, loadSentimentModel, sentimentInput, sentimentScores } from '../../src/nlp/sentiment.ts'
import { readJsonl } from './data.ts'
import { isHeldOut } from './metrics.ts'

const args = process.argv.slice(2)
const passes = /^\d+$/.test(args[args.length - 1] ?? '') ? Number(args.pop()) : 12
const models = args.map((f) => loadSentimentModel(f))
const items = readJsonl('newsmtsc/train.jsonl')
  .filter((ex) => isHeldOut(ex.sentence_id ?? ex.id))
  .flatMap((ex) => {
    const doc = tokenize(ex.text)
    const start = ex.start ?? 0
    const end = ex.end ?? ex.text.length
    const idx = doc.tokens.flatMap((t, i) => (t.start < end && t.end > start ? [i] : []))
    return idx.length
      ? [{ doc, words: wordHashes(doc), target: { first: idx[0], last: idx[idx.length - 1] + 1 }, sent: doc.tokens[idx[0]].sent }]
      : []
  })
const times = models.map(() => [] as number[])
let sink = 0
for (let p = 0; p < passes + 1; p++) {
  models.forEach((m, k) => {
    const x = new Float32Array(inputsOf(m))
    const t0 = process.cpuUsage()
    for (const it of items) sink += sentimentScores(m, sentimentInput(m, it.doc, it.words, [it.target], it.sent, x))[0]
    const t = process.cpuUsage(t0)
    if (p > 0) times[k].push((t.user + t.system) / items.length)
  })
}
const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]
args.forEach((f, k) =>
  console.log(`${f}: ${median(times[k]).toFixed(1)} µs per target (median of ${passes} passes over ${items.length} targets)`),
)
if (sink === 0) console.log('')
