// Per-document facts the token features read: lower-case forms, shapes and affixes, headlines,
// gazetteer matches, capitalised runs and document-wide casing, informal text.
import type { Tokenized } from '../tokens.ts'
import { FNV_OFFSET, FNV_PRIME, fnv, fnvRange } from './hashing.ts'
import { GAZ_CLASSES, GAZ_CLASS_MASK, GAZ_PREFIX, MAX_GAZ_WORDS, clusterOf, type ClusterIndex, type GazetteerLookup } from './lexicon.ts'

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
    if (c >= 97 && c <= 122)
      c = 120 // x
    else if (c >= 65 && c <= 90)
      c = 88 // X
    else if (c >= 48 && c <= 57)
      c = 100 // d
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
export const HAS_LETTER_BIT = 1,
  HAS_LOWER_BIT = 2,
  UPPER_START_BIT = 4

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
      return (
        (HAS_LETTER.test(w) ? HAS_LETTER_BIT : 0) | (HAS_LOWER.test(w) ? HAS_LOWER_BIT : 0) | (UPPER_START.test(w) ? UPPER_START_BIT : 0)
      )
    }
    if (c >= 97 && c <= 122) f |= HAS_LETTER_BIT | HAS_LOWER_BIT
    else if (c >= 65 && c <= 90) f |= k === 0 ? HAS_LETTER_BIT | UPPER_START_BIT : HAS_LETTER_BIT
  }
  return f
}

/** wink's universal POS tags, numbered for hashing; unknown tags share the last number. */
const POS = [
  'ADJ',
  'ADP',
  'ADV',
  'AUX',
  'CCONJ',
  'DET',
  'INTJ',
  'NOUN',
  'NUM',
  'PART',
  'PRON',
  'PROPN',
  'PUNCT',
  'SCONJ',
  'SYM',
  'VERB',
  'X',
  'SPACE',
]
const POS_ID = new Map(POS.map((p, i) => [p, i + 1]))
export const OUTSIDE = 0x7fff_fff0 // value standing for "beyond the sentence"
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
  /**
   * Long-name run containing the token: capitalised runs joined across up to two connector words
   * ("University of New York", "Bank of the West"), at least two tokens, outside headlines.
   * `nameRun`: 0 outside one, else 1 + part (0 first, 1 inside, 2 last) * 4 + 2 if the token is a
   * connector + 1 if the run holds a connector; `nameHead` / `nameFirst` the lower-case hashes of
   * its last and first words, `nameHeadClus` the coarse cluster of the last; `nameLen` its length
   * in tokens (capped at 6).
   */
  nameRun: Uint8Array
  nameHead: Uint32Array
  nameHeadClus: Uint16Array
  nameFirst: Uint32Array
  nameLen: Uint8Array
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
    nameRun: new Uint8Array(n),
    nameHead: new Uint32Array(n),
    nameHeadClus: new Uint16Array(n),
    nameFirst: new Uint32Array(n),
    nameLen: new Uint8Array(n),
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
    if (m > 2) {
      info.hAffix[a + 1] = fnvRange(l, 0, 2)
      info.hAffix[a + 3] = fnvRange(l, m - 2, m)
    }
    if (m > 3) {
      info.hAffix[a + 2] = fnvRange(l, 0, 3)
      info.hAffix[a + 4] = fnvRange(l, m - 3, m)
    }
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
      if (!info.capStart[i]) {
        i++
        continue
      }
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
  // Many documents have neither: no look-up per token then.
  if (surnames.size)
    for (let i = 0; i < n; i++) {
      if (surnames.has(info.lower[i])) info.docSurname[i] = 1
    }
  if (orgWords.size)
    for (let i = 0; i < n; i++) {
      if (orgWords.has(info.lower[i])) info.docOrg[i] = 1
    }
  for (const s of doc.sentences) nameRuns(doc, s.first, s.last, info)
  info.noisy = isNoisy(doc)
  return info
}

/**
 * Lower-case words that join the capitalised parts of one long name. Not "and", "on" or "'s":
 * they join two names far more often than they sit inside one ("The European Space Agency and
 * Roger K. Crouch", "Germany on Monday", "Britain 's Prime Minister").
 */
const CONNECTORS = new Set('of the & for de del della di da du des la le el von van der den y'.split(' '))

/** Token j is a hyphen written without spaces between the word before it and a word after it. */
function hyphenJoins(doc: Tokenized, j: number, info: DocInfo): boolean {
  const t = doc.tokens
  return info.lower[j] === '-' && t[j - 1].end === t[j].start && t[j].end === t[j + 1].start && /^\p{L}/u.test(t[j + 1].text)
}

const FUNCTION_POS = new Set(['ADP', 'ADV', 'AUX', 'CCONJ', 'DET', 'PART', 'PRON', 'SCONJ'].map((p) => POS_ID.get(p)!))

/** Fills the nameRun fields of one sentence (see DocInfo). */
function nameRuns(doc: Tokenized, first: number, last: number, info: DocInfo): void {
  let i = first
  while (i < last) {
    // A sentence's first word is capitalised whatever it is: a function word there ("The",
    // "Then", "In") starts no name.
    if (!info.capStart[i] || info.headline[i] || (i === first && FUNCTION_POS.has(info.pos[i]))) {
      i++
      continue
    }
    // Extend over capitalised words, and over one or two connectors followed by a capitalised word.
    let j = i + 1
    let bridged = false
    for (;;) {
      if (j < last && info.capStart[j]) j++
      else if (j + 1 < last && CONNECTORS.has(info.lower[j]) && info.capStart[j + 1]) {
        j += 2
        bridged = true
      } else if (j + 2 < last && CONNECTORS.has(info.lower[j]) && CONNECTORS.has(info.lower[j + 1]) && info.capStart[j + 2]) {
        j += 3
        bridged = true
      } else if (j + 1 < last && hyphenJoins(doc, j, info)) {
        // "Won-yong", "Saint-Étienne": wink splits at the hyphen.
        j += 2
        bridged = true
      } else break
    }
    if (j - i >= 2) {
      const len = Math.min(j - i, 6)
      for (let k = i; k < j; k++) {
        const part = k === i ? 0 : k === j - 1 ? 2 : 1
        info.nameRun[k] = 1 + part * 4 + (info.capStart[k] ? 0 : 2) + (bridged ? 1 : 0)
        info.nameHead[k] = info.hLower[j - 1]
        info.nameHeadClus[k] = info.clus[j - 1] >> 3
        info.nameFirst[k] = info.hLower[i]
        info.nameLen[k] = len
      }
    }
    i = j
  }
}

// Marks of informal writing: a lower-case "i", @handles, #hashtags, emoji, emoticons, chat
// abbreviations, exclamation marks. With the lower-case rule below: 1% of CoNLL-2003 train
// documents, 0.2% of CoNLL04 train, 97% of WNUT-17 train and 85% of WNUT-17 dev (by tokens).
const SOCIAL_CUE =
  /^(?:i|u|ur|im|dont|cant|pls|plz|gonna|wanna|gotta|idk|btw|tbh|thx|vids?|(?:lol|lmao|omg|wtf|xd|ha(?:ha)+h?)|LOL|LMAO|OMG|WTF|XD|:\)|:\(|:D|;\)|<3|!+|[@#][\p{L}\p{N}_]+|\p{Extended_Pictographic}+)$/u
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
