// Sentiment towards given entities in one sentence (targeted, not the document's tone): a
// three-class logistic regression over the sentence's words, weighted by their side of and
// distance to the target, with negation scopes, and a valence lexicon (AFINN-165) baked in.
import { readFileSync } from 'node:fs'
import type { Tokenized } from './tokens.ts'
import type { Sentiment } from './types.ts'
import { feat, fnv } from './features.ts'
import { IdIndex } from './tables.ts'

export const POLARITIES: Sentiment[] = ['positive', 'neutral', 'negative']

export interface SentimentModel {
  /** Feature id → row of `weights`. */
  features: IdIndex
  /** Row-major, one column per class in POLARITIES order. */
  weights: Float32Array
  /** Word hash → AFINN valence. */
  lexicon: Map<number, number>
}

export interface SentimentModelFile {
  format: 'tea-sentiment-2'
  /** Hashed feature id (decimal) → weights in POLARITIES order. */
  weights: Record<string, number[]>
  lexicon: Record<string, number>
}

export function parseSentimentModel(j: SentimentModelFile): SentimentModel {
  if (j.format !== 'tea-sentiment-2') throw new Error(`sentiment: unknown model format "${j.format}"`)
  const ids: number[] = []
  const weights: number[] = []
  for (const k in j.weights) {
    const v = j.weights[k]
    if (v.length !== 3) throw new Error(`sentiment: feature ${k} has ${v.length} weights, expected 3`)
    ids.push(Number(k))
    weights.push(v[0], v[1], v[2])
  }
  return { features: new IdIndex(ids), weights: Float32Array.from(weights), lexicon: new Map(Object.entries(j.lexicon).map(([k, v]) => [Number(k), v])) }
}

export function loadSentimentModel(path: URL): SentimentModel {
  return parseSentimentModel(JSON.parse(readFileSync(path, 'utf8')) as SentimentModelFile)
}

const NEGATORS = new Set(['not', "n't", 'no', 'never', 'neither', 'nor', 'without', 'hardly', 'barely', 'nobody', 'nothing', 'cannot', 'lack', 'lacks'])
const SCOPE_END = new Set(['.', ',', ';', ':', '!', '?', 'but', 'however', 'although', 'though'])

export interface Span {
  first: number
  last: number
}

// Feature templates (hashed as in features.ts). Never renumber: baked into the model file.
const S = { bias: 1, neg: 2, near: 3, word: 4, sideBand: 5, bigram: 6, lexAll: 7, lexNear: 8, lexStrong: 9, tpos: 10, quote: 11 } as const
const NEGATOR_H = new Set([...NEGATORS].map((w) => fnv(w)))
const SCOPE_END_H = new Set([...SCOPE_END].map((w) => fnv(w)))
const QUOTES_H = new Set(['"', '“', '”'].map((w) => fnv(w)))

/**
 * Features of a sentence with respect to target spans. Words get a side (left/right of the
 * nearest target) and a distance band, and a negation mark inside a negation scope (from a
 * negator to the next clause boundary), so "did not praise X" differs from "praised X".
 * `words` are the document's lower-cased token hashes (relations.ts `wordHashes`).
 */
export function sentimentFeatures(doc: Tokenized, words: Uint32Array, targets: Span[], sent: number, lexicon: Map<number, number>): number[] {
  const s = doc.sentences[sent]
  const f: number[] = [feat(S.bias, 0)]
  let negated = 0
  let lexNear = 0
  let lexAll = 0
  let quote = false
  for (let i = s.first; i < s.last; i++) {
    const w = words[i]
    if (SCOPE_END_H.has(w)) negated = 0
    if (QUOTES_H.has(w)) quote = true
    if (NEGATOR_H.has(w)) {
      negated = 1
      f.push(feat(S.neg, 0))
      continue
    }
    let inside = false
    let d = Infinity
    let side = 0
    for (const t of targets) {
      if (i >= t.first && i < t.last) inside = true
      else if (i < t.first && t.first - i < d) { d = t.first - i; side = 0 }
      else if (i >= t.last && i - t.last + 1 < d) { d = i - t.last + 1; side = 1 }
    }
    if (inside) continue
    const band = d <= 3 ? 0 : d <= 8 ? 1 : 2
    const word = feat(0, w, negated)
    if (d <= 2) f.push(feat(S.near, word, side * 4 + d))
    f.push(feat(S.word, word), feat(S.sideBand, word, side * 4 + band))
    if (i + 1 < s.last) f.push(feat(S.bigram, w, words[i + 1]))
    const v = lexicon.get(w)
    if (v !== undefined) {
      const val = negated ? -v : v
      lexAll += val
      if (d <= 5) lexNear += val
    }
  }
  f.push(feat(S.lexAll, Math.sign(lexAll) + 1), feat(S.lexNear, Math.sign(lexNear) + 1))
  if (Math.abs(lexAll) >= 4) f.push(feat(S.lexStrong, Math.sign(lexAll) + 1))
  let t0 = Infinity
  for (const t of targets) t0 = Math.min(t0, t.first)
  f.push(feat(S.tpos, t0 === s.first ? 0 : t0 - s.first < 4 ? 1 : 2))
  if (quote) f.push(feat(S.quote, 0))
  return f
}

/** Class probabilities (POLARITIES order) of a feature list. */
export function sentimentScores(m: SentimentModel, feats: number[]): number[] {
  const z = [0, 0, 0]
  const w = m.weights
  for (const f of feats) {
    const r = m.features.row(f)
    if (r < 0) continue
    z[0] += w[3 * r]
    z[1] += w[3 * r + 1]
    z[2] += w[3 * r + 2]
  }
  const mx = Math.max(...z)
  const e = z.map((v) => Math.exp(v - mx))
  const sum = e[0] + e[1] + e[2]
  return e.map((v) => v / sum)
}

/** Sentiment towards the target spans (token ranges) within sentence `sent`. */
export function sentimentTowards(model: SentimentModel, doc: Tokenized, words: Uint32Array, targets: Span[], sent: number): Sentiment {
  const p = sentimentScores(model, sentimentFeatures(doc, words, targets, sent, model.lexicon))
  let best = 0
  for (let k = 1; k < 3; k++) if (p[k] > p[best]) best = k
  return POLARITIES[best]
}
