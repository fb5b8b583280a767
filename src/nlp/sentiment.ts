// Sentiment towards given entities in one sentence (targeted, not the document's tone): a small
// neural network (one hidden layer) over averaged word vectors of the target's context (left and
// right windows, the whole sentence, distance-weighted, the target itself, inside negation
// scopes, weighted by lexicon valence, element-wise maximum) and a few lexicon scalars.
// The word vectors (a bounded vocabulary, int8 with a scale per row, which can also carry the
// word's smooth-inverse-frequency weight) and the lexicon are baked into the model file;
// everything is held in typed arrays.
import { encodeModelFile, readModelFile } from './model-file.ts'
import type { Tokenized } from './tokens.ts'
import type { Sentiment } from './types.ts'
import { HiddenLayer } from './layer.ts'
import { fnv } from './features/hashing.ts'
import { buildClusterIndex, clusterOf, NO_CLUSTER, type ClusterIndex } from './features/lexicon.ts'

export const POLARITIES: Sentiment[] = ['positive', 'neutral', 'negative']

export const DIMS = 100
/** Averaged-vector blocks of the input, in order (see sentimentInput). */
export const BLOCKS = ['left', 'right', 'sentence', 'distance', 'target', 'negated', 'valence', 'left2', 'right2', 'max'] as const
const B = Object.fromEntries(BLOCKS.map((b, i) => [b, i])) as Record<(typeof BLOCKS)[number], number>
const SCALARS = 4
/** Inputs of the averaged blocks and scalars; a model with attention heads has more (inputsOf). */
export const INPUTS = BLOCKS.length * DIMS + SCALARS
/** Numbers each attention pool adds: the weighted sum of the word vectors, then of the ratings
 * (sign flipped under negation, / 5), the negation flags, the rating sizes (/ 5), the
 * right-of-target flags. */
export const HEAD_OUT = DIMS + 4
/** Distance buckets a side (1, 2, …, 7 and more). */
export const DIST_BUCKETS = 7
/** Parameters of one head: a query vector, a weight per signed distance bucket, and weights for
 * the negation flag, the signed rating and the rating size. */
export const HEAD_PARAMS = DIMS + 2 * DIST_BUCKETS + 3

/** Attention heads over the words of the sentence outside the target (the order-aware part of
 * the input, see sentimentInput). */
export interface Heads {
  n: number
  /** n × HEAD_PARAMS. */
  w: Float32Array
  /** Words inside a negation scope are not attended to (the negated block and scalars carry them). */
  mask: boolean
  /** A second pool per head over the words inside a negation scope only (its own inputs, so the
   * network can learn what a negated word means). Implies `mask` for the first pool. */
  negpool: boolean
  /** Each vector row's score by each head's query (row × n + h), times the row's scale: what the
   * pools compute per word, once per row for a loaded model whose weights no longer change. */
  rowScores?: Float64Array
}

/** The heads' rowScores for a model: the same sums, in the same order, as poolAll's. */
export function headRowScores(heads: Heads, t: Pick<SentimentModel, 'vectors' | 'scale'>): Float64Array {
  const N = heads.n
  const hw = heads.w
  const { vectors, scale } = t
  const out = new Float64Array(scale.length * N)
  for (let r = 0; r < scale.length; r++) {
    const o = r * DIMS
    for (let h = 0; h < N; h++) {
      const q = h * HEAD_PARAMS
      let s = 0
      for (let j = 0; j < DIMS; j++) s += hw[q + j] * vectors[o + j]
      out[r * N + h] = s * scale[r]
    }
  }
  return out
}

/** Pools per head: 1, or 2 with `negpool`. */
export function poolsOf(h: Heads | undefined): number {
  return h ? (h.negpool ? 2 : 1) : 0
}

export function inputsOf(m: { heads?: Heads }): number {
  return INPUTS + (m.heads ? m.heads.n * poolsOf(m.heads) * HEAD_OUT : 0)
}

/** The words of a sentence outside the targets that have a vector, as the heads see them. */
export interface Context {
  n: number
  rows: Int32Array
  /** Signed distance bucket: 0…6 left of the target, 7…13 right. */
  bucket: Uint8Array
  neg: Uint8Array
  /** Lexicon rating / 5, sign flipped under negation (0 for unrated words). */
  rate: Float32Array
}

export function newContext(cap = 64): Context {
  return { n: 0, rows: new Int32Array(cap), bucket: new Uint8Array(cap), neg: new Uint8Array(cap), rate: new Float32Array(cap) }
}

export function pushContext(c: Context, row: number, bucket: number, neg: boolean, rate: number): void {
  if (c.n === c.rows.length) {
    const d = newContext(c.n * 2)
    d.rows.set(c.rows)
    d.bucket.set(c.bucket)
    d.neg.set(c.neg)
    d.rate.set(c.rate)
    c.rows = d.rows
    c.bucket = d.bucket
    c.neg = d.neg
    c.rate = d.rate
  }
  c.rows[c.n] = row
  c.bucket[c.n] = bucket
  c.neg[c.n] = neg ? 1 : 0
  c.rate[c.n] = rate
  c.n++
}

/** Fills the heads' inputs (after the first INPUTS) of `out` from a context: what one head and
 * pool at a time gives (`headPool` in scripts/nlp/check-sentiment-grad.ts, which checks this bit
 * for bit: every sum adds the same terms in the same order), but with
 * each word's vector read once for all heads' scores and once for all pools' sums. */
export function poolAll(
  heads: Heads,
  t: Pick<SentimentModel, 'vectors' | 'scale'>,
  c: Context,
  out: Float32Array,
  alphas?: Float64Array[],
): void {
  const P = poolsOf(heads)
  const N = heads.n
  const K = N * P
  const n = c.n
  const hw = heads.w
  const { vectors, scale } = t
  if (scores.length < N * n) scores = new Float64Array(Math.max(N * n, 256))
  // Each head's score of each word (as headPool's), times the word's scale.
  const rowScores = heads.rowScores
  for (let i = 0; i < n; i++) {
    const r = c.rows[i]
    const o = r * DIMS
    if (rowScores) {
      for (let h = 0; h < N; h++) scores[h * n + i] = rowScores[r * N + h]
    } else if (N === 2) {
      let s0 = 0
      let s1 = 0
      for (let j = 0; j < DIMS; j++) {
        const v = vectors[o + j]
        s0 += hw[j] * v
        s1 += hw[HEAD_PARAMS + j] * v
      }
      scores[i] = s0 * scale[r]
      scores[n + i] = s1 * scale[r]
    } else {
      for (let h = 0; h < N; h++) {
        const q = h * HEAD_PARAMS
        let s = 0
        for (let j = 0; j < DIMS; j++) s += hw[q + j] * vectors[o + j]
        scores[h * n + i] = s * scale[r]
      }
    }
  }
  const as = poolScale.length >= K ? poolScale : (poolScale = new Float64Array(K))
  const offs = poolOff.length >= K ? poolOff : (poolOff = new Int32Array(K))
  const al: Float64Array[] = alphas ?? []
  for (let h = 0; h < N; h++) {
    const wd = h * HEAD_PARAMS + DIMS
    const wn = wd + 2 * DIST_BUCKETS
    for (let p = 0; p < P; p++) {
      const which = heads.negpool ? p + 1 : heads.mask ? 1 : 0
      const k = h * P + p
      if (!al[k] || al[k].length < n) al[k] = new Float64Array(Math.max(n, 64))
      const alpha = al[k]
      const off = INPUTS + k * HEAD_OUT
      offs[k] = off
      let mx = -Infinity
      for (let i = 0; i < n; i++) {
        if ((which === 1 && c.neg[i]) || (which === 2 && !c.neg[i])) {
          alpha[i] = -Infinity
          continue
        }
        const sc = scores[h * n + i] + hw[wd + c.bucket[i]] + hw[wn] * c.neg[i] + hw[wn + 1] * c.rate[i] + hw[wn + 2] * Math.abs(c.rate[i])
        alpha[i] = sc
        if (sc > mx) mx = sc
      }
      for (let j = 0; j < HEAD_OUT; j++) out[off + j] = 0
      if (mx === -Infinity) {
        alpha.fill(0, 0, n)
        continue
      }
      let z = 0
      for (let i = 0; i < n; i++) {
        const e = alpha[i] === -Infinity ? 0 : Math.exp(alpha[i] - mx)
        alpha[i] = e
        z += e
      }
      for (let i = 0; i < n; i++) alpha[i] /= z
    }
  }
  // The pools' weighted sums, word by word (each output element gets its pool's terms in word order).
  for (let i = 0; i < n; i++) {
    const r = c.rows[i]
    const o = r * DIMS
    let live = 0
    for (let k = 0; k < K; k++) {
      const a = al[k][i]
      as[k] = a ? a * scale[r] : 0
      if (a) live++
    }
    if (!live) continue
    if (K === 2 && live === 2) {
      const o0 = offs[0],
        o1 = offs[1],
        a0 = as[0],
        a1 = as[1]
      for (let j = 0; j < DIMS; j++) {
        const v = vectors[o + j]
        out[o0 + j] += a0 * v
        out[o1 + j] += a1 * v
      }
    } else {
      for (let k = 0; k < K; k++) {
        if (!al[k][i]) continue
        const off = offs[k],
          a = as[k]
        for (let j = 0; j < DIMS; j++) out[off + j] += a * vectors[o + j]
      }
    }
    const right = c.bucket[i] >= DIST_BUCKETS ? 1 : 0
    for (let k = 0; k < K; k++) {
      const a = al[k][i]
      if (!a) continue
      const off = offs[k] + DIMS
      out[off] += a * c.rate[i]
      out[off + 1] += a * c.neg[i]
      out[off + 2] += a * Math.abs(c.rate[i])
      out[off + 3] += a * right
    }
  }
}
let scores = new Float64Array(256)
let poolScale = new Float64Array(8)
let poolOff = new Int32Array(8)

/** Words up to this distance from the target form the left / right windows. */
const WINDOW = 5

export interface SentimentModel {
  /** Lower-case word hash → row of `vectors` (NO_CLUSTER when absent). */
  rows: ClusterIndex
  /** Unit-length word vectors, int8, DIMS per row; multiply by `scale[row]` (which may also weight
   * the word by its frequency: scripts/nlp/train-sentiment.ts). */
  vectors: Int8Array
  scale: Float32Array
  /** Word hash → valence, -5…5 (AFINN-165, and VADER words it lacks: scripts/nlp/train-sentiment.ts). */
  lexicon: Map<number, number>
  hidden: number
  /** hidden × inputsOf(model), hidden, 3 × hidden, 3. */
  w1: Float32Array
  b1: Float32Array
  w2: Float32Array
  b2: Float32Array
  /** Attention heads whose pools are inputs after the first INPUTS (none in models before 1.7.0). */
  heads?: Heads
  /** The first layer (w1, b1) in WebAssembly, for a loaded model whose weights no longer change. */
  layer?: HiddenLayer
}

// Model file: gzip( uint32 header length | JSON header | uint32 word hashes | uint16 rows |
// float32 row scales | int8 vectors | uint32 lexicon hashes | int8 valences | float32 w1, b1, w2, b2 ).
// Format 4 (a model with heads) adds the header fields heads, mask, negpool and a float32 array
// of heads × HEAD_PARAMS after b2.
interface Header {
  format: 'tea-sentiment-3' | 'tea-sentiment-4'
  heads?: number
  mask?: boolean
  negpool?: boolean
  dims: number
  inputs: number
  hidden: number
  words: number
  rows: number
  lexicon: number
}

export function encodeSentimentModel(m: SentimentModel, words: Uint32Array, rowOfWord: Uint16Array): Buffer {
  const lexH = Uint32Array.from([...m.lexicon.keys()].sort((a, b) => a - b))
  const lexV = Int8Array.from(lexH, (h) => m.lexicon.get(h)!)
  const base = { dims: DIMS, inputs: inputsOf(m), hidden: m.hidden, words: words.length, rows: m.scale.length, lexicon: lexH.length }
  const arrays = [words, rowOfWord, m.scale, m.vectors, lexH, lexV, m.w1, m.b1, m.w2, m.b2]
  if (!m.heads) return encodeModelFile({ format: 'tea-sentiment-3', ...base } satisfies Header, arrays)
  const header: Header = { format: 'tea-sentiment-4', ...base, heads: m.heads.n, mask: m.heads.mask, negpool: m.heads.negpool }
  return encodeModelFile(header, [...arrays, m.heads.w])
}

export function loadSentimentModel(path: string | URL): SentimentModel {
  const { header, take } = readModelFile<Header>(path)
  const heads: Heads | undefined =
    header.format === 'tea-sentiment-4' && header.heads
      ? { n: header.heads, w: new Float32Array(0), mask: !!header.mask, negpool: !!header.negpool }
      : undefined
  const I = inputsOf({ heads })
  if ((header.format !== 'tea-sentiment-3' && header.format !== 'tea-sentiment-4') || header.dims !== DIMS || header.inputs !== I) {
    throw new Error(`sentiment: model file ${String(path)} has format "${header.format}" that this code does not read`)
  }
  const words = new Uint32Array(take(header.words * 4))
  const rowOf = new Uint16Array(take(header.words * 2))
  const scale = new Float32Array(take(header.rows * 4))
  const vectors = new Int8Array(take(header.rows * DIMS))
  const lexH = new Uint32Array(take(header.lexicon * 4))
  const lexV = new Int8Array(take(header.lexicon))
  const H = header.hidden
  const w1 = new Float32Array(take(H * I * 4))
  const b1 = new Float32Array(take(H * 4))
  const w2 = new Float32Array(take(3 * H * 4))
  const b2 = new Float32Array(take(3 * 4))
  if (heads) {
    heads.w = new Float32Array(take(heads.n * HEAD_PARAMS * 4))
    heads.rowScores = headRowScores(heads, { vectors, scale })
  }
  const lexicon = new Map<number, number>()
  lexH.forEach((k, i) => lexicon.set(k, lexV[i]))
  return {
    rows: buildClusterIndex(words, rowOf),
    vectors,
    scale,
    lexicon,
    hidden: H,
    w1,
    b1,
    w2,
    b2,
    heads,
    layer: new HiddenLayer(w1, b1, H, I),
  }
}

const NEGATORS = [
  'not',
  "n't",
  '’t',
  'no',
  'never',
  'neither',
  'nor',
  'without',
  'hardly',
  'barely',
  'nobody',
  'nothing',
  'cannot',
  'lack',
  'lacks',
]
const SCOPE_END = ['.', ',', ';', ':', '!', '?', 'but', 'however', 'although', 'though']
const NEGATOR_H = new Set(NEGATORS.map((w) => fnv(w)))
const SCOPE_END_H = new Set(SCOPE_END.map((w) => fnv(w)))

export interface Span {
  first: number
  last: number
}

// Scratch space, reused by every call (one module instance per thread, and no call re-enters):
// a fresh 4 KB input per relation was a good part of the engine's garbage.
const wordVector = new Float32Array(DIMS)
let input = new Float32Array(INPUTS)
const context = newContext()
const alphas: Float64Array[] = []
const blockWeights = new Float64Array(BLOCKS.length)

/**
 * The network's input for a sentence with respect to target spans: averages of the word vectors
 * (unit length times the row's weight) of the words left and right of the nearest target (within 5 and within 2 words), of
 * the whole sentence outside the targets (plain and weighted by 1 / (1 + distance)), of the
 * targets' own words, and the element-wise maximum, all over the words outside negation scopes;
 * the average of the words inside a negation scope (from a negator to the next clause boundary);
 * a sum weighted by lexicon valence (sign flipped under negation); then the summed valence of the sentence and near the targets (squashed), the number
 * of negators and the target's relative position. `words` are lower-cased token hashes
 * (relations.ts `wordHashes`).
 */
export function sentimentInput(
  m: Pick<SentimentModel, 'rows' | 'vectors' | 'scale' | 'lexicon' | 'heads'>,
  doc: Tokenized,
  words: Uint32Array,
  targets: Span[],
  sent: number,
  out = new Float32Array(inputsOf(m)),
  ctx?: Context,
): Float32Array {
  out.fill(0)
  // The context words the heads attend to (collected only for a model with heads, or when asked).
  const c = ctx ?? (m.heads ? context : undefined)
  if (c) c.n = 0
  const tmp = wordVector
  const s = doc.sentences[sent]
  const wsum = blockWeights.fill(0)
  const mx = B.max * DIMS
  let negated = false
  let negs = 0
  let lexAll = 0
  let lexNear = 0
  let t0 = Infinity
  for (const t of targets) t0 = Math.min(t0, t.first)
  for (let i = s.first; i < s.last; i++) {
    const w = words[i]
    if (SCOPE_END_H.has(w)) negated = false
    if (NEGATOR_H.has(w)) {
      negated = true
      negs++
    }
    let inside = false
    let d = Infinity
    let side = 0
    for (const t of targets) {
      if (i >= t.first && i < t.last) inside = true
      else if (i < t.first && t.first - i < d) {
        d = t.first - i
        side = 0
      } else if (i >= t.last && i - t.last + 1 < d) {
        d = i - t.last + 1
        side = 1
      }
    }
    const v = inside ? undefined : m.lexicon.get(w)
    if (v !== undefined) {
      const val = negated ? -v : v
      lexAll += val
      if (d <= 5) lexNear += val
    }
    const r = clusterOf(m.rows, w)
    if (r === NO_CLUSTER) continue
    const o = r * DIMS
    const sc = m.scale[r]
    for (let j = 0; j < DIMS; j++) tmp[j] = sc * m.vectors[o + j]
    if (inside) {
      addTo(out, B.target, tmp, 1)
      wsum[B.target]++
      continue
    }
    if (c) pushContext(c, r, Math.min(d, DIST_BUCKETS) - 1 + side * DIST_BUCKETS, negated, v ? ((negated ? -1 : 1) * v) / 5 : 0)
    if (v) {
      addTo(out, B.valence, tmp, ((negated ? -1 : 1) * v) / 5)
      wsum[B.valence]++
    }
    // A word inside a negation scope counts only there: "was not corrupt" is not "was corrupt".
    if (negated) {
      addTo(out, B.negated, tmp, 1)
      wsum[B.negated]++
      continue
    }
    // The blocks of a word that is neither a target's nor negated, in one pass over its vector:
    // each element gets the same updates as in one pass per block, so the sums are the same.
    const near = d <= WINDOW ? (side === 0 ? B.left : B.right) : -1
    const nearer = d <= 2 ? (side === 0 ? B.left2 : B.right2) : -1
    if (near >= 0) wsum[near]++
    if (nearer >= 0) wsum[nearer]++
    wsum[B.sentence]++
    const dw = 1 / (1 + d)
    wsum[B.distance] += dw
    if (!wsum[B.max]) out.fill(-1, mx, mx + DIMS)
    wsum[B.max] = 1
    const on = near * DIMS
    const on2 = nearer * DIMS
    const os = B.sentence * DIMS
    const od = B.distance * DIMS
    for (let j = 0; j < DIMS; j++) {
      const x = tmp[j]
      if (near >= 0) out[on + j] += x
      if (nearer >= 0) out[on2 + j] += x
      out[os + j] += x
      out[od + j] += dw * x
      if (x > out[mx + j]) out[mx + j] = x
    }
  }
  for (let b = 0; b < BLOCKS.length; b++) {
    if (b === B.valence || b === B.max || !wsum[b]) continue
    const inv = 1 / wsum[b]
    for (let j = b * DIMS; j < (b + 1) * DIMS; j++) out[j] *= inv
  }
  const o = BLOCKS.length * DIMS
  out[o] = Math.tanh(lexAll / 5)
  out[o + 1] = Math.tanh(lexNear / 5)
  out[o + 2] = Math.min(negs, 2) / 2
  out[o + 3] = t0 === Infinity ? 0 : (t0 - s.first) / Math.max(1, s.last - s.first)
  if (m.heads && c) poolAll(m.heads, m, c, out, alphas)
  return out
}

function addTo(out: Float32Array, block: number, v: Float32Array, weight: number): void {
  const o = block * DIMS
  for (let j = 0; j < DIMS; j++) out[o + j] += weight * v[j]
}

/** Class probabilities (POLARITIES order) of an input vector. */
export function sentimentScores(m: SentimentModel, x: Float32Array): number[] {
  const H = m.hidden
  const z = [m.b2[0], m.b2[1], m.b2[2]]
  // A model being trained changes its weights between calls: it gets a fresh copy each time.
  const I = inputsOf(m)
  const layer = m.layer ?? new HiddenLayer(m.w1, m.b1, H, I)
  const { x: dense, runStart, runEnd } = layer
  // Runs of four zeros are skipped (a block with no word in it: no negation, no lexicon word):
  // the sums are unchanged, and a quarter or more of the input is often empty. The rest is
  // copied once into consecutive doubles, in runs of adjacent groups of four.
  let runs = 0
  let n = 0
  for (let k = 0; k < I; k += 4) {
    if (!(x[k] || x[k + 1] || x[k + 2] || x[k + 3])) continue
    if (runs === 0 || runEnd[runs - 1] !== k) runStart[runs++] = k
    runEnd[runs - 1] = k + 4
    dense[n] = x[k]
    dense[n + 1] = x[k + 1]
    dense[n + 2] = x[k + 2]
    dense[n + 3] = x[k + 3]
    n += 4
  }
  layer.run(runs)
  const act = layer.out
  for (let j = 0; j < H; j++) {
    const a = act[j]
    if (a <= 0) continue
    z[0] += m.w2[j] * a
    z[1] += m.w2[H + j] * a
    z[2] += m.w2[2 * H + j] * a
  }
  const mx = Math.max(...z)
  const e = z.map((v) => Math.exp(v - mx))
  const sum = e[0] + e[1] + e[2]
  return e.map((v) => v / sum)
}

/** Sentiment towards the target spans (token ranges) within sentence `sent`. */
export function sentimentTowards(model: SentimentModel, doc: Tokenized, words: Uint32Array, targets: Span[], sent: number): Sentiment {
  const I = inputsOf(model)
  if (input.length !== I) input = new Float32Array(I)
  sentimentInput(model, doc, words, targets, sent, input)
  const p = sentimentScores(model, input)
  let best = 0
  for (let k = 1; k < 3; k++) if (p[k] > p[best]) best = k
  return POLARITIES[best]
}
