// The entity tagger: an averaged perceptron over BILOU tags, decoded greedily left to right
// under BILOU constraints, with earlier decisions in the document as features.
import { encodeModelFile, readModelFile } from './model-file.ts'
import type { Tokenized } from './tokens.ts'
import { fnv } from './features/hashing.ts'
import { buildClusterIndex, type ClusterIndex, type Gazetteer, type GazetteerLookup } from './features/lexicon.ts'
import { docInfo, type DocInfo } from './features/document.ts'
import { ALLOWED_TAGS, B, L, NTAGS, TAGS, TYPES, U, tagPart, tagType } from './features/tags.ts'
import { dynamicFeatures, featureList, staticFeatures } from './features/tagger.ts'
import { IdIndex, IdIntMap } from './tables.ts'

/** Word hashes the decoder skips: a Set while training builds it, an IdIndex once loaded. */
export interface SkipWords {
  has(word: number): boolean
}

/**
 * Open-addressing table from feature id to weight row. Scoring a token looks up some 60
 * features at random places, so it is bound by memory latency, not arithmetic: each slot holds
 * its key and its row side by side (one cache line per probe, not two), and a loaded model keeps
 * its int16 weights as they are stored (a row of 21 weights in 42 bytes, one cache line, not 84).
 * Each weight is still used as the float32 the file's int16 value and scale stand for, so the
 * sums, and every decision, are exactly those of a Float32Array of the weights.
 */
export interface TaggerModel {
  /** Slot k: `slots[2k]` the feature id (0 when empty), `slots[2k + 1]` its weight row. */
  slots: Int32Array
  mask: number
  /** Row-major, NTAGS columns: float while training, the stored int16 values once loaded. */
  weights: Float32Array | Int16Array
  /** What one unit of `weights` is worth: 1 for float weights, the file's scale for int16 ones. */
  scale: number
  /** The columns of OUTSIDE_TAGS of each row of `weights`, in that order (see modelScorer). */
  outside: Float32Array
  gazetteer: GazetteerLookup
  /** Surface-word hashes that are O whenever no entity is open (see decode). */
  skip: SkipWords
  /** Word clusters, absent in models trained without them. */
  clusters?: ClusterIndex
  /** Word-vector scores, absent in models trained without them. */
  vectors?: VectorScores
}

/** Positions whose word vectors the tagger reads: the previous word, the token, the next word. */
export const VECTOR_POSITIONS = 3

/**
 * The word-vector features: training learns linear weights per tag over the pre-trained vectors
 * of the previous, this and the next word (scripts/nlp/train-ner.ts); the model keeps, for every
 * word with a vector, that vector times the weights, so scoring adds three table rows rather than
 * three dot products. Unseen words with a vector score like the seen words near them.
 */
export interface VectorScores {
  /** Lower-case word hash (0 as 1) → row. */
  index: IdIntMap
  /**
   * (row × VECTOR_POSITIONS + position) × NTAGS + tag, int8: a word's three rows side by side
   * (63 bytes), so that the next two scored tokens, which read this word at the other positions,
   * find them in cache. The model file stores them position-major (see wordMajor).
   */
  table: Int8Array
  words: number
  /** What one unit of `table` is worth, per position and tag. */
  scale: Float32Array
}

/** Word-vector scores as stored: word hashes (sorted or not), the int8 table and its scales. */
export interface VectorTable {
  words: Uint32Array
  table: Int8Array
  scale: Float32Array
}

function vectorScores(v: VectorTable): VectorScores | undefined {
  if (!v.words.length) return undefined
  return {
    index: new IdIntMap(
      Array.from(v.words, (w) => w || 1),
      Int32Array.from(v.words, (_, r) => r),
    ),
    table: wordMajor(v.table, v.words.length),
    words: v.words.length,
    scale: v.scale,
  }
}

/** A table stored (position × words + row) × NTAGS + tag, laid out as VectorScores' `table`. */
function wordMajor(table: Int8Array, words: number): Int8Array {
  const out = new Int8Array(table.length)
  for (let p = 0; p < VECTOR_POSITIONS; p++)
    for (let r = 0; r < words; r++)
      out.set(table.subarray((p * words + r) * NTAGS, (p * words + r + 1) * NTAGS), (r * VECTOR_POSITIONS + p) * NTAGS)
  return out
}

export function buildModel(
  features: ArrayLike<number>,
  weights: Float32Array | Int16Array,
  gazetteer: GazetteerLookup,
  skip: SkipWords,
  clusters?: ClusterIndex,
  scale = 1,
  vectors?: VectorScores,
): TaggerModel {
  let cap = 1024
  while (cap < features.length * 2) cap *= 2
  const slots = new Int32Array(cap * 2)
  const mask = cap - 1
  for (let r = 0; r < features.length; r++) {
    let h = features[r] & mask
    while (slots[2 * h] !== 0 && slots[2 * h] !== features[r]) h = (h + 1) & mask
    slots[2 * h] = features[r]
    slots[2 * h + 1] = r
  }
  return { slots, mask, weights, scale, outside: outsideColumns(weights, scale), gazetteer, skip, clusters, vectors }
}

/**
 * Most scored tokens are outside an entity, where only the eleven OUTSIDE_TAGS can follow: their
 * columns in rows of their own, each weight already the float32 that `Math.fround(w * scale)`
 * makes of it, so that scoring such a token neither multiplies nor rounds, and reads one row of
 * 44 bytes (3.7 MB more per node: the pool's workers share one copy). The sums take the same values in the same order.
 */
function outsideColumns(weights: Float32Array | Int16Array, scale: number): Float32Array {
  const rows = weights.length / NTAGS
  const out = new Float32Array(rows * OUTSIDE)
  for (let r = 0; r < rows; r++) for (let c = 0; c < OUTSIDE; c++) out[r * OUTSIDE + c] = weights[r * NTAGS + OUTSIDE_TAGS[c]] * scale
  return out
}

export function rowOfFeature(m: TaggerModel, f: number): number {
  let h = f & m.mask
  for (;;) {
    const k = m.slots[2 * h]
    if (k === f) return m.slots[2 * h + 1]
    if (k === 0) return -1
    h = (h + 1) & m.mask
  }
}

/**
 * Scores token i given its dynamic features: at least the tags in `tags` (the ones allowed
 * there; a scorer may fill in the others too). Training and tagging share the decoder.
 */
export type Scorer = (i: number, dynamic: number[], scores: Float64Array, tags: Uint8Array) => void

/** Tokens of a word are linked to an earlier entity of the document only when they look like names. */
const HISTORY_WORD = /^[\p{L}][\p{L}\p{N}'’.&-]+$/u

/**
 * Greedy BILOU decoding. `onStep` sees each decision (training uses it to update weights and
 * may return the tag to continue with). Returns one tag index per token.
 */
export function decode(
  doc: Tokenized,
  info: DocInfo,
  score: Scorer,
  skip: SkipWords,
  onStep?: (i: number, dynamic: number[], predicted: number) => void,
  margins?: Float32Array,
): Int32Array {
  const tags = new Int32Array(doc.tokens.length)
  const history = new Map<string, Int32Array>()
  // Whole names tagged earlier in the document, by the hash of their lower-case words.
  const runHistory = new Map<number, Int32Array>()
  const scores = new Float64Array(NTAGS)
  const dyn: number[] = []
  // Looked up for every token beforehand, in a loop of nothing else: each lookup is a likely
  // cache miss, and there they overlap, where between two scored tokens they would not.
  const skipped = new Uint8Array(doc.tokens.length)
  for (let i = 0; i < skipped.length; i++) skipped[i] = skip.has(info.hWord[i]) ? 1 : 0
  for (const s of doc.sentences) {
    let p1 = -1
    let p2 = -1
    for (let i = s.first; i < s.last; i++) {
      // Words that never start an entity in the training data (punctuation, "the", "said"…)
      // are O outside an entity without being scored: about half of all tokens.
      if ((p1 < 0 || tagPart(p1) >= L || p1 === 0) && skipped[i]) {
        tags[i] = 0
        p2 = p1
        p1 = 0
        continue
      }
      dyn.length = 0
      const h = history.get(info.lower[i])
      let hist = -1
      if (h) {
        let best = 0
        for (let k = 0; k < h.length; k++)
          if (h[k] > best) {
            best = h[k]
            hist = k
          }
      }
      let runHist = -1
      const rh = info.runHash[i] ? runHistory.get(info.runHash[i]) : undefined
      if (rh) {
        let best = 0
        for (let k = 0; k < rh.length; k++)
          if (rh[k] > best) {
            best = rh[k]
            runHist = k
          }
      }
      dynamicFeatures(p1, p2, info.hShape[i], hist, runHist, dyn)
      const allowed = ALLOWED_TAGS[(p1 + 1) * 2 + (i === s.last - 1 ? 1 : 0)]
      score(i, dyn, scores, allowed)
      let bestTag = 0
      let bestScore = -Infinity
      let second = -Infinity
      for (let k = 0; k < allowed.length; k++) {
        const t = allowed[k]
        if (scores[t] > bestScore) {
          second = bestScore
          bestScore = scores[t]
          bestTag = t
        } else if (scores[t] > second) second = scores[t]
      }
      // How far the decision was from its runner-up: what entity confidence is built from.
      if (margins) margins[i] = second === -Infinity ? 0 : bestScore - second
      onStep?.(i, dyn, bestTag)
      tags[i] = bestTag
      const part = tagPart(bestTag)
      if (part === L || part === U) {
        const type = tagType(bestTag)
        let j = i
        while (j > s.first && part === L && tagPart(tags[j]) !== B) j--
        let ph = 0
        for (let k = j; k <= i; k++) ph = k === j ? info.hLower[k] : fnv(info.lower[k], fnv(' ', ph))
        let rc = runHistory.get(ph)
        if (!rc) runHistory.set(ph, (rc = new Int32Array(TYPES.length)))
        rc[type]++
        for (let k = j; k <= i; k++) {
          if (!HISTORY_WORD.test(doc.tokens[k].text)) continue
          let c = history.get(info.lower[k])
          if (!c) history.set(info.lower[k], (c = new Int32Array(TYPES.length)))
          c[type]++
        }
      }
      p2 = p1
      p1 = bestTag
    }
  }
  return tags
}

/** Entity spans (token ranges) from a BILOU tag sequence. */
export function spans(tags: Int32Array): { first: number; last: number; type: (typeof TYPES)[number] }[] {
  const out: { first: number; last: number; type: (typeof TYPES)[number] }[] = []
  let open = -1
  for (let i = 0; i < tags.length; i++) {
    const p = tagPart(tags[i])
    if (p === U) out.push({ first: i, last: i + 1, type: TYPES[tagType(tags[i])] })
    else if (p === B) open = i
    else if (p === L && open >= 0) {
      out.push({ first: open, last: i + 1, type: TYPES[tagType(tags[i])] })
      open = -1
    } else if (p === 0) open = -1
  }
  return out
}

/** Scorer over a trained model: features unseen in training are ignored. */
export function modelScorer(model: TaggerModel, doc: Tokenized, info: DocInfo): Scorer {
  const feats = featureList()
  let rows = new Int32Array(128)
  const { weights, slots, mask, scale, outside, vectors } = model
  // Each token's row of the word-vector table (-1: no vector), looked up once per document.
  let vrows: Int32Array | undefined
  if (vectors) {
    vrows = new Int32Array(doc.tokens.length)
    for (let i = 0; i < vrows.length; i++) vrows[i] = vectors.index.getOr(info.hLower[i] || 1, -1)
  }
  return (i, dynamic, scores, tags) => {
    scoreSparse(i, dynamic, scores, tags)
    if (vectors && vrows) {
      const s = doc.sentences[doc.tokens[i].sent]
      for (let p = 0; p < VECTOR_POSITIONS; p++) {
        const j = i - 1 + p
        if (j < s.first || j >= s.last || vrows[j] < 0) continue
        const base = (vrows[j] * VECTOR_POSITIONS + p) * NTAGS
        const sc = p * NTAGS
        for (let c = 0; c < tags.length; c++) {
          const t = tags[c]
          scores[t] += vectors.table[base + t] * vectors.scale[sc + t]
        }
      }
    }
  }

  function scoreSparse(i: number, dynamic: number[], scores: Float64Array, tags: Uint8Array): void {
    feats.n = 0
    staticFeatures(doc, info, i, feats)
    const { ids, n: nStatic } = feats
    const nAll = nStatic + dynamic.length
    if (rows.length < nAll) rows = new Int32Array(2 * nAll)
    // Two passes, all the table probes first and then all the weight rows: each probe and each
    // row is a likely cache miss, and with no dependency between consecutive ones the CPU
    // overlaps them, where a probe-then-add loop waits for each miss in turn. This loop is
    // most of the engine's time; the rows are still added in feature order, and only the
    // columns of the allowed tags (the others would not be read).
    let n = 0
    for (let k = 0; k < nAll; k++) {
      const f = k < nStatic ? ids[k] : dynamic[k - nStatic]
      let h = f & mask
      for (;;) {
        const key = slots[2 * h]
        if (key === f) {
          rows[n++] = slots[2 * h + 1]
          break
        }
        if (key === 0) break
        h = (h + 1) & mask
      }
    }
    scores.fill(0)
    if (tags.length === OUTSIDE) {
      // Outside an entity (most scored tokens), O and every B and U: the eleven sums in
      // registers rather than loaded and stored for every row, each still taking the rows in
      // feature order, so every score is the same double.
      let o = 0,
        b0 = 0,
        u0 = 0,
        b1 = 0,
        u1 = 0,
        b2 = 0,
        u2 = 0,
        b3 = 0,
        u3 = 0,
        b4 = 0,
        u4 = 0
      for (let k = 0; k < n; k++) {
        const base = rows[k] * OUTSIDE
        o += outside[base]
        b0 += outside[base + 1]
        u0 += outside[base + 2]
        b1 += outside[base + 3]
        u1 += outside[base + 4]
        b2 += outside[base + 5]
        u2 += outside[base + 6]
        b3 += outside[base + 7]
        u3 += outside[base + 8]
        b4 += outside[base + 9]
        u4 += outside[base + 10]
      }
      scores[0] = o
      scores[1] = b0
      scores[4] = u0
      scores[5] = b1
      scores[8] = u1
      scores[9] = b2
      scores[12] = u2
      scores[13] = b3
      scores[16] = u3
      scores[17] = b4
      scores[20] = u4
      return
    }
    for (let k = 0; k < n; k++) {
      const base = rows[k] * NTAGS
      for (let c = 0; c < tags.length; c++) {
        const t = tags[c]
        scores[t] += Math.fround(weights[base + t] * scale)
      }
    }
  }
}

/** The tags allowed outside an entity: O, then B and U of each type (see ALLOWED_TAGS). */
const OUTSIDE_TAGS = [0, B, U, B + 4, U + 4, B + 8, U + 8, B + 12, U + 12, B + 16, U + 16]
const OUTSIDE = OUTSIDE_TAGS.length
if (ALLOWED_TAGS.some((a) => a.length === OUTSIDE_TAGS.length && a.join() !== OUTSIDE_TAGS.join())) {
  throw new Error('tagger: the allowed tags outside an entity are not the ones modelScorer sums in registers')
}

/** Entity spans of a document, and whether it reads as informal text (see isNoisy). */
export function tagDocument(model: TaggerModel, doc: Tokenized) {
  const info = docInfo(doc, model.gazetteer, model.clusters)
  // Tokens left O without scoring keep a margin of 0; no span covers them.
  const margins = new Float32Array(doc.tokens.length)
  return { spans: spans(decode(doc, info, modelScorer(model, doc, info), model.skip, undefined, margins)), noisy: info.noisy, margins }
}

// Model file: gzip( uint32 header length | JSON header | int32 feature ids | int16 weights |
// uint32 gazetteer (phrase hash, class bits) pairs | uint32 skip-word hashes | uint32 cluster word
// hashes | uint16 cluster codes | uint32 vector word hashes | int8 vector scores ). Weights are
// quantised to int16 with one scale: averaged perceptron weights need no more precision. The
// vector scores (absent from older files: `vectors` 0) have a scale per position and tag.
interface Header {
  format: 'tea-tagger-3'
  tags: string[]
  scale: number
  features: number
  gazetteer: number
  skip: number
  clusters: number
  vectors?: number
  vectorScale?: number[]
}

/** Word clusters as stored: parallel arrays of lower-case word hashes and codes. */
export interface ClusterTableArrays {
  words: Uint32Array
  codes: Uint16Array
}

export function encodeTagger(
  features: Int32Array,
  weights: Float32Array,
  gazetteer: Gazetteer,
  skip: Set<number>,
  clusters: ClusterTableArrays,
  vectors: VectorTable = { words: new Uint32Array(0), table: new Int8Array(0), scale: new Float32Array(0) },
): Buffer {
  let max = 0
  for (const w of weights) max = Math.max(max, Math.abs(w))
  const scale = max > 0 ? max / 32767 : 1
  const q = new Int16Array(weights.length)
  for (let k = 0; k < weights.length; k++) q[k] = Math.round(weights[k] / scale)
  const gz = new Uint32Array(gazetteer.size * 2)
  let k = 0
  for (const [h, bits] of gazetteer) {
    gz[k++] = h
    gz[k++] = bits
  }
  const sk = Uint32Array.from([...skip].sort((a, b) => a - b))
  const header: Header = {
    format: 'tea-tagger-3',
    tags: TAGS,
    scale,
    features: features.length,
    gazetteer: gazetteer.size,
    skip: sk.length,
    clusters: clusters.words.length,
    vectors: vectors.words.length,
    vectorScale: Array.from(vectors.scale),
  }
  return encodeModelFile(header, [features, q, gz, sk, clusters.words, clusters.codes, vectors.words, vectors.table])
}

export function loadTagger(path: string | URL): TaggerModel {
  const { header, take } = readModelFile<Header>(path)
  if (header.format !== 'tea-tagger-3' || header.tags.join() !== TAGS.join()) {
    throw new Error(`tagger: model file ${String(path)} has format "${header.format}" and tags that this code does not read`)
  }
  const features = new Int32Array(take(header.features * 4))
  const q = new Int16Array(take(header.features * NTAGS * 2))
  const gz = new Uint32Array(take(header.gazetteer * 8))
  const sk = new Uint32Array(take(header.skip * 4))
  const cw = new Uint32Array(take(header.clusters * 4))
  const cc = new Uint16Array(take(header.clusters * 2))
  const nv = header.vectors ?? 0
  const vectors = vectorScores({
    words: new Uint32Array(take(nv * 4)),
    table: new Int8Array(take(nv * VECTOR_POSITIONS * NTAGS)),
    scale: Float32Array.from(header.vectorScale ?? []),
  })
  const phrases = new Int32Array(header.gazetteer)
  const classes = new Int32Array(header.gazetteer)
  for (let k = 0; k < header.gazetteer; k++) {
    phrases[k] = gz[2 * k]
    classes[k] = gz[2 * k + 1]
  }
  return buildModel(features, q, new IdIntMap(phrases, classes), new IdIndex(sk), buildClusterIndex(cw, cc), header.scale, vectors)
}
