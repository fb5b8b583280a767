// Token features of the entity tagger. Training (scripts/nlp/train-ner.ts) and tagging
// (./tagger.ts) both call these functions, so the two can never drift apart.
//
// A feature is a 30-bit hash of (template, value…) rather than a string: building and
// hashing ~50 strings per token cost more than wink's whole tokenizer, while integer keys
// in an open-addressing table are a few nanoseconds each. Collisions between the ~10^5
// kept features are negligible at 30 bits.
import type { Tokenized } from './tokens.ts'
import { IdIntMap } from './tables.ts'

/** Gazetteer classes, one bit each, as stored in the model file. */
export const GAZ_CLASSES = [
  'first', 'country', 'city', 'demonym', 'region', 'orgword', 'company',
  // Names annotated in the training data, by their majority type (see train-ner.ts).
  'tPER', 'tORG', 'tLOC', 'tMISC', 'tOBJ',
  // Brands: companies, products and software (simple-icons titles).
  'brand',
  // Ordinary words: written in lower case mid-sentence more often than capitalised in the
  // training texts ("useless", "nice"), whatever their casing in informal text.
  'common',
] as const
export const MAX_GAZ_WORDS = 4
/** Marks a proper prefix of some phrase, so that matching stops as soon as no phrase can follow. */
export const GAZ_PREFIX = 1 << 30
const GAZ_CLASS_MASK = (1 << GAZ_CLASSES.length) - 1

/** Hash of a lower-cased phrase → bitmask of GAZ_CLASSES, as training builds it. */
export type Gazetteer = Map<number, number>

/** What tagging reads of a gazetteer: the Map of training, or the compact IdIntMap (./tables.ts) of a loaded model. */
export interface GazetteerLookup {
  get(phrase: number): number | undefined
}

const FNV_OFFSET = 0x811c9dc5
const FNV_PRIME = 0x01000193

// Hashes are cut to 30 bits: V8 keeps such integers unboxed (small integers), so Map and Set
// lookups on them neither allocate nor hash a heap number.

/** FNV-1a over UTF-16 code units, continuing from `h`; 30 bits. */
export function fnv(s: string, h = FNV_OFFSET): number {
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, FNV_PRIME)
  }
  return h >>> 2
}

/** FNV-1a over s[from, to), without slicing. */
export function fnvRange(s: string, from: number, to: number): number {
  let h = FNV_OFFSET
  for (let i = from; i < to; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, FNV_PRIME)
  }
  return h >>> 2
}

/** Phrase key of the gazetteer: words joined by single spaces, hashed. */
export function phraseHash(words: string[]): number {
  // Chained exactly as the gazetteer matcher and the capitalised-run hash do.
  let h = 0
  for (let k = 0; k < words.length; k++) h = k === 0 ? fnv(words[k]) : fnv(words[k], fnv(' ', h))
  return h
}

/** Feature id (30 bits, never 0) from a template number and up to two values (murmur3 finaliser mixing). */
export function feat(template: number, a: number, b = 0): number {
  let x = Math.imul(a ^ Math.imul(template, 0x9e3779b1), 0x85ebca6b)
  x ^= x >>> 13
  x = Math.imul(x ^ b, 0xc2b2ae35)
  x ^= x >>> 16
  x = Math.imul(x ^ template, 0x27d4eb2f)
  x ^= x >>> 15
  // 0 marks an empty slot in the weight table.
  return (x & 0x3fffffff) || 1
}

// Template numbers. Never renumber: they are baked into the model file.
const T = {
  bias: 1, word: 2, lower: 3, shape: 4, hshape: 5, p1: 6, p2: 7, p3: 8, x2: 9, x3: 10, x4: 11,
  pos: 12, posM1: 13, posP1: 14, posM2: 15, posP2: 16, posBi: 17, posBiN: 18,
  lM1: 19, lP1: 20, lM2: 21, lP2: 22, lBi: 23, lBiN: 24, sM1: 25, sP1: 26, sTri: 27,
  first: 28, headline: 29, len: 30, gaz: 31, gazM1: 32, gazP1: 33, docCap: 34, docLow: 35,
  tM1: 36, tM2M1: 37, tM1s: 38, hist: 39,
  capRun: 40, docSurname: 41, docOrg: 42, sM2: 43, sP2: 44, lM1s: 45, sLP1: 46,
  runText: 47, x3M1: 48, x3P1: 49, runPrev: 50, runNext: 51, lM2M1: 52, runHist: 53,
  c1: 54, c2: 55, c3: 56, c2M1: 57, c2P1: 58, c3M1: 59, c3P1: 60, c2M2: 61, c2P2: 62, c3s: 63, c2Bi: 64,
  nLower: 65, nShape: 66, nGaz: 67, nGazM1: 68, nGazP1: 69, nC2: 70, nC3: 71,
} as const

/**
 * Word clusters (see scripts/nlp/clusters.ts): lower-case word hash → 12-bit hierarchical code
 * (5 bits coarse, 4 bits middle, 3 bits fine). The same table, with rows for codes, maps words to
 * rows of the sentiment model's vectors.
 */
export interface ClusterIndex {
  /** Word hash (0 stored as 1, see buildClusterIndex) → code. */
  codes: IdIntMap
}

/** Code of a word absent from the cluster table. */
export const NO_CLUSTER = 0xffff

// Hash 0 is stored and looked up as 1, as the files were built: the two share an entry.
export function buildClusterIndex(words: ArrayLike<number>, codes: ArrayLike<number>): ClusterIndex {
  return { codes: new IdIntMap(Array.from(words, (w) => w || 1), Uint16Array.from(codes)) }
}

export function clusterOf(ix: ClusterIndex | undefined, wordHash: number): number {
  return ix ? ix.codes.getOr(wordHash || 1, NO_CLUSTER) : NO_CLUSTER
}

/** A document's tokens in lower case, and the hashes (fnv) of those forms. Read-only. */
export interface LowerForms {
  lower: string[]
  hashes: Uint32Array
}

// The tagger's features, the relation features and the sentiment input all read these: kept
// with the document so that each token is lower-cased and hashed once, not once per reader.
const lowerFormsOf = new WeakMap<Tokenized, LowerForms>()

export function lowerForms(doc: Tokenized): LowerForms {
  let forms = lowerFormsOf.get(doc)
  if (!forms) {
    const n = doc.tokens.length
    forms = { lower: new Array<string>(n), hashes: new Uint32Array(n) }
    for (let i = 0; i < n; i++) {
      const l = doc.tokens[i].text.toLowerCase()
      forms.lower[i] = l
      forms.hashes[i] = fnv(l)
    }
    lowerFormsOf.set(doc, forms)
  }
  return forms
}

/** Shape class of a character, as a one-letter code. */
function charClass(ch: string): string {
  if (ch >= 'a' && ch <= 'z') return 'x'
  if (ch >= 'A' && ch <= 'Z') return 'X'
  if (ch >= '0' && ch <= '9') return 'd'
  const c = ch.codePointAt(0)!
  if (c < 128) return ch
  if (/\p{Ll}/u.test(ch)) return 'x'
  if (/\p{Lu}/u.test(ch)) return 'X'
  if (/\p{L}/u.test(ch)) return 'a'
  if (/\p{N}/u.test(ch)) return 'd'
  return 'o'
}

/**
 * Hash (fnv) of the word's shape: runs of one character class collapsed, "McDonald" → "XxXx",
 * "1996-08-30" → "d-d-d", at most six classes. Each class is one UTF-16 unit, so the hash is
 * taken as the classes are found, without building the string.
 */
export function shapeHash(w: string): number {
  let h = FNV_OFFSET
  let len = 0
  let prev = -1
  for (let i = 0; i < w.length; i++) {
    let c = w.charCodeAt(i)
    if (c >= 97 && c <= 122) c = 120 // x
    else if (c >= 65 && c <= 90) c = 88 // X
    else if (c >= 48 && c <= 57) c = 100 // d
    else if (c >= 128) {
      // Rare: a whole code point (surrogate pairs included) classified by Unicode property.
      const cp = w.codePointAt(i)!
      if (cp > 0xffff) i++
      c = charClass(String.fromCodePoint(cp)).charCodeAt(0)
    }
    if (c !== prev) {
      h ^= c
      h = Math.imul(h, FNV_PRIME)
      len++
    }
    prev = c
    if (len >= 6) break
  }
  return h >>> 2
}

const UPPER_START = /^\p{Lu}/u
const HAS_LOWER = /\p{Ll}/u
const HAS_LETTER = /\p{L}/u

/** Bits of letterFacts. */
export const HAS_LETTER_BIT = 1, HAS_LOWER_BIT = 2, UPPER_START_BIT = 4

/**
 * Whether `w` has a letter, has a lower-case letter and starts with an upper-case one, exactly as
 * HAS_LETTER, HAS_LOWER and UPPER_START say. Three regular expressions per token were a good
 * part of docInfo; in ASCII the three classes are just A–Z and a–z, so only other words run them.
 */
export function letterFacts(w: string): number {
  let f = 0
  for (let k = 0; k < w.length; k++) {
    const c = w.charCodeAt(k)
    if (c >= 128) {
      return (HAS_LETTER.test(w) ? HAS_LETTER_BIT : 0) | (HAS_LOWER.test(w) ? HAS_LOWER_BIT : 0) | (UPPER_START.test(w) ? UPPER_START_BIT : 0)
    }
    if (c >= 97 && c <= 122) f |= HAS_LETTER_BIT | HAS_LOWER_BIT
    else if (c >= 65 && c <= 90) f |= k === 0 ? HAS_LETTER_BIT | UPPER_START_BIT : HAS_LETTER_BIT
  }
  return f
}

/** wink's universal POS tags, numbered for hashing; unknown tags share the last number. */
const POS = ['ADJ', 'ADP', 'ADV', 'AUX', 'CCONJ', 'DET', 'INTJ', 'NOUN', 'NUM', 'PART', 'PRON', 'PROPN', 'PUNCT', 'SCONJ', 'SYM', 'VERB', 'X', 'SPACE']
const POS_ID = new Map(POS.map((p, i) => [p, i + 1]))
const OUTSIDE = 0x7fff_fff0 // value standing for "beyond the sentence"
// Shared by every token without a gazetteer match; replaced (never mutated) on a match.
const NO_GAZ: number[] = []

export interface DocInfo {
  lower: string[]
  /** Hashes of each token's forms: surface, lower case, shape, affixes. */
  hWord: Uint32Array
  hLower: Uint32Array
  hShape: Uint32Array
  hAffix: Uint32Array // 6 per token: p1 p2 p3 x2 x3 x4 (0 = absent)
  pos: Uint8Array
  posInSent: Int32Array
  headline: Uint8Array
  /** Gazetteer marks per token: class * 4 + (0 B, 1 I, 2 L, 3 U). */
  gaz: number[][]
  capStart: Uint8Array
  /** Seen capitalised mid-sentence (outside headlines) elsewhere in the document. */
  docCap: Uint8Array
  /** Seen in lower case mid-sentence elsewhere in the document. */
  docLow: Uint8Array
  /** Run of capitalised tokens containing the token: length (capped) * 8 + position (capped). */
  capRun: Uint8Array
  /** Hash of the whole capitalised run (lower case), 0 outside runs. */
  runHash: Uint32Array
  /** Lower-case word hashes just before and just after the token's capitalised run. */
  runPrev: Uint32Array
  runNext: Uint32Array
  /** Elsewhere in the document right after a capitalised first name ("Tim Cook" → "cook"). */
  docSurname: Uint8Array
  /** Elsewhere in the document inside a capitalised run ending in a company word ("Apple Inc"). */
  docOrg: Uint8Array
  /** Word cluster code per token (NO_CLUSTER when unknown). */
  clus: Uint16Array
  /** Gazetteer entry of the token's lower-case word alone (class bits and GAZ_PREFIX), -1 when absent. */
  gazWord: Int32Array
  /** Informal text (see isNoisy): capitalisation says less about names there. */
  noisy: boolean
}

/**
 * Per-document facts the token features read: forms and their hashes, headline sentences
 * (all caps, so capitalisation says nothing there), gazetteer matches, document-wide casing.
 */
export function docInfo(doc: Tokenized, gazetteer: GazetteerLookup, clusters?: ClusterIndex): DocInfo {
  const n = doc.tokens.length
  const forms = lowerForms(doc)
  const info: DocInfo = {
    lower: forms.lower,
    hWord: new Uint32Array(n),
    hLower: forms.hashes,
    hShape: new Uint32Array(n),
    hAffix: new Uint32Array(n * 6),
    pos: new Uint8Array(n),
    posInSent: new Int32Array(n),
    headline: new Uint8Array(n),
    gaz: new Array<number[]>(n),
    capStart: new Uint8Array(n),
    docCap: new Uint8Array(n),
    docLow: new Uint8Array(n),
    capRun: new Uint8Array(n),
    runHash: new Uint32Array(n),
    runPrev: new Uint32Array(n),
    runNext: new Uint32Array(n),
    docSurname: new Uint8Array(n),
    docOrg: new Uint8Array(n),
    clus: new Uint16Array(n),
    gazWord: new Int32Array(n),
    noisy: false,
  }
  const capSeen = new Set<string>()
  const lowSeen = new Set<string>()
  const facts = new Uint8Array(n)
  for (let i = 0; i < n; i++) {
    const t = doc.tokens[i]
    const w = t.text
    const l = info.lower[i]
    info.hWord[i] = fnv(w)
    info.hShape[i] = shapeHash(w)
    const m = l.length
    const a = i * 6
    if (m > 1) info.hAffix[a] = fnvRange(l, 0, 1)
    if (m > 2) { info.hAffix[a + 1] = fnvRange(l, 0, 2); info.hAffix[a + 3] = fnvRange(l, m - 2, m) }
    if (m > 3) { info.hAffix[a + 2] = fnvRange(l, 0, 3); info.hAffix[a + 4] = fnvRange(l, m - 3, m) }
    if (m > 4) info.hAffix[a + 5] = fnvRange(l, m - 4, m)
    info.pos[i] = POS_ID.get(t.pos) ?? POS.length
    info.gaz[i] = NO_GAZ
    facts[i] = letterFacts(w)
    info.capStart[i] = facts[i] & UPPER_START_BIT ? 1 : 0
  }
  // The table lookups in loops of their own: each is a likely cache miss, and there they overlap.
  for (let i = 0; i < n; i++) info.clus[i] = clusterOf(clusters, info.hLower[i])
  for (let i = 0; i < n; i++) info.gazWord[i] = gazetteer.get(info.hLower[i]) ?? -1
  for (const s of doc.sentences) {
    let letters = 0
    let upper = 0
    for (let i = s.first; i < s.last; i++) {
      info.posInSent[i] = i - s.first
      if (facts[i] & HAS_LETTER_BIT) {
        letters++
        if (!(facts[i] & HAS_LOWER_BIT)) upper++
      }
    }
    if (letters > 0 && upper / letters > 0.7) for (let i = s.first; i < s.last; i++) info.headline[i] = 1
    matchGazetteer(s.first, s.last, info, gazetteer)
  }
  for (let i = 0; i < n; i++) {
    if (info.headline[i] || info.posInSent[i] === 0) continue
    if (info.capStart[i]) capSeen.add(info.lower[i])
    else if (facts[i] & HAS_LOWER_BIT) lowSeen.add(info.lower[i])
  }
  for (let i = 0; i < n; i++) {
    if (capSeen.has(info.lower[i])) info.docCap[i] = 1
    if (lowSeen.has(info.lower[i])) info.docLow[i] = 1
  }
  // Runs of capitalised tokens (outside headlines), and what they say about their words.
  const surnames = new Set<string>()
  const orgWords = new Set<string>()
  const firstBit = 1 << GAZ_CLASSES.indexOf('first')
  const orgBit = 1 << GAZ_CLASSES.indexOf('orgword')
  for (const s of doc.sentences) {
    let i = s.first
    while (i < s.last) {
      if (!info.capStart[i]) { i++; continue }
      let j = i + 1
      while (j < s.last && info.capStart[j]) j++
      const len = j - i
      let rh = 0
      for (let k = i; k < j; k++) rh = k === i ? info.hLower[k] : fnv(info.lower[k], fnv(' ', rh))
      for (let k = i; k < j; k++) {
        info.capRun[k] = Math.min(len, 4) * 8 + Math.min(k - i, 3) + (j - 1 === k ? 4 : 0)
        info.runHash[k] = rh
        info.runPrev[k] = i > s.first ? info.hLower[i - 1] : OUTSIDE
        info.runNext[k] = j < s.last ? info.hLower[j] : OUTSIDE + 1
      }
      if (!info.headline[i]) {
        for (let k = i; k + 1 < j; k++) if (info.gazWord[k] >= 0 && info.gazWord[k] & firstBit) surnames.add(info.lower[k + 1])
        if (len > 1 && info.gazWord[j - 1] >= 0 && info.gazWord[j - 1] & orgBit) for (let k = i; k < j - 1; k++) orgWords.add(info.lower[k])
      }
      i = j
    }
  }
  for (let i = 0; i < n; i++) {
    if (surnames.has(info.lower[i])) info.docSurname[i] = 1
    if (orgWords.has(info.lower[i])) info.docOrg[i] = 1
  }
  info.noisy = isNoisy(doc)
  return info
}

// Marks of informal writing: a lower-case "i", @handles, #hashtags, emoji, emoticons, chat
// abbreviations, exclamation marks. With the lower-case rule below: 1% of CoNLL-2003 train
// documents, 0.2% of CoNLL04 train, 97% of WNUT-17 train and 85% of WNUT-17 dev (by tokens).
const SOCIAL_CUE = /^(?:i|u|ur|im|dont|cant|pls|plz|gonna|wanna|gotta|idk|btw|tbh|thx|vids?|(?:lol|lmao|omg|wtf|xd|ha(?:ha)+h?)|LOL|LMAO|OMG|WTF|XD|:\)|:\(|:D|;\)|<3|!+|[@#][\p{L}\p{N}_]+|\p{Extended_Pictographic}+)$/u
const LOWER_START = /^\p{Ll}/u
const SENTENCE_END = /^(?:[.!?…]+|\p{Extended_Pictographic}+)$/u

/**
 * Social or informal text: a quarter of its sentences start in lower case, or it has a social
 * cue. Newswire almost never is, WNUT-17 mostly is (figures above), and the
 * tagger learns separate weights for casing-free evidence there (see staticFeatures).
 */
export function isNoisy(doc: Tokenized): boolean {
  let sents = 0
  let low = 0
  let prevEnd = '.'
  for (const s of doc.sentences) {
    const first = doc.tokens[s.first].text
    // A line that goes on from one without a full stop is wrapped text, not a new sentence.
    if (HAS_LETTER.test(first)) {
      sents++
      if (LOWER_START.test(first) && SENTENCE_END.test(prevEnd)) low++
    }
    prevEnd = doc.tokens[s.last - 1].text
  }
  if (sents > 0 && low >= 0.25 * sents) return true
  for (const t of doc.tokens) if (SOCIAL_CUE.test(t.text)) return true
  return false
}

/** Longest gazetteer phrase starting at each token, marked B/I/L/U per class. */
function matchGazetteer(first: number, last: number, info: DocInfo, gazetteer: GazetteerLookup): void {
  for (let i = first; i < last; i++) {
    let h = 0
    let best = 0
    let bestLen = 0
    for (let k = 0; k < MAX_GAZ_WORDS && i + k < last; k++) {
      let bits: number | undefined
      if (k === 0) {
        h = info.hLower[i]
        bits = info.gazWord[i] < 0 ? undefined : info.gazWord[i]
      } else {
        h = fnv(info.lower[i + k], fnv(' ', h))
        bits = gazetteer.get(h)
      }
      if (bits === undefined) break
      if (bits & GAZ_CLASS_MASK) {
        best = bits & GAZ_CLASS_MASK
        bestLen = k + 1
      }
      if (!(bits & GAZ_PREFIX)) break
    }
    if (!best) continue
    for (let c = 0; c < GAZ_CLASSES.length; c++) {
      if (!(best & (1 << c))) continue
      if (bestLen === 1) mark(info, i, c * 4 + 3)
      else {
        mark(info, i, c * 4)
        for (let k = 1; k < bestLen - 1; k++) mark(info, i + k, c * 4 + 1)
        mark(info, i + bestLen - 1, c * 4 + 2)
      }
    }
  }
}

function mark(info: DocInfo, i: number, g: number): void {
  if (info.gaz[i] === NO_GAZ) info.gaz[i] = [g]
  else info.gaz[i].push(g)
}

/**
 * A token's features: `ids[0]` to `ids[n - 1]`. A typed array written by index: a plain array
 * emptied with `length = 0` for every token loses its storage and grows it again.
 */
export interface FeatureList {
  ids: Int32Array
  n: number
}

export function featureList(): FeatureList {
  return { ids: new Int32Array(128), n: 0 }
}

/** `list.ids`, with room for `more` features after the first `list.n`. */
function reserve(list: FeatureList, more: number): Int32Array {
  if (list.ids.length < list.n + more) {
    const ids = new Int32Array(2 * (list.n + more))
    ids.set(list.ids.subarray(0, list.n))
    list.ids = ids
  }
  return list.ids
}

/** Features that do not depend on earlier tagging decisions; appended to `out`. */
export function staticFeatures(doc: Tokenized, info: DocInfo, i: number, list: FeatureList): void {
  const s = doc.sentences[doc.tokens[i].sent]
  // Neighbour presence, computed inline: closures here would be re-created for every token.
  const hasM1 = i - 1 >= s.first
  const hasM2 = i - 2 >= s.first
  const hasP1 = i + 1 < s.last
  const hasP2 = i + 2 < s.last
  const hl = info.headline[i] === 1
  const firstInSent = i === s.first
  const pos = info.pos
  const pm1 = hasM1 ? pos[i - 1] : 0
  const pp1 = hasP1 ? pos[i + 1] : 0
  const pm2 = hasM2 ? pos[i - 2] : 0
  const pp2 = hasP2 ? pos[i + 2] : 0
  const lm1 = hasM1 ? info.hLower[i - 1] : OUTSIDE
  const lp1 = hasP1 ? info.hLower[i + 1] : OUTSIDE + 1
  const lm2 = hasM2 ? info.hLower[i - 2] : OUTSIDE
  const lp2 = hasP2 ? info.hLower[i + 2] : OUTSIDE + 1
  const sm1 = hasM1 ? info.hShape[i - 1] : OUTSIDE
  const sp1 = hasP1 ? info.hShape[i + 1] : OUTSIDE + 1
  const l = info.hLower[i]
  const sh = info.hShape[i]
  // At most 55 features besides the gazetteer marks, which informal text adds twice.
  const out = reserve(list, 64 + 2 * (info.gaz[i].length + (hasM1 ? info.gaz[i - 1].length : 0) + (hasP1 ? info.gaz[i + 1].length : 0)))
  let n = list.n

  out[n++] = feat(T.bias, 0)
  // On an all-caps headline the surface form is a poor copy of the usual spelling.
  if (!hl) out[n++] = feat(T.word, info.hWord[i])
  out[n++] = feat(T.lower, l)
  out[n++] = feat(hl ? T.hshape : T.shape, sh)
  const a = i * 6
  const aff = info.hAffix
  if (aff[a]) out[n++] = feat(T.p1, aff[a])
  if (aff[a + 1]) { out[n++] = feat(T.p2, aff[a + 1]); out[n++] = feat(T.x2, aff[a + 3]) }
  if (aff[a + 2]) { out[n++] = feat(T.p3, aff[a + 2]); out[n++] = feat(T.x3, aff[a + 4]) }
  if (aff[a + 5]) out[n++] = feat(T.x4, aff[a + 5])
  out[n++] = feat(T.pos, pos[i])
  out[n++] = feat(T.posM1, pm1)
  out[n++] = feat(T.posP1, pp1)
  out[n++] = feat(T.posM2, pm2)
  out[n++] = feat(T.posP2, pp2)
  out[n++] = feat(T.posBi, pm1, pos[i])
  out[n++] = feat(T.posBiN, pos[i], pp1)
  out[n++] = feat(T.lM1, lm1)
  out[n++] = feat(T.lP1, lp1)
  out[n++] = feat(T.lM2, lm2)
  out[n++] = feat(T.lP2, lp2)
  out[n++] = feat(T.lBi, lm1, l)
  out[n++] = feat(T.lBiN, l, lp1)
  out[n++] = feat(T.sM1, sm1)
  out[n++] = feat(T.sP1, sp1)
  out[n++] = feat(T.sTri, feat(0, sm1, sh), sp1)
  if (firstInSent) out[n++] = feat(T.first, sh)
  if (hl) out[n++] = feat(T.headline, 0)
  const len = Math.min(info.lower[i].length, 12)
  out[n++] = feat(T.len, len < 3 ? len : len < 6 ? 3 : 4, hl ? 1 : 0)
  for (const g of info.gaz[i]) out[n++] = feat(T.gaz, g)
  if (hasM1) for (const g of info.gaz[i - 1]) out[n++] = feat(T.gazM1, g)
  if (hasP1) for (const g of info.gaz[i + 1]) out[n++] = feat(T.gazP1, g)
  // Capitalisation seen where it is informative (mid-sentence, not a headline) elsewhere in the document.
  if ((firstInSent || hl) && info.capStart[i] && info.docCap[i]) out[n++] = feat(T.docCap, 0)
  if (info.capStart[i] && info.docLow[i]) out[n++] = feat(T.docLow, 0)
  if (info.capRun[i]) { out[n++] = feat(T.capRun, info.capRun[i], hl ? 1 : 0); out[n++] = feat(T.runText, info.runHash[i], info.capRun[i]) }
  if (info.capRun[i]) { out[n++] = feat(T.runPrev, info.runPrev[i]); out[n++] = feat(T.runNext, info.runNext[i]) }
  out[n++] = feat(T.lM2M1, lm2, lm1)
  out[n++] = feat(T.x3M1, hasM1 ? info.hAffix[(i - 1) * 6 + 4] : OUTSIDE)
  out[n++] = feat(T.x3P1, hasP1 ? info.hAffix[(i + 1) * 6 + 4] : OUTSIDE + 1)
  if (info.docSurname[i]) out[n++] = feat(T.docSurname, firstInSent || hl ? 1 : 0)
  if (info.docOrg[i]) out[n++] = feat(T.docOrg, 0)
  out[n++] = feat(T.sM2, hasM2 ? info.hShape[i - 2] : OUTSIDE)
  out[n++] = feat(T.sP2, hasP2 ? info.hShape[i + 2] : OUTSIDE + 1)
  out[n++] = feat(T.lM1s, lm1, sh)
  out[n++] = feat(T.sLP1, sh, lp1)
  {
    // Word clusters: generalise from seen words to unseen ones of similar use (lower-case names).
    const cl = info.clus
    const c = cl[i]
    const cm1 = hasM1 ? cl[i - 1] >> 3 : OUTSIDE
    const cp1 = hasP1 ? cl[i + 1] >> 3 : OUTSIDE + 1
    // (Also tried: fine clusters of the neighbours, a neighbour-cluster bigram, cluster × shape:
    // no better on WNUT-17 / CoNLL-2003 dev, or worse on CoNLL04 relations downstream.)
    out[n++] = feat(T.c1, c >> 7)
    out[n++] = feat(T.c2, c >> 3)
    out[n++] = feat(T.c3, c)
    out[n++] = feat(T.c2M1, cm1)
    out[n++] = feat(T.c2P1, cp1)
    out[n++] = feat(T.c2M2, hasM2 ? cl[i - 2] >> 3 : OUTSIDE)
    out[n++] = feat(T.c2P2, hasP2 ? cl[i + 2] >> 3 : OUTSIDE + 1)
  }
  if (info.noisy) {
    // Informal text: the same evidence with weights of its own, so that lower-case names
    // ("emma", "minecraft") can be learned without changing what newswire casing means.
    const c = info.clus[i]
    out[n++] = feat(T.nLower, l)
    out[n++] = feat(T.nShape, sh, firstInSent ? 1 : 0)
    out[n++] = feat(T.nC2, c >> 3)
    out[n++] = feat(T.nC3, c)
    for (const g of info.gaz[i]) out[n++] = feat(T.nGaz, g)
    if (hasM1) for (const g of info.gaz[i - 1]) out[n++] = feat(T.nGazM1, g)
    if (hasP1) for (const g of info.gaz[i + 1]) out[n++] = feat(T.nGazP1, g)
  }
  list.n = n
}

/** Entity types the tagger knows; MISC is learned so it does not pollute the others, then dropped. */
export const TYPES = ['PER', 'ORG', 'LOC', 'MISC', 'OBJ'] as const
export const TAGS: string[] = ['O', ...TYPES.flatMap((t) => ['B-' + t, 'I-' + t, 'L-' + t, 'U-' + t])]
export const NTAGS = TAGS.length

/** Tag index helpers: 0 is O; for type k, B=1+4k, I=2+4k, L=3+4k, U=4+4k. */
export const tagType = (tag: number) => (tag === 0 ? -1 : (tag - 1) >> 2)
/** 0 = O, 1 = B, 2 = I, 3 = L, 4 = U. */
export const tagPart = (tag: number) => (tag === 0 ? 0 : ((tag - 1) & 3) + 1)
export const B = 1, I = 2, L = 3, U = 4

function allowedSlow(prev: number, tag: number, last: boolean): boolean {
  const pp = prev < 0 ? 0 : tagPart(prev)
  const p = tagPart(tag)
  if (pp === B || pp === I) {
    if (tagType(tag) !== tagType(prev)) return false
    return p === L || (p === I && !last)
  }
  if (p === I || p === L) return false
  if (p === B && last) return false
  return true
}

/** ALLOWED[(prev + 1) * 2 * NTAGS + last * NTAGS + tag]: the BILOU constraint as a table. */
export const ALLOWED = new Uint8Array((NTAGS + 1) * 2 * NTAGS)
for (let prev = -1; prev < NTAGS; prev++)
  for (let last = 0; last < 2; last++)
    for (let tag = 0; tag < NTAGS; tag++)
      ALLOWED[(prev + 1) * 2 * NTAGS + last * NTAGS + tag] = allowedSlow(prev, tag, last === 1) ? 1 : 0

/**
 * The same table as lists, ascending: ALLOWED_TAGS[(prev + 1) * 2 + last]. Only these tags can
 * be chosen, so only their scores are needed: 11 of the 21 outside an entity, 1 or 2 inside one.
 */
export const ALLOWED_TAGS: Uint8Array[] = []
for (let k = 0; k < (NTAGS + 1) * 2; k++) {
  const tags: number[] = []
  for (let tag = 0; tag < NTAGS; tag++) if (ALLOWED[k * NTAGS + tag]) tags.push(tag)
  ALLOWED_TAGS.push(Uint8Array.from(tags))
}

/** Features that read the decisions already taken (previous tags, earlier labels of the same word). */
export function dynamicFeatures(prev1: number, prev2: number, shapeHash: number, history: number, runHistory: number, out: number[]): void {
  out.push(feat(T.tM1, prev1 + 1))
  out.push(feat(T.tM2M1, prev2 + 1, prev1 + 1))
  out.push(feat(T.tM1s, prev1 + 1, shapeHash))
  if (history >= 0) out.push(feat(T.hist, history))
  if (runHistory >= 0) out.push(feat(T.runHist, runHistory))
}
