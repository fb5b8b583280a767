// Tokenization: wink-nlp tokens mapped back to UTF-16 offsets of the original text, plus
// sentence boundaries. Everything downstream (tagger, relations, evidence) works on these.
import winkNLP from 'wink-nlp'
import model from 'wink-eng-lite-web-model'

// Loaded once per module instance (and so once per worker thread).
// wink caches every out-of-vocabulary word it reads, for the life of the instance, and its
// tokenizer consults that cache: unpatched, "Trump's" is one token or two depending on whether
// an earlier text had it. patches/wink-nlp+2.4.0.patch adds `_resetCache()`, which tokenize()
// calls after each document so that every text is read as by a freshly loaded instance (and
// the cache does not grow). Nothing may keep a wink document past that call. The patch also
// remembers the feature values of the words it forgets (pure functions of the word), so that a
// word met again in a later text is not analysed from scratch.
const nlp = winkNLP(model, ['sbd', 'pos'])
if (typeof nlp._resetCache !== 'function') {
  // An install that skipped lifecycle scripts (npm ci --ignore-scripts) leaves wink unpatched.
  throw new Error('wink-nlp is not patched (patches/wink-nlp+2.4.0.patch): run `npx patch-package`')
}
const its = nlp.its

export interface Token {
  /** Surface form exactly as in the input. */
  text: string
  start: number
  end: number
  /** wink universal POS tag. */
  pos: string
  /** Index of the sentence the token belongs to. */
  sent: number
}

export interface Sentence {
  /** First token index (inclusive). */
  first: number
  /** Last token index (exclusive). */
  last: number
  start: number
  end: number
}

export interface Tokenized {
  text: string
  tokens: Token[]
  sentences: Sentence[]
}

// Anchored at a word's start: a match always starts there anyway (the greedy run from the
// earliest start wins), and without the anchor the engine retried from every letter of every word.
const LONG_TOKEN = /(?<!\S)\S{200,}/g
// Each token's sentence number in wink's reading (see tokenize).
let sentScratch = new Int32Array(1024)

/**
 * wink keeps its token values verbatim, but a few inputs (lone surrogates, control
 * characters) can make its spacing bookkeeping disagree with the text, so each token is
 * located by searching forward from the previous one rather than by adding up lengths.
 */
export function tokenize(text: string): Tokenized {
  // wink's tokenizer slows down sharply on a single very long token (half a second for 30,000
  // letters without a space). Such a blob is never a name: it is blanked to spaces of the same
  // length, so offsets are unchanged and it yields no tokens.
  let values: string[], types: string[], pos: string[], sentSpans: [number, number][]
  try {
    const doc = nlp.readDoc(hasLongToken(text) ? text.replace(LONG_TOKEN, (m) => ' '.repeat(m.length)) : text)
    values = doc.tokens().out(its.value)
    types = doc.tokens().out(its.type)
    pos = doc.tokens().out(its.pos)
    sentSpans = doc.sentences().out(its.span) as unknown as [number, number][]
  } finally {
    // Everything is read out of the document: forget the words it added (see above).
    nlp._resetCache()
  }
  // Scratch shared by all calls (synchronous), grown as needed: a typed array per text is
  // allocated outside the heap, which costs more than filling this one.
  if (sentScratch.length < values.length) sentScratch = new Int32Array(Math.max(values.length, 2 * sentScratch.length))
  const sentOf = sentScratch.fill(0, 0, values.length)
  for (let s = 0; s < sentSpans.length; s++) {
    const [a, b] = sentSpans[s]
    for (let i = a; i <= b && i < values.length; i++) sentOf[i] = s
  }

  const tokens: Token[] = []
  const sentences: Sentence[] = []
  let cursor = 0
  let curSent = -1
  let winkSent = -1
  let forceBreak = true
  for (let i = 0; i < values.length; i++) {
    const v = values[i]
    // Never jump far ahead: a value that cannot be found nearby is treated as zero-width.
    const at = nearby(text, v, cursor)
    const start = at < 0 ? cursor : at
    const end = at < 0 ? cursor : at + v.length
    cursor = end
    const isBreak = types[i] === 'tabCRLF' || blank(v)
    if (isBreak) {
      // A line break (the corpora and many user texts put one sentence per line) ends a sentence.
      if (v.includes('\n') || v.includes('\r')) forceBreak = true
      continue
    }
    if (end === start) continue
    if (forceBreak || sentOf[i] !== winkSent) {
      if (curSent >= 0) closeSentence(sentences, tokens)
      curSent++
      sentences.push({ first: tokens.length, last: tokens.length, start, end })
      winkSent = sentOf[i]
      forceBreak = false
    }
    // wink's tokenizer breaks a word at letters outside Latin-1 ("Leszczy|ń|ski", "Wa|łę|sa",
    // "Timi|ș|oara"): touching pieces of letters, one of them with such a letter, are one word.
    const prev = tokens[tokens.length - 1]
    if (prev && prev.end === start && prev.sent === curSent && splitWord(prev.text, v)) {
      prev.text = text.slice(prev.start, end)
      prev.end = end
      // A lone letter beyond Latin-1 is often tagged X or SYM; the rest of the word knows better.
      if (prev.pos === 'X' || prev.pos === 'SYM') prev.pos = pos[i]
      continue
    }
    // Found at start, so text.slice(start, end) is v itself: no copy needed.
    tokens.push({ text: v, start, end, pos: pos[i], sent: curSent })
  }
  if (curSent >= 0) closeSentence(sentences, tokens)
  return { text, tokens, sentences }
}

/**
 * Where `v` first occurs in `text` from `cursor` on, at most 64 units ahead, or -1. Only where
 * its first unit is does it compare the whole value: most tokens follow a space or two, and two
 * calls of the string functions (a failed match at `cursor`, then a search) cost more.
 */
function nearby(text: string, v: string, cursor: number): number {
  if (v.length === 0) return cursor
  const c0 = v.charCodeAt(0)
  const last = Math.min(cursor + 64, text.length - v.length)
  for (let p = cursor; p <= last; p++) if (text.charCodeAt(p) === c0 && text.startsWith(v, p)) return p
  return -1
}

const LETTERS = /^[\p{L}\p{M}]+$/u
const BEYOND_LATIN1 = /[\u0100-\u{10ffff}]/u

/**
 * Two touching pieces of one word that wink split apart: both letters only, and one of them
 * holds a letter beyond Latin-1 (wink splits "cannot" and "gonna" on purpose; those stay apart).
 */
function splitWord(a: string, b: string): boolean {
  return LETTERS.test(a) && LETTERS.test(b) && (BEYOND_LATIN1.test(a) || BEYOND_LATIN1.test(b))
}

/**
 * Whether LONG_TOKEN matches somewhere in `text`: a run of 200 code units that are not white
 * space (as \s). A scan of the character codes: the expression, its look-behind tried at every
 * character, was 0.8% of the engine's time on texts that almost never have such a run.
 */
function hasLongToken(text: string): boolean {
  let run = 0
  for (let k = 0; k < text.length; k++) {
    if (isSpace(text.charCodeAt(k))) run = 0
    else if (++run >= 200) return true
  }
  return false
}

/** A UTF-16 code unit that \s matches. */
export function isSpace(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13)
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  )
}

/**
 * `s.replace(/\s+/g, ' ')`, the expression run only when `s` has white space other than single
 * spaces: names and mentions are mostly words joined by one space, where it changes nothing.
 */
export function collapseSpaces(s: string): string {
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k)
    if (c === 32 ? k + 1 < s.length && isSpace(s.charCodeAt(k + 1)) : isSpace(c)) return s.replace(/\s+/g, ' ')
  }
  return s
}

/** Empty or all white space (as /^\s*$/), without running a regular expression for every token. */
function blank(v: string): boolean {
  const c = v.charCodeAt(0)
  // A printable ASCII first character is never white space; most tokens end here.
  if (c > 32 && c < 127) return false
  return /^\s*$/.test(v)
}

/** Lexemes in wink's cache (its vocabulary plus cached unknown words): constant between calls. */
export function winkCacheSize(): number {
  return nlp._cacheSize()
}

function closeSentence(sentences: Sentence[], tokens: Token[]): void {
  const s = sentences[sentences.length - 1]
  s.last = tokens.length
  s.end = tokens.length > s.first ? tokens[tokens.length - 1].end : s.start
}
