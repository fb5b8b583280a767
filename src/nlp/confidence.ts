// Entity confidence: the probability that an extracted entity (its canonical name and type) is
// one a reader of the text would list. A logistic regression over what the extraction knows of
// the entity (the tagger's margins, its mentions, the gazetteer), fitted on out-of-fold
// predictions of taggers that did not see the documents, pooled over every training corpus
// (scripts/nlp/train-confidence.ts). The weights are a model file of their own.
import { readFileSync } from 'node:fs'
import type { Entity, EntityType } from './entities.ts'
import { collapseSpaces, type Tokenized } from './tokens.ts'
import { GAZ_CLASSES } from './features/lexicon.ts'
import { orgKind } from './relations.ts'

const bit = (c: (typeof GAZ_CLASSES)[number]) => 1 << GAZ_CLASSES.indexOf(c)
const TYPE_INDEX: Record<EntityType, number> = { PER: 0, ORG: 1, LOC: 2, OBJ: 3 }
const TRAINED: Record<EntityType, number> = { PER: bit('tPER'), ORG: bit('tORG'), LOC: bit('tLOC'), OBJ: bit('tOBJ') }
const TRAINED_ANY = bit('tPER') | bit('tORG') | bit('tLOC') | bit('tOBJ') | bit('tMISC')
const KNOWN: Record<EntityType, number> = {
  PER: bit('first'),
  ORG: bit('company') | bit('orgword') | bit('brand'),
  LOC: bit('country') | bit('city') | bit('region'),
  OBJ: bit('brand'),
}

/**
 * What the words around an entity's mentions say of it, read from the document's tokens
 * (contextOf); each is a feature per type, since the same context speaks for one type and against
 * another ("in" before a place, "said" after a person). Mention-level values are "some mention".
 */
export const CONTEXT_FEATURES = [
  // The word before a mention: a preposition of place, "of", "by", an honorific or title, another
  // lower-case word (not a determiner, which `determined` reads; most often a verb), a comma.
  'prevLocPrep',
  'prevOf',
  'prevBy',
  'prevHonorific',
  'prevLower',
  'prevComma',
  // The word after: a verb of saying, a possessive, a kind of organization, of place or of work,
  // a word that follows persons ("who", "was", "born"), another lower-case word, a comma.
  'nextSay',
  'nextPoss',
  'nextOrgKind',
  'nextLocKind',
  'nextWork',
  'nextPerVerb',
  'nextLower',
  'nextComma',
  // A capitalised word right before (not the sentence's first, nor a title) or after a mention:
  // the span may be part of a longer name.
  'capBefore',
  'capAfter',
  // In brackets ("( Germany )"), in quotes, or in a list of capitalised names.
  'inBrackets',
  'quoted',
  'inList',
  // The mentions: the share that spell the name, how many spellings, the share that start their
  // sentence, how early the first one is, and every word of the name capitalised.
  'nameMentionShare',
  'distinctForms',
  'sentStartShare',
  'firstPos',
  'allInitialCap',
  // The name written elsewhere in the text and not a mention: as part of a longer capitalised
  // sequence ("Berlin Olympics"), how often, in lower case, and its last word after a capitalised
  // word that is no mention ("Ghormley" when "Robert L. Ghormley" was not found).
  'partOfLonger',
  'unmentioned',
  'lowerElsewhere',
  'wordInOtherCap',
] as const
const TYPES: EntityType[] = ['PER', 'ORG', 'LOC', 'OBJ']

function contextFeatureNames(): string[] {
  return CONTEXT_FEATURES.flatMap((c) => TYPES.map((t) => `${c}×${t}`))
}

/** Names of the features, in order (the model file lists them, so a mismatch is caught on load). */
export const CONFIDENCE_FEATURES: readonly string[] = [
  'bias',
  'PER',
  'ORG',
  'LOC',
  'OBJ',
  'maxMargin×PER',
  'maxMargin×ORG',
  'maxMargin×LOC',
  'maxMargin×OBJ',
  'meanMargin',
  'minMargin',
  'ruleOnly',
  'someRule',
  'logMentions',
  'oneMention',
  'voteShare',
  'words1',
  'words2',
  'words3+',
  'allCaps',
  'hasDigit',
  'hasLower',
  'short',
  'trainedSameType',
  'trainedOtherType',
  'knownForType',
  'common',
  'demonym',
  'sentenceInitialOnly',
  'informal',
  'informal×PER',
  'informal×ORG',
  'informal×LOC',
  'informal×OBJ',
  'hasDigit×OBJ',
  'knownForType×OBJ',
  'trainedSameType×OBJ',
  'stated',
  'titled×OBJ',
  'workCue×OBJ',
  'sentenceWords',
  'capitalised',
  'capitalised²',
  'upper',
  'capitalisedCommon',
  'ordinaryWords×PER',
  'ordinaryWords×ORG',
  'ordinaryWords×LOC',
  'ordinaryWords×OBJ',
  'determined×PER',
  'determined×ORG',
  'determined×LOC',
  'kindWord×ORG',
  'possessor×OBJ',
  ...contextFeatureNames(),
]

export interface EntityEvidence {
  /** Per mention: the least margin of the tagger's span it came from; NaN when a rule made it. */
  margins: number[]
  /** How many of the entity's mentions the tagger or rules typed as the entity's final type. */
  agreeing: number
  /** Every mention starts its sentence. */
  sentenceInitialOnly: boolean
  informal: boolean
  /** A mention's context states the entity's type (Mention.stated). */
  stated: boolean
  /** A mention of the entity, an object, was found by a title rule (Mention.titled). */
  titled?: boolean
  /** A word of works or products (album, novel, wrote, released…) stands near a mention (WORK_CUE). */
  workCue?: boolean
  /** Every word of the name is an ordinary word (the gazetteer's `common`: "Credit Extension", "Effective Date"). */
  ordinaryWords?: boolean
  /** A mention follows a determiner in lower case ("the Bonds", "any Lien"; DETERMINER); read for names, not objects. */
  determined?: boolean
  /** A mention is followed by a possessive ("Sepultura 's Arise", "the Specials ' Ghost Town"): a work owns no work. */
  possessor?: boolean
  /** The document's register (registerOf). */
  register: Register
}

/** Words before a mention that make it a noun phrase: a person's name rarely follows one. */
export const DETERMINER = /^(?:the|a|an|any|each|every|such|all|no|this|that|its|his|her|their|our|your|my)$/

/**
 * What kind of text the document is, read from its words alone: how long its sentences are,
 * and how much of it is capitalised or in capitals. The corpora differ in how often an entity
 * with the same tagger margins is right (filings, tweets, encyclopaedia, news). Not the
 * document's length: short texts then scored lower, and a one-sentence input is ordinary.
 */
export interface Register {
  /** Mean words per sentence, at most 60 (an unpunctuated wall of text is one long sentence), over 25. */
  sentenceWords: number
  /** Share of words that start with a capital. */
  capitalised: number
  /** Share of words of two letters or more wholly in capitals. */
  upper: number
  /**
   * Share of the capitalised words inside sentences (not their first word) that are ordinary
   * words ("the Credit Extension", "Great Animation"), with a prior of one in five (one added to
   * the ordinary ones, five to all) so that a short text is not judged on two words. High in
   * filings' defined terms and title-case posts, where a capitalised phrase is less often a name.
   */
  capitalisedCommon: number
  /** The document, for the words around each entity's mentions (contextOf). */
  doc?: Tokenized
  /** Lower-cased word → its token positions, built on first use (contextOf). */
  positions?: Map<string, number[]>
  /** Token where some mention opens → the end of the longest mention opening there (contextOf). */
  opening?: Map<number, number>
}

const WORD = /^\p{L}/u
const CAPITAL = /^\p{Lu}/u
/** `ordinary(word)`: the word is an ordinary one (the gazetteer's `common` class). */
export function registerOf(doc: Tokenized, ordinary: (word: string) => boolean): Register {
  let words = 0
  let capitalised = 0
  let upper = 0
  let inner = 0
  let innerOrdinary = 0
  for (let i = 0; i < doc.tokens.length; i++) {
    const t = doc.tokens[i]
    // Most words open with an ASCII letter or none: the Unicode classes only for the others.
    const c = t.text.charCodeAt(0)
    const ascii = c < 128
    const cap = ascii ? c >= 65 && c <= 90 : CAPITAL.test(t.text)
    if (cap && doc.sentences[t.sent].first !== i) {
      inner++
      if (ordinary(t.text)) innerOrdinary++
    }
    if (!(ascii ? cap || (c >= 97 && c <= 122) : WORD.test(t.text))) continue
    words++
    if (cap) capitalised++
    if (t.text.length >= 2 && !/\p{Ll}/u.test(t.text)) upper++
  }
  const w = Math.max(1, words)
  return {
    sentenceWords: Math.min(60, w / Math.max(1, doc.sentences.length)) / 25,
    capitalised: capitalised / w,
    upper: upper / w,
    capitalisedCommon: (innerOrdinary + 1) / (inner + 5),
    doc,
  }
}

const LOC_PREP = /^(?:in|at|from|near|into|across|to|outside|inside|towards?|through|throughout|around)$/
// Honorifics and titles written before a person's name ("Dr", "President", "Director", "Actress"):
// a capitalised word that is one of them says the name follows, not that the span is cut short.
const HONORIFIC =
  /^(?:Mr|Mrs|Ms|Miss|Dr|Sir|Dame|Lord|Lady|Prof|President|Prime|Minister|Senator|Sen|Rep|Gov|Governor|Mayor|King|Queen|Prince|Princess|Pope|Saint|St|General|Gen|Colonel|Captain|Judge|Justice|Director|Attorney|Deputy|Commander|Chairman|Chairwoman|Secretary|Spokesman|Spokeswoman|Chief|Ambassador|Envoy|Premier|Professor|Economist|Correspondent|Officer|Manager|Editor|Coach|Actor|Actress|Chancellor|Bishop|Archbishop|Cardinal|Admiral|Lieutenant|Sergeant|Representative|Congressman|Congresswoman)\.?$/
const SAY = /^(?:said|says|say|told|added|announced|reported|asked|stated|wrote|writes|tweeted|thinks|believes)$/
const ORG_KIND_NEXT =
  /^(?:company|companies|firm|group|party|band|club|team|bank|agency|university|council|committee|ministry|corporation|network|label|airline|newspaper|station|channel|organization|organisation|institute|school|college|government|spokesman|spokeswoman|shares|stock|officials?)$/
const LOC_KIND_NEXT =
  /^(?:city|town|river|country|state|province|region|village|island|county|mountains?|lake|area|district|coast|border|capital|valley|sea|peninsula|airport)$/
const WORK_NEXT = /^(?:album|song|single|novel|film|movie|book|series|game|poem|play|EP|track|magazine|record)$/
const PER_NEXT = /^(?:who|whose|himself|herself|was|is|has|had|born|died)$/
const LOWER = /^\p{Ll}/u
const OPEN_QUOTE = /^["“'‘]$/
const CLOSE_QUOTE = /^["”'’]$/
const capitalisedWord = (w: string) => CAPITAL.test(w)
/** Token i's text within sentence s, else '' (not a closure: contextOf runs for every entity). */
function word(t: readonly { text: string }[], i: number, s: { first: number; last: number }): string {
  return i >= s.first && i < s.last ? t[i].text : ''
}
/** Index of each context feature in contextOf's values. */
const C = Object.fromEntries(CONTEXT_FEATURES.map((f, i) => [f, i])) as Record<(typeof CONTEXT_FEATURES)[number], number>

/** The context values of an entity (CONTEXT_FEATURES, in order), read from the document's tokens. */
export function contextOf(e: Entity, r: Register): Float64Array {
  const v = zeroed(CONTEXT_FEATURES.length)
  const doc = r.doc
  if (!doc || !e.mentions.length) return v
  const t = doc.tokens
  let named = 0
  let initial = 0
  const forms = new Set<string>()
  let firstStart = Infinity
  const covered = new Set<number>()
  for (const m of e.mentions) {
    const s = doc.sentences[m.sent]
    const p = word(t, m.first - 1, s)
    const n = word(t, m.last, s)
    const p2 = word(t, m.first - 2, s)
    const n2 = word(t, m.last + 1, s)
    if (LOC_PREP.test(p)) v[C.prevLocPrep] = 1
    if (p === 'of') v[C.prevOf] = 1
    if (p === 'by') v[C.prevBy] = 1
    if (HONORIFIC.test(p)) v[C.prevHonorific] = 1
    if (LOWER.test(p) && !DETERMINER.test(p) && !LOC_PREP.test(p) && p !== 'of' && p !== 'and') v[C.prevLower] = 1
    if (p === ',') v[C.prevComma] = 1
    if (SAY.test(n)) v[C.nextSay] = 1
    if (POSSESSIVE.test(n)) v[C.nextPoss] = 1
    if (ORG_KIND_NEXT.test(n)) v[C.nextOrgKind] = 1
    if (LOC_KIND_NEXT.test(n)) v[C.nextLocKind] = 1
    if (WORK_NEXT.test(n)) v[C.nextWork] = 1
    if (PER_NEXT.test(n)) v[C.nextPerVerb] = 1
    if (LOWER.test(n)) v[C.nextLower] = 1
    if (n === ',') v[C.nextComma] = 1
    if (capitalisedWord(p) && m.first - 1 !== s.first && !HONORIFIC.test(p)) v[C.capBefore] = 1
    if (capitalisedWord(n)) v[C.capAfter] = 1
    if ((p === '(' || p === '[') && (n === ')' || n === ']')) v[C.inBrackets] = 1
    if (OPEN_QUOTE.test(p) && CLOSE_QUOTE.test(n)) v[C.quoted] = 1
    if ((LIST_JOIN.test(p) && capitalisedWord(p2)) || (LIST_JOIN.test(n) && capitalisedWord(n2))) v[C.inList] = 1
    forms.add(m.text)
    if (collapseSpaces(m.text).includes(e.name)) named++
    if (m.first === s.first) initial++
    firstStart = Math.min(firstStart, m.start)
    for (let i = m.first; i < m.last; i++) covered.add(i)
  }
  v[C.nameMentionShare] = named / e.mentions.length
  v[C.distinctForms] = Math.log(forms.size)
  v[C.sentStartShare] = initial / e.mentions.length
  v[C.firstPos] = firstStart / Math.max(1, doc.text.length)
  const ws = e.name.split(/\s+/)
  v[C.allInitialCap] = ws.every(capitalisedWord) ? 1 : 0
  // The name's other occurrences, found from the positions of its first word.
  r.positions ??= positionsOf(doc)
  const lw = ws.map((w) => w.toLowerCase())
  let unmentioned = 0
  for (const i of r.positions.get(lw[0]) ?? []) {
    if (covered.has(i) || i + ws.length > t.length) continue
    let same = true
    for (let j = 1; j < ws.length && same; j++) same = t[i + j].text.toLowerCase() === lw[j]
    if (!same) continue
    // The name opening another entity's longer name ("Google Play Music", "BBC Two") is a brand
    // or a parent named in its product or unit, not an occurrence the tagger left out.
    if ((r.opening?.get(i) ?? 0) > i + ws.length) continue
    if (t[i].text !== ws[0]) {
      v[C.lowerElsewhere] = 1
      continue
    }
    unmentioned++
    const s = doc.sentences[t[i].sent]
    if (capitalisedWord(word(t, i - 1, s)) || capitalisedWord(word(t, i + ws.length, s))) v[C.partOfLonger] = 1
  }
  v[C.unmentioned] = Math.log1p(unmentioned)
  const head = ws[ws.length - 1]
  for (const i of r.positions.get(head.toLowerCase()) ?? []) {
    if (covered.has(i) || covered.has(i - 1) || t[i].text !== head) continue
    if (i - 1 >= doc.sentences[t[i].sent].first && capitalisedWord(t[i - 1].text)) v[C.wordInOtherCap] = 1
  }
  return v
}
const LIST_JOIN = /^(?:,|and|or)$/
const POSSESSIVE = /^['’]s?$/

function positionsOf(doc: Tokenized): Map<string, number[]> {
  const m = new Map<string, number[]>()
  doc.tokens.forEach((tok, i) => {
    const k = tok.text.toLowerCase()
    const l = m.get(k)
    if (l) l.push(i)
    else m.set(k, [i])
  })
  return m
}

const squash = (m: number) => Math.log1p(Math.max(0, m))

// Vectors of every entity are views of a shared buffer, never handed out twice: a typed array of
// its own (off the heap at this size) cost three times as much to allocate.
let chunk = new ArrayBuffer(0)
let used = 0

/** A new zeroed Float64Array of n elements. */
function zeroed(n: number): Float64Array {
  if (used + 8 * n > chunk.byteLength) {
    chunk = new ArrayBuffer(Math.max(8 * n, 65536))
    used = 0
  }
  const v = new Float64Array(chunk, used, n)
  used += 8 * n
  return v
}

/** The feature vector of one entity (see CONFIDENCE_FEATURES). */
export function confidenceFeatures(e: Entity, ev: EntityEvidence): Float64Array {
  const x = zeroed(CONFIDENCE_FEATURES.length)
  const t = TYPE_INDEX[e.type]
  const tagged = ev.margins.filter((m) => !Number.isNaN(m))
  const max = tagged.length ? Math.max(...tagged) : 0
  const min = tagged.length ? Math.min(...tagged) : 0
  const mean = tagged.length ? tagged.reduce((a, b) => a + b, 0) / tagged.length : 0
  const words = e.name.split(/\s+/).length
  const classes = e.classes ?? 0
  let k = 0
  x[k++] = 1
  for (let j = 0; j < 4; j++) x[k++] = j === t ? 1 : 0
  for (let j = 0; j < 4; j++) x[k++] = j === t ? squash(max) : 0
  x[k++] = squash(mean)
  x[k++] = squash(min)
  // A title rule's evidence is `titled×OBJ` alone: counted as a rule's too, it pulled down the
  // weight of the other rules (whose names are right more often).
  const titled = e.type === 'OBJ' && ev.titled === true
  x[k++] = tagged.length === 0 && !titled ? 1 : 0
  x[k++] = tagged.length < ev.margins.length && !titled ? 1 : 0
  x[k++] = Math.log(e.mentions.length)
  x[k++] = e.mentions.length === 1 ? 1 : 0
  x[k++] = ev.agreeing / Math.max(1, e.mentions.length)
  x[k++] = words === 1 ? 1 : 0
  x[k++] = words === 2 ? 1 : 0
  x[k++] = words >= 3 ? 1 : 0
  x[k++] = /\p{L}/u.test(e.name) && !/\p{Ll}/u.test(e.name) ? 1 : 0
  x[k++] = /\p{N}/u.test(e.name) ? 1 : 0
  x[k++] = /(?:^|\s)\p{Ll}/u.test(e.name) ? 1 : 0
  // A short name is often a fragment, unless its context states what it is (a state's
  // abbreviation after a town, "Md.", or an agency in a dateline, "AP").
  x[k++] = e.name.replace(/[^\p{L}\p{N}]/gu, '').length <= 2 && !ev.stated ? 1 : 0
  x[k++] = classes & TRAINED[e.type] ? 1 : 0
  x[k++] = classes & TRAINED_ANY & ~TRAINED[e.type] ? 1 : 0
  x[k++] = classes & KNOWN[e.type] ? 1 : 0
  x[k++] = classes & bit('common') ? 1 : 0
  x[k++] = classes & bit('demonym') ? 1 : 0
  x[k++] = ev.sentenceInitialOnly ? 1 : 0
  x[k++] = ev.informal ? 1 : 0
  // Objects are right far less often than names, and differently in informal text.
  for (let j = 0; j < 4; j++) x[k++] = ev.informal && j === t ? 1 : 0
  x[k++] = e.type === 'OBJ' && /\p{N}/u.test(e.name) ? 1 : 0
  x[k++] = e.type === 'OBJ' && classes & KNOWN.OBJ ? 1 : 0
  x[k++] = e.type === 'OBJ' && classes & TRAINED.OBJ ? 1 : 0
  x[k++] = ev.stated ? 1 : 0
  // Kept apart from `stated`: a title's context says less than an apposition does.
  x[k++] = titled ? 1 : 0
  x[k++] = e.type === 'OBJ' && ev.workCue ? 1 : 0
  const r = ev.register
  x[k++] = r.sentenceWords
  x[k++] = r.capitalised
  x[k++] = r.capitalised * r.capitalised
  x[k++] = r.upper
  x[k++] = r.capitalisedCommon
  // By type: a person of ordinary words or after "the" is most often a defined term or a role;
  // an organization after "the" is ordinary ("the United Nations"). Not for objects: a product
  // after "the" is ordinary in a review ("the Bose QuietComfort"), if less often right in the corpora.
  for (let j = 0; j < 4; j++) x[k++] = ev.ordinaryWords && j === t ? 1 : 0
  for (let j = 0; j < 3; j++) x[k++] = ev.determined && j === t ? 1 : 0
  // An organization whose name says what kind it is ("City University of New York", "Ministry of
  // Defence"): the tagger's margin on such a name falls when its last words are a place's.
  x[k++] = orgKind(e) ? 1 : 0
  // An object that possesses something ("X 's Title") is most often the artist or author typed as a work.
  x[k++] = e.type === 'OBJ' && ev.possessor ? 1 : 0
  const c = contextOf(e, ev.register)
  for (let j = 0; j < c.length; j++) x[k + j * 4 + t] = c[j]
  return x
}

export interface ConfidenceModel {
  format: 'tea-entity-confidence-2'
  features: string[]
  weights: number[]
}

/**
 * The least confidence an entity needs to be reported, for every type: under it an entity is
 * more likely wrong than right. Not tuned per type: a lower cut raised the out-of-fold F1 of
 * objects only by reporting mostly wrong ones.
 */
export const REPORT_CUT = 0.5

export function loadConfidenceModel(path: string | URL): ConfidenceModel {
  const m = JSON.parse(readFileSync(path, 'utf8')) as ConfidenceModel
  if (m.format !== 'tea-entity-confidence-2' || m.features.join() !== CONFIDENCE_FEATURES.join()) {
    throw new Error(`entity confidence: model file ${String(path)} does not match this code's features`)
  }
  return m
}

export function confidenceOf(model: ConfidenceModel, x: Float64Array): number {
  let z = 0
  for (let k = 0; k < x.length; k++) z += model.weights[k] * x[k]
  return 1 / (1 + Math.exp(-z))
}
