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
import { buildClusterIndex, clusterOf, fnv, NO_CLUSTER, type ClusterIndex } from './features.ts'

export const POLARITIES: Sentiment[] = ['positive', 'neutral', 'negative']

export const DIMS = 100
/** Averaged-vector blocks of the input, in order (see sentimentInput). */
export const BLOCKS = ['left', 'right', 'sentence', 'distance', 'target', 'negated', 'valence', 'left2', 'right2', 'max'] as const
const B = Object.fromEntries(BLOCKS.map((b, i) => [b, i])) as Record<(typeof BLOCKS)[number], number>
const SCALARS = 4
export const INPUTS = BLOCKS.length * DIMS + SCALARS
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
  /** hidden × INPUTS, hidden, 3 × hidden, 3. */
  w1: Float32Array
  b1: Float32Array
  w2: Float32Array
  b2: Float32Array
  /** The first layer (w1, b1) in WebAssembly, for a loaded model whose weights no longer change. */
  layer?: HiddenLayer
}

// Model file: gzip( uint32 header length | JSON header | uint32 word hashes | uint16 rows |
// float32 row scales | int8 vectors | uint32 lexicon hashes | int8 valences | float32 w1, b1, w2, b2 ).
interface Header {
  format: 'tea-sentiment-3'
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
  const header: Header = { format: 'tea-sentiment-3', dims: DIMS, inputs: INPUTS, hidden: m.hidden, words: words.length, rows: m.scale.length, lexicon: lexH.length }
  return encodeModelFile(header, [words, rowOfWord, m.scale, m.vectors, lexH, lexV, m.w1, m.b1, m.w2, m.b2])
}

export function loadSentimentModel(path: string | URL): SentimentModel {
  const { header, take } = readModelFile<Header>(path)
  if (header.format !== 'tea-sentiment-3' || header.dims !== DIMS || header.inputs !== INPUTS) {
    throw new Error(`sentiment: model file ${String(path)} has format "${header.format}" that this code does not read`)
  }
  const words = new Uint32Array(take(header.words * 4))
  const rowOf = new Uint16Array(take(header.words * 2))
  const scale = new Float32Array(take(header.rows * 4))
  const vectors = new Int8Array(take(header.rows * DIMS))
  const lexH = new Uint32Array(take(header.lexicon * 4))
  const lexV = new Int8Array(take(header.lexicon))
  const H = header.hidden
  const w1 = new Float32Array(take(H * INPUTS * 4))
  const b1 = new Float32Array(take(H * 4))
  const w2 = new Float32Array(take(3 * H * 4))
  const b2 = new Float32Array(take(3 * 4))
  const lexicon = new Map<number, number>()
  lexH.forEach((k, i) => lexicon.set(k, lexV[i]))
  return { rows: buildClusterIndex(words, rowOf), vectors, scale, lexicon, hidden: H, w1, b1, w2, b2, layer: new HiddenLayer(w1, b1, H, INPUTS) }
}

const NEGATORS = ['not', "n't", '’t', 'no', 'never', 'neither', 'nor', 'without', 'hardly', 'barely', 'nobody', 'nothing', 'cannot', 'lack', 'lacks']
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
const input = new Float32Array(INPUTS)

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
export function sentimentInput(m: Pick<SentimentModel, 'rows' | 'vectors' | 'scale' | 'lexicon'>, doc: Tokenized, words: Uint32Array, targets: Span[], sent: number, out = new Float32Array(INPUTS)): Float32Array {
  out.fill(0)
  const tmp = wordVector
  const s = doc.sentences[sent]
  const wsum = new Float64Array(BLOCKS.length)
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
    if (NEGATOR_H.has(w)) { negated = true; negs++ }
    let inside = false
    let d = Infinity
    let side = 0
    for (const t of targets) {
      if (i >= t.first && i < t.last) inside = true
      else if (i < t.first && t.first - i < d) { d = t.first - i; side = 0 }
      else if (i >= t.last && i - t.last + 1 < d) { d = i - t.last + 1; side = 1 }
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
    if (inside) { addTo(out, B.target, tmp, 1); wsum[B.target]++; continue }
    if (v) { addTo(out, B.valence, tmp, ((negated ? -1 : 1) * v) / 5); wsum[B.valence]++ }
    // A word inside a negation scope counts only there: "was not corrupt" is not "was corrupt".
    if (negated) { addTo(out, B.negated, tmp, 1); wsum[B.negated]++; continue }
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
  const layer = m.layer ?? new HiddenLayer(m.w1, m.b1, H, INPUTS)
  const { x: dense, runStart, runEnd } = layer
  // Runs of four zeros are skipped (a block with no word in it: no negation, no lexicon word):
  // the sums are unchanged, and a quarter or more of the input is often empty. The rest is
  // copied once into consecutive doubles, in runs of adjacent groups of four.
  let runs = 0
  let n = 0
  for (let k = 0; k < INPUTS; k += 4) {
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
  const p = sentimentScores(model, sentimentInput(model, doc, words, targets, sent, input))
  let best = 0
  for (let k = 1; k < 3; k++) if (p[k] > p[best]) best = k
  return POLARITIES[best]
}
