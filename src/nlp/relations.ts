// Relations between entities: candidate pairs (pronouns resolved to the canonical entity) in
// one sentence or in two adjacent ones, a typed decision per pair, evidence and calibrated
// confidence.
//
// Every type that a corpus annotates (works_for, lives_in, located_in, killed, born_in,
// family_of, member_of, part_of, produces, owns, founded) is decided by a logistic regression
// of its own (one against the rest), trained on CoNLL04 and Re-DocRED over the engine's own
// entities. The entity types of the pair restrict which relation types are considered (a
// company does not work for a person, a city is no one's partner). The cue phrases are
// features of the classifier; only acquired, partner_of and competitor_of, which no corpus
// annotates, are read from cue phrases alone, with a confidence per phrase measured on a
// hand-labelled sample of their predictions.
import { readFileSync } from 'node:fs'
import type { Tokenized } from './tokens.ts'
import { nameKey, type Entity, type EntityType } from './entities.ts'
import type { RelationType } from './types.ts'
import { feat, fnv } from './features/hashing.ts'
import { lowerForms } from './features/document.ts'
import { GAZ_CLASSES } from './features/lexicon.ts'
import { calibrate, type Calibration } from './calibration.ts'
import { IdFloatMap } from './tables.ts'

/** A mention (or a resolved pronoun) pointing at its canonical entity. */
export interface Anchor {
  entity: Entity
  first: number
  last: number
  sent: number
  pronoun: boolean
}

export interface RelationCandidate {
  source: Anchor
  target: Anchor
  /** The source's sentence. */
  sent: number
  /** The target's sentence: `sent` or the one next to it. */
  sent2: number
}

const PRONOUN_TYPE: Record<string, EntityType> = {
  he: 'PER',
  him: 'PER',
  his: 'PER',
  she: 'PER',
  her: 'PER',
  hers: 'PER',
  himself: 'PER',
  herself: 'PER',
}

/**
 * Entities the relation step reads: down to this entity confidence, under the cut at which an
 * entity is reported (REPORT_CUT); one that fills a reported relation is then reported too (the
 * relation is evidence for it). Chosen on out-of-fold relations over the fold taggers' entities,
 * where many entities of unseen text that relations need sit just under the report cut
 * (docs/experiments/relations.md).
 */
export const RELATION_ENTITY_CUT = 0.3

/**
 * The paragraph of each sentence: a line break between two sentences starts a new one. Facts
 * are read across sentences only within a paragraph (a heading, a dateline line, a list item or
 * a new paragraph is no continuation of the sentence before).
 */
export function paragraphsOf(doc: Tokenized): Int32Array {
  const out = new Int32Array(doc.sentences.length)
  for (let s = 1; s < doc.sentences.length; s++)
    out[s] = out[s - 1] + (doc.text.slice(doc.sentences[s - 1].end, doc.sentences[s].start).includes('\n') ? 1 : 0)
  return out
}

/**
 * Anchors per sentence. A personal pronoun resolves to the most recent person mentioned in
 * the same or the two previous sentences of its paragraph (no gender model: the most recent one wins),
 * or to the paragraph's subject (paragraphSubjects) where it opens a later sentence or no person is that near.
 */
export function anchorsBySentence(doc: Tokenized, entities: Entity[]): Anchor[][] {
  const para = paragraphsOf(doc)
  const bySent: Anchor[][] = doc.sentences.map(() => [])
  const mentionAt = new Map<number, { last: number; e: Entity }>()
  for (const e of entities) for (const m of e.mentions) mentionAt.set(m.first, { last: m.last, e })
  const subjects = paragraphSubjects(doc, para, mentionAt)
  let lastPerson: { e: Entity; sent: number } | undefined
  const toks = doc.tokens
  for (let i = 0; i < toks.length; i++) {
    const hit = mentionAt.get(i)
    if (hit) {
      bySent[toks[i].sent].push({ entity: hit.e, first: i, last: hit.last, sent: toks[i].sent, pronoun: false })
      if (hit.e.type === 'PER') lastPerson = { e: hit.e, sent: toks[i].sent }
      i = hit.last - 1
      continue
    }
    const t = toks[i]
    if (t.pos !== 'PRON' && t.pos !== 'DET') continue
    const type = PRONOUN_TYPE[t.text.toLowerCase()]
    if (!type) continue
    const near = lastPerson && t.sent - lastPerson.sent <= 2 && para[t.sent] === para[lastPerson.sent] ? lastPerson.e : undefined
    const subject = subjects.get(t.sent)
    const opens = i === doc.sentences[t.sent].first
    const e = subject && (opens || !near) ? subject : near
    if (e) bySent[t.sent].push({ entity: e, first: i, last: i + 1, sent: t.sent, pronoun: true })
  }
  return bySent
}

/**
 * The person a paragraph is about, by sentence: where the paragraph opens with a person's name
 * (an encyclopaedia article's first words), that person, for the paragraph's later sentences. A
 * pronoun opening one of them ("His children included …", "She is the sister of …") is the subject
 * far more often than the person named last.
 */
function paragraphSubjects(doc: Tokenized, para: Int32Array, mentionAt: Map<number, { last: number; e: Entity }>): Map<number, Entity> {
  const out = new Map<number, Entity>()
  let subject: Entity | undefined
  for (let s = 0; s < doc.sentences.length; s++) {
    if (s === 0 || para[s] !== para[s - 1]) {
      subject = undefined
      const first = doc.sentences[s].first
      for (let i = first; i < Math.min(first + 3, doc.sentences[s].last); i++) {
        const hit = mentionAt.get(i)
        if (hit) {
          subject = hit.e.type === 'PER' ? hit.e : undefined
          break
        }
      }
    } else if (subject) out.set(s, subject)
  }
  return out
}

const MAX_GAP = 30
/** Sentences with more names than this are tables and lists: no relations read there. */
const MAX_ANCHORS = 40

/**
 * Ordered pairs of distinct entities: within a sentence (each mention pair once, at most
 * MAX_GAP tokens apart), and across two adjacent sentences of one paragraph (`paragraphs`, by
 * sentence: paragraphsOf) for the entity pairs that share no sentence ("Schneider … He coached
 * the Russian team"); with `places`, a place and its country (or its region: inRegion) anywhere in one paragraph.
 */
export function candidatePairs(anchors: Anchor[][], paragraphs: Int32Array, places?: PlaceTable): RelationCandidate[] {
  const out: RelationCandidate[] = []
  // Pairs seen together, by the numbers of their entities' names and types: the pairs are
  // tested many times over (every two first mentions of a paragraph), a name each only once.
  const together = new Set<number>()
  const number = entityNumbers(anchors)
  for (let s = 0; s < anchors.length; s++) {
    const list = anchors[s]
    if (list.length > MAX_ANCHORS) continue
    for (let a = 0; a < list.length; a++) {
      for (let b = 0; b < list.length; b++) {
        if (a === b) continue
        const x = list[a]
        const y = list[b]
        if (x.entity === y.entity || (x.pronoun && y.pronoun)) continue
        together.add(pairKey(number, x, y))
        // Farther apart than this, sentence-level relations are rare and the pairs many.
        if ((x.first < y.first ? y.first - x.last : x.first - y.last) > MAX_GAP) continue
        out.push({ source: x, target: y, sent: s, sent2: s })
      }
    }
  }
  for (let s = 0; s + 1 < anchors.length; s++) {
    const l1 = anchors[s]
    const l2 = anchors[s + 1]
    if (!l1.length || !l2.length || l1.length > MAX_ANCHORS || l2.length > MAX_ANCHORS || paragraphs[s] !== paragraphs[s + 1]) continue
    for (const x of l1) {
      for (const y of l2) {
        if (x.entity === y.entity || x.pronoun || y.pronoun) continue
        if (together.has(pairKey(number, x, y))) continue
        out.push({ source: x, target: y, sent: s, sent2: s + 1 })
        out.push({ source: y, target: x, sent: s + 1, sent2: s })
      }
    }
    for (const x of l1) for (const y of l2) together.add(pairKey(number, x, y)).add(pairKey(number, y, x))
  }
  if (places) {
    // A place and its country (or its region) anywhere in a paragraph: their first mentions there.
    const firsts: Anchor[] = []
    const seen = new Map<Entity, number>()
    for (const list of anchors)
      for (const a of list)
        if (!a.pronoun && seen.get(a.entity) !== paragraphs[a.sent]) {
          seen.set(a.entity, paragraphs[a.sent])
          firsts.push(a)
        }
    for (const x of firsts)
      for (const y of firsts) {
        if (x === y || paragraphs[x.sent] !== paragraphs[y.sent] || together.has(pairKey(number, x, y))) continue
        // A country the paragraph names contains its places and organizations, however far apart.
        const country =
          y.entity.type === 'LOC' && ((y.entity.classes ?? 0) & COUNTRY_BIT) !== 0 && (x.entity.type === 'LOC' || x.entity.type === 'ORG')
        if (!country && !inCountry(places, x.entity, y.entity) && !inRegion(places, x.entity, y.entity)) continue
        out.push({ source: x, target: y, sent: x.sent, sent2: y.sent })
      }
  }
  return out
}

/** The key of an ordered pair of anchors' entities among those numbered by entityNumbers. */
function pairKey(number: Map<Entity, number>, x: Anchor, y: Anchor): number {
  return number.get(x.entity)! * number.size + number.get(y.entity)!
}

/** A number per entity of the anchors, the same for two entities of one name and type. */
function entityNumbers(anchors: Anchor[][]): Map<Entity, number> {
  const byName = new Map<string, number>()
  const out = new Map<Entity, number>()
  for (const list of anchors)
    for (const a of list) {
      if (out.has(a.entity)) continue
      const key = a.entity.name + '\u0000' + a.entity.type
      let k = byName.get(key)
      if (k === undefined) byName.set(key, (k = byName.size))
      out.set(a.entity, k)
    }
  return out
}

/** The relation types the classifier considers for an ordered pair of entity types. */
export const LEARNED_TYPES: Partial<Record<string, RelationType[]>> = {
  'PER>ORG': ['works_for', 'member_of', 'founded'],
  'PER>LOC': ['lives_in', 'born_in'],
  'ORG>LOC': ['located_in'],
  'LOC>LOC': ['located_in'],
  'PER>PER': ['killed', 'family_of'],
  'ORG>ORG': ['part_of', 'owns', 'member_of'],
  'ORG>OBJ': ['produces', 'owns'],
  'LOC>ORG': ['member_of'],
}

/** Types decided by the classifier, in a fixed order (their index is hashed into the features). */
export const CLASSIFIED: RelationType[] = [
  'works_for',
  'lives_in',
  'located_in',
  'killed',
  'born_in',
  'family_of',
  'member_of',
  'part_of',
  'produces',
  'owns',
  'founded',
]

/** Types read from cue phrases alone: no corpus we have annotates them. */
export const PATTERN_ONLY: RelationType[] = ['acquired', 'partner_of', 'competitor_of']

/** Types whose two directions are one fact: reported both ways with the same confidence. */
const SYMMETRIC = new Set<RelationType>(['family_of'])
/** Types of which only the likelier direction of a pair is reported. */
const ONE_WAY = new Set<RelationType>(['located_in', 'killed'])

export interface Pattern {
  type: RelationType
  src: EntityType[]
  tgt: EntityType[]
  /** Matched against the lower-cased words between source and target (source first). */
  between: RegExp
  /** Set when the target comes first in the text ("X's founder Y"): matched the same way. */
  reversed?: boolean
}

// Cue phrases. Their index is a feature of the classifier and the key of a pattern-only type's
// measured precision: append, never reorder.
export const PATTERNS: Pattern[] = [
  { type: 'born_in', src: ['PER'], tgt: ['LOC'], between: /\bborn\b.*\b(in|at)\b|\bnative of\b|\bbirthplace\b/ },
  {
    type: 'founded',
    src: ['PER', 'ORG'],
    tgt: ['ORG'],
    between: /\b(co-?)?found(ed|s|ing)\b|\b(co-?)?founder of\b|\bestablished\b|\bset up\b|\bcreated\b|\bstarted\b/,
  },
  {
    type: 'founded',
    src: ['PER'],
    tgt: ['ORG'],
    between: /^(,|'s|’s)?\s*(co-?)?founders?\b|^(,|'s|’s)?\s*the (co-?)?founders?\b/,
    reversed: true,
  },
  {
    type: 'acquired',
    src: ['ORG', 'PER'],
    tgt: ['ORG', 'OBJ'],
    between:
      /\b(acquired?|acquires|acquiring|bought|buys|buying|purchased?|purchases|took over|takes over|take over|takeover of|acquisition of)\b/,
  },
  {
    type: 'part_of',
    src: ['ORG', 'LOC'],
    tgt: ['ORG'],
    between: /\b(part|division|unit|subsidiary|arm|branch|department|wing|affiliate) of\b/,
  },
  {
    type: 'member_of',
    src: ['PER', 'ORG', 'LOC'],
    tgt: ['ORG'],
    between: /\bmembers? of\b|\bjoined\b|\bplays? for\b|\bplayed for\b|\bsigned (with|for)\b|\bmembership (in|of)\b/,
  },
  {
    type: 'owns',
    src: ['PER', 'ORG'],
    tgt: ['ORG', 'OBJ', 'LOC'],
    between: /\b(owns|owned|owner of|parent( company)? of|controls|stake in)\b/,
  },
  {
    type: 'owns',
    src: ['PER', 'ORG'],
    tgt: ['ORG', 'OBJ'],
    between: /^(,|'s|’s)?\s*(the )?(owner|parent( company)?)\b|^\s*is owned by\b|^,? owned by\b/,
    reversed: true,
  },
  {
    type: 'produces',
    src: ['ORG', 'PER'],
    tgt: ['OBJ'],
    between:
      /\b(makes?|made|makers? of|produces?|produced|producer of|manufactures?|manufactured|manufacturer of|released?|launch(ed|es)?|unveil(ed|s)?|develop(ed|s)?|developer of|built|builds|designed|wrote|written|directed|publish(ed|es))\b|^(’s|'s)$/,
  },
  {
    type: 'produces',
    src: ['ORG', 'PER'],
    tgt: ['OBJ'],
    between:
      /^\s*(is|was)? ?(made|produced|manufactured|developed|built|designed|released|published|written|directed) by\b|^,? (made|built|developed|designed|produced) by\b/,
    reversed: true,
  },
  // A partnership or a rivalry is between two organizations or two persons, never a place.
  {
    type: 'partner_of',
    src: ['ORG', 'PER'],
    tgt: ['ORG', 'PER'],
    between:
      /\bpartner(ed|ing|ship|s)? (with|of)\b|\bteamed up with\b|\balliance with\b|\bjoint venture with\b|\bcollaborat(ed|ing|ion) with\b|\bpartnership between\b/,
  },
  {
    type: 'competitor_of',
    src: ['ORG', 'PER'],
    tgt: ['ORG', 'PER'],
    between: /\brivals?\b|\bcompetitors?\b|\bcompet(es|ed|ing) (with|against)\b|\bcompetition (with|from)\b|\bbattle with\b/,
  },
  {
    type: 'family_of',
    src: ['PER'],
    tgt: ['PER'],
    between:
      /\b(wife|husband|son|daughter|brother|sister|father|mother|widow|widower|cousin|uncle|aunt|nephew|niece|grandson|granddaughter|grandfather|grandmother|spouse|sibling|parents?|child|children)\b|\bmarried\b/,
  },
  {
    type: 'works_for',
    src: ['PER'],
    tgt: ['ORG'],
    between:
      /\b(chief executive|ceo|chairman|chairwoman|president|director|head|founder|employee|spokes(man|woman|person)|professor|manager|editor|worked|works|working|employed|hired|appointed|coach|leader) (of|at|for|with)\b/,
  },
  {
    type: 'located_in',
    src: ['ORG', 'LOC'],
    tgt: ['LOC'],
    between:
      /\b(headquartered|based|located|situated|lies|capital|city|town|village|municipality|county|district|province|region|state) (in|of)\b|^,$/,
  },
  {
    type: 'lives_in',
    src: ['PER'],
    tgt: ['LOC'],
    between: /\b(lives?|lived|living|resides?|resided|residing|settled|moved) (in|to)\b|\bresident of\b|\bhome in\b/,
  },
]

/** Feature of a cue phrase as the classifier of its own type reads it (trained from a prior, see train-relations.ts). */
export function patternFeature(k: number): number {
  return feat(R.pat, k)
}

/** Lower-cased words between the two mentions of a candidate, earlier one first. */
function betweenText(doc: Tokenized, from: number, to: number): string {
  let out = ''
  for (let i = from; i < to; i++) out += (i > from ? ' ' : '') + doc.tokens[i].text.toLowerCase()
  return out
}

/** Indexes of the cue phrases that match a same-sentence candidate, ignoring entity types. */
export function matchingPatterns(doc: Tokenized, c: RelationCandidate): number[] {
  if (c.sent !== c.sent2) return []
  const { source: s, target: t } = c
  const forward = s.first < t.first
  const [a, b] = forward ? [s, t] : [t, s]
  if (b.first - a.last > 14) return []
  const bits = patternBits(betweenText(doc, a.last, b.first))
  const out: number[] = []
  for (let k = 0; k < PATTERNS.length; k++) if (bits & (1 << k) && !!PATTERNS[k].reversed !== forward) out.push(k)
  return out
}

// The same few texts come between most pairs ("", ",", "and", "of the"), and a pair is often a
// candidate both ways round: each text's matches are found once, by every pattern, and kept (a
// pure function of the text; the map is emptied when it grows large, so it stays bounded).
const PATTERN_BITS = new Map<string, number>()
const MAX_PATTERN_TEXTS = 4096
if (PATTERNS.length > 31) throw new Error(`relations: ${PATTERNS.length} cue patterns do not fit the bits of patternBits`)

/** Bit k set when PATTERNS[k].between matches `between`. */
function patternBits(between: string): number {
  let bits = PATTERN_BITS.get(between)
  if (bits === undefined) {
    bits = 0
    for (let k = 0; k < PATTERNS.length; k++) if (PATTERNS[k].between.test(between)) bits |= 1 << k
    if (PATTERN_BITS.size >= MAX_PATTERN_TEXTS) PATTERN_BITS.clear()
    PATTERN_BITS.set(between, bits)
  }
  return bits
}

/** The pattern-only relation (type and cue-phrase index) a candidate expresses, if any. */
export function patternOnlyMatch(c: RelationCandidate, matched: number[]): { type: RelationType; pattern: number } | undefined {
  for (const k of matched) {
    const p = PATTERNS[k]
    if (!PATTERN_ONLY.includes(p.type)) continue
    if (!p.src.includes(c.source.entity.type) || !p.tgt.includes(c.target.entity.type)) continue
    if (c.source.pronoun || c.target.pronoun) continue
    // A rivalry or partnership joins two of a kind: a person and a company are neither.
    if (p.type !== 'acquired' && c.source.entity.type !== c.target.entity.type) continue
    return { type: p.type, pattern: k }
  }
  return undefined
}

// Head words that contradict an argument's role, whatever the tagger said: a "person" named
// after a job title ("CEO") works for no one, and a "place" whose head is an institution
// ("Black Sea Fleet", "St Petersburg University") is no one's home or birthplace.
const ROLE_WORDS = new Set(
  (
    'ceo cfo coo cto chairman chairwoman chairperson president vice director manager executive ' +
    'founder spokesman spokeswoman spokesperson secretary minister chief officer head analyst editor'
  ).split(' '),
)
const INSTITUTION_HEADS = new Set(
  (
    'fleet army navy corps brigade division regiment battalion squadron university college ' +
    'school academy institute museum bank company corporation inc ltd corp group party council committee ministry ' +
    'department agency association union league club team church hospital court parliament assembly commission'
  ).split(' '),
)

// Heads that name a company, never a person ("Acme Robotics" read as a person works for no one).
const COMPANY_HEADS = new Set(
  (
    'robotics technologies technology systems software labs laboratories motors airlines airways ' +
    'pharmaceuticals industries holdings partners capital ventures networks media communications electronics energy'
  ).split(' '),
)

/** Whether an entity may fill an argument of a relation, beyond its entity type. */
export function argumentFits(e: Entity): boolean {
  const ws = e.name.toLowerCase().split(/\s+/)
  const head = ws[ws.length - 1].replace(/[.,]$/, '')
  if (e.type === 'PER') {
    if (ROLE_WORDS.has(head) && (ws.length === 1 || ROLE_WORDS.has(ws[0]))) return false
    return !INSTITUTION_HEADS.has(head) && !COMPANY_HEADS.has(head)
  }
  if (e.type === 'LOC') return !INSTITUTION_HEADS.has(head)
  // An organization's name does not start with a job title ("CEO Jane").
  if (e.type === 'ORG') return !(ws.length > 1 && ROLE_WORDS.has(ws[0]) && ws[0] !== 'head')
  return true
}

/** argumentFits(e), remembered in `fits`. */
function fitsOnce(fits: Map<Entity, boolean>, e: Entity): boolean {
  let f = fits.get(e)
  if (f === undefined) fits.set(e, (f = argumentFits(e)))
  return f
}

/** Hash of a place name as the place table keys it (case, dots and spacing ignored). */
export function placeKey(name: string): number {
  return fnv(nameKey(name))
}

/** placeKey of an entity's name, kept in the document's context. */
function entityPlaceKey(ctx: DocContext, e: Entity): number {
  let k = ctx.placeKeys.get(e)
  if (k === undefined) ctx.placeKeys.set(e, (k = placeKey(e.name)))
  return k
}

/** Key of a nationality word ("Haitian") in the place table, apart from the place names. */
export function demonymKey(word: string): number {
  return placeKey('\u0001' + word)
}

/** Place-name hash → country index × 2 (+1 for the country's own name); see scripts/nlp/places.ts. Nationality words under demonymKey. */
export type PlaceTable = { get(key: number): number | undefined }

/** Far apart in a document, a place and its country: the one pair read across any distance. */
export function inCountry(places: PlaceTable | undefined, x: Entity, y: Entity): boolean {
  if (!places || x.type !== 'LOC' || y.type !== 'LOC') return false
  const a = places.get(placeKey(x.name))
  const b = places.get(placeKey(y.name))
  return a !== undefined && b !== undefined && (a & 1) === 0 && (b & 1) === 1 && a >> 1 === b >> 1
}

const REGION_BIT = 1 << GAZ_CLASSES.indexOf('region')

/**
 * Far apart in a paragraph, a place or an organization and a region (a state, a province) the
 * paragraph names: an article names a town and, sentences later, its state. Not a country in a
 * region, nor two places the place table puts in different countries.
 */
export function inRegion(places: PlaceTable | undefined, x: Entity, y: Entity): boolean {
  if (y.type !== 'LOC' || !((y.classes ?? 0) & REGION_BIT) || ((y.classes ?? 0) & COUNTRY_BIT) !== 0) return false
  if (x.type !== 'LOC' && x.type !== 'ORG') return false
  if ((x.classes ?? 0) & COUNTRY_BIT) return false
  const a = places?.get(placeKey(x.name))
  const b = places?.get(placeKey(y.name))
  if (a !== undefined && (a & 1) === 1) return false
  return a === undefined || b === undefined || a >> 1 === b >> 1
}

export interface RelationModel {
  /** Place name → country, for the place features and the far pairs. */
  places?: PlaceTable
  /** Feature id → weight. */
  weights: IdFloatMap
  /** Per classified type: the map from classifier probability to confidence (key "type*": where a cue phrase of the type matched) … */
  calibration: Record<string, Calibration>
  /** … and the lowest confidence at which a relation of that type is reported. */
  threshold: Partial<Record<RelationType, number>>
  /** Confidence of a pattern-only relation, by cue-phrase index (measured on labelled predictions). */
  patternConfidence: Record<string, number>
}

const bucket = (n: number) => (n <= 0 ? 0 : n <= 2 ? n : n <= 4 ? 3 : n <= 7 ? 4 : n <= 12 ? 5 : 6)
const TYPE_ID: Record<EntityType, number> = { PER: 1, ORG: 2, LOC: 3, OBJ: 4 }

// Feature templates. Never renumber: baked into the model file.
const R = {
  bias: 1,
  tp: 2,
  ord: 3,
  dist: 4,
  bw: 5,
  bb: 6,
  bf: 7,
  bl: 8,
  far: 9,
  verbs: 10,
  pre: 11,
  post: 12,
  app: 13,
  poss: 14,
  adj: 15,
  spron: 16,
  tpron: 17,
  commas: 18,
  shead: 19,
  thead: 20,
  trank: 21,
  srank: 22,
  ranks: 23,
  uw: 24,
  sgaz: 25,
  tgaz: 26,
  smc: 27,
  tmc: 28,
  crowd: 29,
  dsyn: 30,
  dord: 31,
  ctx2: 32,
  pat: 33,
  patTp: 34,
  xs: 35,
  xsOrd: 36,
  xsPre: 37,
  xsPost: 38,
  first: 39,
  sal: 40,
  cooc: 41,
  only: 42,
  typed: 43,
  xsHead: 44,
  xsGaz: 45,
  sentPos: 46,
  place: 47,
  far2: 48,
  bagPat: 49,
  bagBw: 50,
  bagN: 51,
  surname: 52,
  okind: 53,
  prole: 54,
  docLen: 55,
  pairCue: 57,
  pairCueFar: 60,
  killCue: 70,
  orgSide: 72,
  kinList: 73,
  placeName: 80,
  agentBy: 85,
  orgPairCue: 86,
  bagCue: 87,
  profile: 88,
  pronCue: 89,
  agentByFar: 95,
  orgNames: 96,
  nameList: 101,
  nearerCue: 104,
} as const

export const RELATION_BIAS = feat(R.bias, 0)

/** Lower-cased word hashes of a document's tokens (computed once per document, read-only). */
export function wordHashes(doc: Tokenized): Uint32Array {
  return lowerForms(doc).hashes
}

const COMMA = fnv(',')
const POSSESSIVE = new Set([fnv("'s"), fnv('’s')])
const COUNTRY_BIT = 1 << GAZ_CLASSES.indexOf('country')

/** What the features read of the whole document: computed once per document. */
export interface DocContext {
  /** Entities by salience rank within their type (0 = most salient). */
  rank: Map<Entity, number>
  /** The entity of the document's first mention (the subject of an encyclopaedia article). */
  firstEntity: Entity | undefined
  /** Number of known countries among the places. */
  countries: number
  /** Number of sentences in which both entities of a pair appear (by "source\0target" names). */
  cooc: Map<Entity, Map<Entity, number>>
  /** A person's role classes (personRoles), filled when first read. */
  roles: Map<Entity, number>
  /** An entity's placeKey, filled when first read: each is read for every pair it is in. */
  placeKeys: Map<Entity, number>
}

export function docContext(anchors: Anchor[][], entities: Entity[]): DocContext {
  const rank = new Map<Entity, number>()
  const seen = new Map<EntityType, number>()
  let countries = 0
  // Entities arrive most salient first.
  for (const e of entities) {
    const n = seen.get(e.type) ?? 0
    rank.set(e, n)
    seen.set(e.type, n + 1)
    if (e.type === 'LOC' && (e.classes ?? 0) & COUNTRY_BIT) countries++
  }
  let firstEntity: Entity | undefined
  let firstAt = Infinity
  for (const e of entities)
    if (e.mentions[0] && e.mentions[0].first < firstAt) {
      firstAt = e.mentions[0].first
      firstEntity = e
    }
  const cooc = new Map<Entity, Map<Entity, number>>()
  for (const list of anchors) {
    const es = [...new Set(list.map((a) => a.entity))]
    for (const x of es) {
      let m = cooc.get(x)
      if (!m) cooc.set(x, (m = new Map<Entity, number>()))
      for (const y of es) if (x !== y) m.set(y, (m.get(y) ?? 0) + 1)
    }
  }
  return { rank, firstEntity, countries, cooc, roles: new Map(), placeKeys: new Map() }
}

// The kind of organization a name says it is: a party or a team is joined (member_of), a
// company or a university employs (works_for). Checked last word first ("Democratic Party of
// Japan" is a party, "University of Tokyo" a university).
const ORG_KINDS: [number, string][] = [
  [1, 'party congress front movement alliance bloc caucus coalition league union federation'],
  [2, 'fc f.c. club team united athletic athletics sox rangers'],
  [3, 'university college institute school academy conservatory conservatoire polytechnic seminary'],
  [4, 'inc inc. corp corp. corporation company co co. ltd ltd. llc plc ag gmbh group holdings industries bank airlines records'],
  [5, 'ministry department agency bureau commission council office administration authority government army navy force corps fleet'],
  [6, 'times news post tribune herald journal gazette magazine television tv radio broadcasting network press'],
  [7, 'church order society foundation fund association orchestra choir band ensemble quartet trio'],
]
const ORG_KIND = new Map<string, number>()
for (const [k, ws] of ORG_KINDS) for (const w of ws.split(' ')) ORG_KIND.set(w, k)

/** The kind of organization (ORG_KINDS) its name says, or 0. */
export function orgKind(e: Entity): number {
  if (e.type !== 'ORG') return 0
  const ws = e.name.toLowerCase().split(/\s+/)
  for (let i = ws.length - 1; i >= 0; i--) {
    const k = ORG_KIND.get(ws[i])
    if (k) return k
  }
  return 0
}

/** Word hash → class, from classes of space-separated words. */
function wordClasses(classes: [number, string][]): Map<number, number> {
  const m = new Map<number, number>()
  for (const [k, ws] of classes) for (const w of ws.split(' ')) m.set(fnv(w), k)
  return m
}

// Role words said of a person near a mention ("the singer X", "X is an American footballer"):
// which kind of organization the person belongs to or works for.
const ROLE_CLASSES: [number, string][] = [
  [0, 'singer songwriter singer-songwriter guitarist drummer bassist keyboardist vocalist musician rapper frontman pianist band'],
  [1, 'player footballer striker midfielder defender goalkeeper pitcher quarterback athlete cricketer wrestler coach'],
  [2, 'politician senator congressman congresswoman legislator deputy minister governor mayor representative mp chairman'],
  [3, 'professor lecturer scientist researcher physicist chemist biologist mathematician economist scholar academic historian dean'],
  [4, 'ceo executive businessman businesswoman entrepreneur founder president director manager employee engineer banker'],
  [5, 'journalist editor reporter correspondent presenter broadcaster columnist'],
  [6, 'officer general admiral commander soldier colonel lieutenant'],
  [7, 'member'],
]
const ROLE_CLASS = wordClasses(ROLE_CLASSES)

/** Bits of ROLE_CLASSES said within a few words of a person's first mentions (4 before, 10 after, in its sentence). */
export function personRoles(doc: Tokenized, words: Uint32Array, e: Entity, ctx: DocContext): number {
  let bits = ctx.roles.get(e)
  if (bits !== undefined) return bits
  bits = 0
  if (e.type === 'PER')
    for (const m of e.mentions.slice(0, 3)) {
      const sent = doc.sentences[doc.tokens[m.first].sent]
      for (let i = Math.max(sent.first, m.first - 4); i < Math.min(sent.last, m.last + 10); i++) {
        if (i >= m.first && i < m.last) continue
        const k = ROLE_CLASS.get(words[i])
        if (k !== undefined) bits |= 1 << k
      }
    }
  ctx.roles.set(e, bits)
  return bits
}

/** Two persons named with the same family name (both with more than one word): 1, else 0. */
export function sharedSurname(a: Entity, b: Entity): number {
  if (a.type !== 'PER' || b.type !== 'PER') return 0
  const x = a.name.split(/\s+/)
  const y = b.name.split(/\s+/)
  return x.length > 1 && y.length > 1 && x[x.length - 1].toLowerCase() === y[y.length - 1].toLowerCase() ? 1 : 0
}

/**
 * Features (hashed, see features/hashing.ts) of a candidate pair, shared by every relation type; the
 * classifier of type k reads each as `typedFeature(f, k)`.
 */
export function relationFeatures(
  doc: Tokenized,
  words: Uint32Array,
  c: RelationCandidate,
  anchors: Anchor[][],
  ctx: DocContext,
  matched: number[],
  places?: PlaceTable,
): number[] {
  const { source: s, target: t } = c
  // A state joins an organization as an organization does: no corpus has the pair otherwise.
  const sType = s.entity.type === 'LOC' && t.entity.type === 'ORG' ? 'ORG' : s.entity.type
  const tp = TYPE_ID[sType] * 8 + TYPE_ID[t.entity.type]
  const forward = s.first < t.first
  const [a, b] = forward ? [s, t] : [t, s]
  const toks = doc.tokens
  const f: number[] = [RELATION_BIAS, feat(R.tp, tp)]
  // What the document says of the pair as a whole: its main actors and containers.
  const sr = Math.min(ctx.rank.get(s.entity) ?? 3, 3)
  const tr = Math.min(ctx.rank.get(t.entity) ?? 3, 3)
  f.push(feat(R.sal, sr * 4 + tr, tp))
  f.push(feat(R.first, (ctx.firstEntity === s.entity ? 1 : 0) + (ctx.firstEntity === t.entity ? 2 : 0), tp))
  f.push(feat(R.cooc, Math.min(ctx.cooc.get(s.entity)?.get(t.entity) ?? 0, 3), tp))
  if ((t.entity.classes ?? 0) & COUNTRY_BIT) f.push(feat(R.only, Math.min(ctx.countries, 3), tp))
  f.push(feat(R.smc, Math.min(s.entity.mentions.length, 3), tp), feat(R.tmc, Math.min(t.entity.mentions.length, 3), tp))
  f.push(feat(R.sentPos, Math.min(c.sent, 2) * 4 + Math.min(c.sent2, 2), tp))
  // How long the text is: a short news item and an encyclopaedia article state different
  // shares of what they name (lets one calibration serve both).
  f.push(feat(R.docLen, bucket(doc.sentences.length), tp))
  for (let bit = 0; bit < 7; bit++) {
    if ((s.entity.classes ?? 0) & (1 << bit)) f.push(feat(R.sgaz, bit, tp))
    if ((t.entity.classes ?? 0) & (1 << bit)) f.push(feat(R.tgaz, bit, tp))
  }
  // Who the persons are and what the organization is: joined or employed, kin or not.
  if (sType === 'PER' && t.entity.type === 'PER') f.push(feat(R.surname, sharedSurname(s.entity, t.entity), tp))
  if (t.entity.type === 'ORG') {
    const kind = orgKind(t.entity)
    f.push(feat(R.okind, kind, tp))
    if (s.entity.type === 'PER') {
      const roles = personRoles(doc, words, s.entity, ctx)
      for (let r = 0; r < ROLE_CLASSES.length; r++)
        if (roles & (1 << r)) f.push(feat(R.prole, r * 16 + kind, tp), feat(R.prole, r * 16 + 15, tp))
    }
  }
  if (s.pronoun) f.push(feat(R.spron, tp))
  if (t.pronoun) f.push(feat(R.tpron, tp))
  f.push(feat(R.shead, words[s.last - 1], tp), feat(R.thead, words[t.last - 1], tp))
  for (const k of matched) f.push(feat(R.pat, k), feat(R.patTp, k, tp))
  if (places) {
    // Known places: the same country (a town and its country), another one, or both countries.
    const a1 = places.get(entityPlaceKey(ctx, s.entity))
    const b1 = places.get(entityPlaceKey(ctx, t.entity))
    if (a1 !== undefined && b1 !== undefined) f.push(feat(R.place, (a1 >> 1 === b1 >> 1 ? 1 : 2) + 4 * (a1 & 1) + 8 * (b1 & 1), tp))
    else f.push(feat(R.place, (a1 === undefined ? 0 : 16 + (a1 & 1)) + (b1 === undefined ? 0 : 32 + 2 * (b1 & 1)), tp))
  }

  if (places) pushPlaceNames(f, doc, s, t, places, tp)
  pushOrgNames(f, s.entity, t.entity, tp)

  if (c.sent !== c.sent2) {
    // Two sentences: what each mention's neighbourhood says, and which comes first.
    f.push(feat(R.xs, tp), feat(R.xsOrd, forward ? 1 : 0, tp))
    if (Math.abs(c.sent - c.sent2) > 1) f.push(feat(R.far2, tp))
    const s1 = doc.sentences[a.sent]
    const s2 = doc.sentences[b.sent]
    f.push(feat(R.xsPre, a.first > s1.first ? words[a.first - 1] : 1, tp * 2 + (forward ? 1 : 0)))
    f.push(feat(R.xsPost, a.last < s1.last ? words[a.last] : 2, tp * 2 + (forward ? 1 : 0)))
    f.push(feat(R.xsPre, b.first > s2.first ? words[b.first - 1] : 1, 100 + tp * 2 + (forward ? 1 : 0)))
    f.push(feat(R.xsPost, b.last < s2.last ? words[b.last] : 2, 100 + tp * 2 + (forward ? 1 : 0)))
    f.push(feat(R.xsHead, Math.min(a.first - s1.first, 3) * 4 + Math.min(b.first - s2.first, 3), tp))
    f.push(feat(R.crowd, bucket(anchors[a.sent].length) * 8 + bucket(anchors[b.sent].length), tp + 100))
    pushPersonProfile(f, doc, words, s, t, anchors, tp)
    return f
  }

  const sentAnchors = anchors[c.sent]
  const sent = doc.sentences[c.sent]
  const dist = b.first - a.last
  f.push(feat(R.ord, forward ? 1 : 0, tp), feat(R.dist, bucket(dist), tp))
  let verbs = 0
  let commas = 0
  for (let i = a.last; i < b.first; i++) {
    if (toks[i].pos === 'VERB') verbs++
    if (words[i] === COMMA) commas++
  }
  if (dist <= 12) {
    for (let i = a.last; i < b.first; i++) f.push(feat(R.bw, words[i], tp), feat(R.uw, words[i]))
    for (let i = a.last; i + 1 < b.first; i++) f.push(feat(R.bb, feat(0, words[i], words[i + 1]), forward ? 1 : 0))
    if (dist > 0) f.push(feat(R.bf, words[a.last], tp), feat(R.bl, words[b.first - 1], tp))
  } else f.push(feat(R.far, tp))
  f.push(feat(R.verbs, Math.min(verbs, 2), tp))
  pushPairCues(f, words, s, t, a, b, sent, tp)
  pushFarPairCues(f, words, s, t, a, b, tp)
  if (sType === 'PER' && t.entity.type === 'PER') pushKillCues(f, words, a, b, sent, tp, forward)
  pushOrgSideCues(f, words, s, t, forward, sent, tp)
  pushKinList(f, words, a, b, sentAnchors, sent, tp)
  pushNameList(f, doc, words, a, b, sentAnchors, tp)
  pushNearerToCue(f, words, a, b, sentAnchors, forward, tp)
  pushAgentBy(f, words, s, t, tp)
  pushAgentByFar(f, doc, words, s, t, tp)
  pushOrgPairCues(f, words, s, t, a, b, sent, tp)
  pushPersonProfile(f, doc, words, s, t, anchors, tp)
  pushPronounCues(f, words, s, t, a, b, sent, tp)
  f.push(feat(R.pre, a.first - 1 >= sent.first ? words[a.first - 1] : 1, tp), feat(R.post, b.last < sent.last ? words[b.last] : 2, tp))
  if (dist === 1 && words[a.last] === COMMA) f.push(feat(R.app, tp))
  if (dist === 1 && POSSESSIVE.has(words[a.last])) f.push(feat(R.poss, tp))
  if (dist === 0) f.push(feat(R.adj, tp))
  f.push(feat(R.commas, Math.min(commas, 3), tp))
  // The short links by direction: "Beijing 's Tiananmen Square" reads the other way from
  // "Tiananmen Square , Beijing"; after a comma, the word that follows ("X , a Y", "X , in Y").
  const fw = forward ? 1 : 0
  if (dist === 1 && words[a.last] === COMMA) f.push(feat(R.dsyn, 0 + fw, tp))
  if (dist === 1 && POSSESSIVE.has(words[a.last])) f.push(feat(R.dsyn, 2 + fw, tp))
  if (dist === 0) f.push(feat(R.dsyn, 4 + fw, tp))
  if (dist === 2 && words[a.last] === COMMA) f.push(feat(R.dsyn, 6 + fw, feat(0, words[a.last + 1], tp)))
  // Distance by direction, and the two words before the pair by direction.
  f.push(feat(R.dord, bucket(dist) * 2 + fw, tp))
  f.push(feat(R.ctx2, a.first - 2 >= sent.first ? feat(0, words[a.first - 2], words[a.first - 1]) : 1, tp * 2 + fw))
  // How crowded the sentence is (lists and tables relate few of their names).
  f.push(feat(R.crowd, bucket(sentAnchors.length), tp))
  // Is the target the nearest entity of its type to the source, and vice versa? Pairing each
  // entity with its nearest compatible partner alone reaches F1 0.5 on CoNLL04.
  let tRank = 0
  let sRank = 0
  for (const o of sentAnchors) {
    if (o.entity === s.entity || o.entity === t.entity) continue
    if (o.entity.type === t.entity.type && gapOf(s, o) < dist) tRank++
    if (o.entity.type === s.entity.type && gapOf(o, t) < dist) sRank++
  }
  tRank = Math.min(tRank, 2)
  sRank = Math.min(sRank, 2)
  f.push(feat(R.trank, tRank, tp), feat(R.srank, sRank, tp), feat(R.ranks, tRank * 4 + sRank))
  return f
}

// What is said between a person and an organization (and just around the pair): words of one
// class pooled into one feature, so that a type with a hundred examples learns them
// ("taught at", "studied at", "leader of", "guitarist of", "signed for").
const PAIR_CUE_CLASSES: [number, string][] = [
  [
    0,
    'studied study studies graduated graduate graduating attended attending educated enrolled degree doctorate phd diploma alumnus alumna alumni student students scholarship',
  ],
  [1, 'taught teaches teach teaching teacher lecturer lectured lectures professor faculty dean curator researcher fellow tutor'],
  [
    2,
    'worked works working employed employee hired staff job career editor reporter correspondent columnist presenter anchor analyst engineer executive manager',
  ],
  [3, 'leader led leads chairman chairwoman chair president head heads secretary general chief director ceo founder'],
  [4, 'member members membership joined joining elected candidate representing representative mp senator deputy councillor party'],
  [5, 'singer vocalist guitarist bassist drummer keyboardist frontman band lineup album albums toured'],
  [6, 'played plays playing player signed loan transferred transfer debut season striker midfielder defender goalkeeper captain squad'],
]
const PAIR_CUE = wordClasses(PAIR_CUE_CLASSES)

/** Classes of PAIR_CUE_CLASSES said between a person and an organization (and three words either side of the pair), alone and with the organization's kind. */
function pushPairCues(
  f: number[],
  words: Uint32Array,
  s: Anchor,
  t: Anchor,
  a: Anchor,
  b: Anchor,
  sent: { first: number; last: number },
  tp: number,
): void {
  if (s.entity.type !== 'PER' || t.entity.type !== 'ORG' || b.first - a.last > 12) return
  const bits = aroundPairBits(PAIR_CUE, words, a, b, sent)
  if (!bits) return
  const kind = orgKind(t.entity)
  for (let k = 0; k < 14; k++) if (bits & (1 << k)) f.push(feat(R.pairCue, k, tp), feat(R.pairCue, 100 + k * 16 + kind, tp))
}

/**
 * Classes of PAIR_CUE_CLASSES said between a person and an organization farther apart than
 * pushPairCues reads (an encyclopaedia's "X ( born … ) is the … Professor of Law in the Faculty
 * of Law at the University of Y"; at most MAX_GAP apart), alone and with the organization's kind.
 * Only the words between are read (cueBits' even bits): around such a pair they say little of it.
 */
function pushFarPairCues(f: number[], words: Uint32Array, s: Anchor, t: Anchor, a: Anchor, b: Anchor, tp: number): void {
  if (s.entity.type !== 'PER' || t.entity.type !== 'ORG' || b.first - a.last <= 12) return
  const bits = cueBits(words, a.last, b.first, 0)
  if (!bits) return
  const kind = orgKind(t.entity)
  for (let k = 0; k < 14; k += 2) if (bits & (1 << k)) f.push(feat(R.pairCueFar, k, tp), feat(R.pairCueFar, 100 + k * 16 + kind, tp))
}

/**
 * Classes of PAIR_CUE_CLASSES said next to the organization on the person's side ("X , chairman
 * of the Y", "X joined Y", "Y 's president X", "Y chairman X"): the role the person holds there.
 * Re-DocRED counts a chairperson as works_for and a club's player or a party's member as
 * member_of; the same words elsewhere in a long gap may be said of someone else.
 */
function pushOrgSideCues(
  f: number[],
  words: Uint32Array,
  s: Anchor,
  t: Anchor,
  forward: boolean,
  sent: { first: number; last: number },
  tp: number,
): void {
  if (s.entity.type !== 'PER' || t.entity.type !== 'ORG') return
  const bits = forward
    ? cueBits(words, Math.max(s.last, t.first - 3), t.first, 0)
    : cueBits(words, t.last, Math.min(s.first, t.last + 3, sent.last), 0)
  if (!bits) return
  const kind = orgKind(t.entity)
  const fw = forward ? 1 : 0
  for (let k = 0; k < 14; k += 2) if (bits & (1 << k)) f.push(feat(R.orgSide, k + fw, tp), feat(R.orgSide, 100 + (k + fw) * 16 + kind, tp))
}

const KIN_WORDS = new Set(
  'children child sons son daughters daughter siblings sibling brothers brother sisters sister wife husband married father mother parents cousins cousin'
    .split(' ')
    .map((w) => fnv(w)),
)
// The kin words that name several persons.
const KIN_PLURAL = new Set('children sons daughters siblings brothers sisters parents cousins'.split(' ').map((w) => fnv(w)))
const LIST_GLUE = new Set([COMMA, fnv('and'), fnv('&')])

const OR = fnv('or')

/** Only glue between the names of a list, at most three tokens (not a closure: pushNameList runs for every pair). */
function listGlue(doc: Tokenized, words: Uint32Array, from: number, to: number): boolean {
  if (to - from > 3) return false
  for (let i = from; i < to; i++) {
    if (LIST_GLUE.has(words[i]) || words[i] === OR || doc.tokens[i].pos === 'ADJ') continue
    return false
  }
  return true
}

/** The run of names around names[i]: neighbours joined only by glue (listGlue), as [first, last] indices. */
function nameRun(doc: Tokenized, words: Uint32Array, names: Anchor[], i: number): [number, number] {
  let lo = i
  while (lo > 0 && names[lo - 1].last <= names[lo].first && listGlue(doc, words, names[lo - 1].last, names[lo].first)) lo--
  let hi = i
  while (hi + 1 < names.length && names[hi].last <= names[hi + 1].first && listGlue(doc, words, names[hi].last, names[hi + 1].first)) hi++
  return [lo, hi]
}

/**
 * Two places or two organizations in one list of names of their type ("Oklahoma , Arizona and
 * Texas", "Leica and Rollei": only commas, "and", "or" and adjectives between the names of the
 * run): how many names the run holds (2, 3, 4 or more) and whether the pair is next to each
 * other in it. "Memphis , Tenn." is a run of two; a third name after it makes a list, whose names
 * are seldom in one another.
 *
 * For a person and a place, the place's own run (values 32 and up): its length and where the
 * place stands in it. One lives in "Ocala" and in "Fla." of "Ocala , Fla.", seldom in each place
 * of "Oklahoma , Arizona and Texas", where a tour goes or rain falls. (Read for an organization
 * and a place too, it did not pay: docs/experiments/relations.md.)
 */
export function pushNameList(
  f: number[],
  doc: Tokenized,
  words: Uint32Array,
  a: Anchor,
  b: Anchor,
  sentAnchors: Anchor[],
  tp: number,
): void {
  const type = a.entity.type
  if (b.entity.type === type) {
    if (type === 'PER' || a.pronoun || b.pronoun) return
    const names = sentAnchors.filter((o) => !o.pronoun && o.entity.type === type).sort((x, y) => x.first - y.first)
    const ia = names.indexOf(a)
    const ib = names.indexOf(b)
    if (ia < 0 || ib < 0) return
    // The run of names joined by glue that holds a; b must be in it.
    const [lo, hi] = nameRun(doc, words, names, ia)
    if (ib < lo || ib > hi) return
    const n = Math.min(hi - lo + 1, 4)
    f.push(feat(R.nameList, n * 2 + (Math.abs(ib - ia) === 1 ? 1 : 0), tp))
    return
  }
  const place = type === 'LOC' && b.entity.type === 'PER' ? a : type === 'PER' && b.entity.type === 'LOC' ? b : undefined
  if (!place || place.pronoun) return
  // Most places stand alone: no other place within glue's reach, no list to build.
  if (
    !sentAnchors.some((o) => o !== place && !o.pronoun && o.entity.type === 'LOC' && o.first - place.last <= 3 && place.first - o.last <= 3)
  )
    return
  const names = sentAnchors.filter((o) => !o.pronoun && o.entity.type === 'LOC').sort((x, y) => x.first - y.first)
  const ip = names.indexOf(place)
  if (ip < 0) return
  const [lo, hi] = nameRun(doc, words, names, ip)
  if (hi === lo) return
  // Where the place stands: first, last, or inside a run of three or more.
  const at = ip === lo ? 0 : ip === hi ? 1 : 2
  f.push(feat(R.nameList, 32 + (Math.min(hi - lo + 1, 4) - 2) * 3 + at, tp))
}

/**
 * Two persons of one list ("his four children , A , B , C and D", "siblings A , B and C": only
 * commas, "and" and other persons between) and the kin word shortly before the list, plural or
 * singular: Re-DocRED relates every pair of such a list, which no word between them says, when
 * the kin word names them all.
 */
function pushKinList(
  f: number[],
  words: Uint32Array,
  a: Anchor,
  b: Anchor,
  sentAnchors: Anchor[],
  sent: { first: number; last: number },
  tp: number,
): void {
  if (a.entity.type !== 'PER' || b.entity.type !== 'PER' || a.pronoun || b.pronoun) return
  let listed = 1
  for (let i = a.last; i < b.first && listed; i++) {
    if (LIST_GLUE.has(words[i])) continue
    const inPerson = sentAnchors.some((o) => o.entity.type === 'PER' && !o.pronoun && i >= o.first && i < o.last)
    if (!inPerson) listed = 0
  }
  // The nearest kin word before the earlier name, plural or singular: "his four children : A , B
  // and C" names kin in every name of the list, "Nell and his brother Louis , A , B" in one.
  let kin = 0
  for (let i = a.first - 1; i >= Math.max(sent.first, a.first - 12) && !kin; i--)
    if (KIN_WORDS.has(words[i])) kin = KIN_PLURAL.has(words[i]) ? 1 : 2
  // listed × 3 + kin, from 8: a range of values of its own within the template.
  if (listed || kin) f.push(feat(R.kinList, 8 + listed * 3 + kin, tp))
}

// Words that say one person killed another, pooled: each alone is seen a few times in the
// training news, and a kill stated with a rarer verb ("shot dead", "stabbed") scored under the
// threshold. "by" after such a word turns the pair around ("was shot by").
const KILL_WORDS = new Set(
  (
    'kill killed kills killing killer killers murder murdered murders murdering murderer murderers assassinate ' +
    'assassinated assassinating assassination assassin assassins slay slain slew slaying slayings shot shoot shoots ' +
    'shooting stabbed stabbing strangled strangling beaten bludgeoned gunned executed poisoned'
  )
    .split(' ')
    .map((w) => fnv(w)),
)
const BY = fnv('by')

/** Kill words between two persons (with a later "by") or just before the first: by direction and distance. */
function pushKillCues(
  f: number[],
  words: Uint32Array,
  a: Anchor,
  b: Anchor,
  sent: { first: number; last: number },
  tp: number,
  forward: boolean,
): void {
  let between = 0
  for (let i = a.last; i < b.first; i++) {
    if (KILL_WORDS.has(words[i])) between = 1
    else if (between && words[i] === BY) between = 2
  }
  let before = 0
  for (let i = Math.max(sent.first, a.first - 3); i < a.first; i++) if (KILL_WORDS.has(words[i])) before = 1
  const far = b.first - a.last > 12 ? 8 : 0
  const fw = forward ? 1 : 0
  if (between) f.push(feat(R.killCue, far + between * 2 + fw, tp))
  if (before) f.push(feat(R.killCue, 16 + fw, tp))
}

// Words that say where a person lives or was born (CoNLL04 annotates birthplaces as residence).
const RESIDENCE_WORDS = new Set(
  'lives lived live living resident residents native natives born home hometown grew moved settled'.split(' ').map((w) => fnv(w)),
)

/**
 * The word between a pair of one sentence that says the relation (a kill word between two
 * persons, a residence or birth word between a person and a place; of several, the one nearest
 * either mention) and whether another name of the same type as the mention on each side stands
 * between that word and the mention: the word is then said of the nearer one ("Yeltsin gave him
 * documents on the Oswald case , who … killed President Kennedy": Oswald, not Yeltsin, stands
 * next to "killed"). By direction and whether "by" follows the word.
 */
export function pushNearerToCue(
  f: number[],
  words: Uint32Array,
  a: Anchor,
  b: Anchor,
  sentAnchors: Anchor[],
  forward: boolean,
  tp: number,
): void {
  const ta = a.entity.type
  const tb = b.entity.type
  const per = ta === 'PER' ? a : tb === 'PER' ? b : undefined
  if (!per || a.pronoun || b.pronoun) return
  const other = per === a ? b : a
  const cues = other.entity.type === 'PER' ? KILL_WORDS : other.entity.type === 'LOC' ? RESIDENCE_WORDS : undefined
  if (!cues) return
  let k = -1
  for (let i = a.last; i < b.first; i++)
    if (cues.has(words[i]) && (k < 0 || Math.min(i - a.last, b.first - 1 - i) < Math.min(k - a.last, b.first - 1 - k))) k = i
  if (k < 0) return
  const na = anchorBetween(sentAnchors, a, b, a.last, k, ta) ? 1 : 0
  const nb = anchorBetween(sentAnchors, a, b, k + 1, b.first, tb) ? 1 : 0
  const by = words[k + 1] === BY ? 1 : 0
  f.push(feat(R.nearerCue, na * 2 + nb + 4 * (forward ? 1 : 0) + 8 * by, tp))
}

/** Another entity of `type` than a's and b's has an anchor within tokens [from, to). */
function anchorBetween(sentAnchors: Anchor[], a: Anchor, b: Anchor, from: number, to: number, type: string): boolean {
  return sentAnchors.some(
    (o) => o.entity !== a.entity && o.entity !== b.entity && o.entity.type === type && o.first >= from && o.last <= to,
  )
}

// Verbs whose agent follows "by" ("a label started by Julie Doiron", "a company owned by the
// Shaw family", "a team coached by X"): the pair reads the other way round from the words, so
// the words between alone say it of the wrong end.
const AGENT_CLASSES: [number, string][] = [
  [0, 'founded co-founded cofounded established formed created started launched set founding'],
  [1, 'owned controlled acquired bought purchased operated run managed held'],
  [2, 'led headed chaired directed coached captained presided'],
  [3, 'employed hired signed appointed commissioned recruited'],
  [4, 'produced manufactured developed made built designed published released written composed'],
]
const AGENT = wordClasses(AGENT_CLASSES)

/**
 * The source named right after "by", the target earlier in the sentence, and a verb of
 * AGENT_CLASSES at most four words before the "by" ("Y , founded in 1990 by X"): the class, alone
 * and with the target organization's kind.
 */
export function pushAgentBy(f: number[], words: Uint32Array, s: Anchor, t: Anchor, tp: number): void {
  if (s.pronoun || t.last > s.first - 2 || words[s.first - 1] !== BY) return
  if (s.entity.type !== 'PER' && s.entity.type !== 'ORG') return
  let bits = 0
  for (let i = Math.max(t.last, s.first - 5); i < s.first - 1; i++) {
    const k = AGENT.get(words[i])
    if (k !== undefined) bits |= 1 << k
  }
  if (!bits) return
  const kind = orgKind(t.entity)
  for (let k = 0; k < AGENT_CLASSES.length; k++)
    if (bits & (1 << k)) f.push(feat(R.agentBy, k, tp), feat(R.agentBy, 100 + k * 16 + kind, tp))
}

/**
 * The agent after "by" where pushAgentBy does not reach it: one to three lower-case words
 * (articles, roles, nationalities) between "by" and the source ("formed in 1976 by guitarist
 * Bernard Sumner", "founded by the former president Andry Rajoelina"), or the verb five to
 * nine words before the "by" ("established in London in 1975 by X"); the target earlier in the
 * sentence. The class of AGENT_CLASSES, by which of the two reaches it, alone and with the
 * target organization's kind.
 */
export function pushAgentByFar(f: number[], doc: Tokenized, words: Uint32Array, s: Anchor, t: Anchor, tp: number): void {
  if (s.pronoun || t.last > s.first - 2) return
  if (s.entity.type !== 'PER' && s.entity.type !== 'ORG') return
  const toks = doc.tokens
  // Where "by" stands: right before the source, or one to three role or article words before it.
  let by = s.first - 1
  while (words[by] !== BY) {
    // Lower-case words, adjectives and nationality words before the name ("by Australian expatriate X").
    const ok = /^\p{Ll}/u.test(toks[by].text) || toks[by].pos === 'ADJ' || toks[by].pos === 'PROPN'
    if (!ok || --by < s.first - 4 || by <= t.last) return
  }
  const lead = by < s.first - 1 ? 1 : 0
  let bits = 0
  for (let i = Math.max(t.last, by - 9); i < by; i++) {
    // pushAgentBy already reads a verb within four words of a "by" right before the name.
    if (!lead && i >= by - 4) continue
    const k = AGENT.get(words[i])
    if (k !== undefined) bits |= 1 << k
  }
  if (!bits) return
  const kind = orgKind(t.entity)
  for (let k = 0; k < AGENT_CLASSES.length; k++)
    if (bits & (1 << k)) f.push(feat(R.agentByFar, k * 2 + lead, tp), feat(R.agentByFar, 100 + (k * 2 + lead) * 16 + kind, tp))
}

/** Words of a name, lower-case, dots and apostrophes dropped, hyphens split. */
function nameWords(name: string): string[] {
  return name
    .toLowerCase()
    .replace(/[.’']/g, '')
    .split(/[\s-]+/)
    .filter((w) => w)
}

/**
 * How two organizations' names begin alike: 1 when the source's name starts with the whole of
 * the target's ("BBC Alba" and "BBC", "Square Enix Europe" and "Square Enix": a part and its
 * whole), 2 the other way round, 3 + the words they share when they only open alike ("Johns
 * Hopkins Carey Business School" and "Johns Hopkins University"; 2 words at most); 0 otherwise.
 * Among one text's entities 1 and 2 are rare: a short form joins the longer name that holds it
 * (entities.ts), so "BBC" and "BBC Alba" are mostly one entity.
 */
export function orgNameShare(a: Entity, b: Entity): number {
  if (a.type !== 'ORG' || b.type !== 'ORG') return 0
  const x = nameWords(a.name)
  const y = nameWords(b.name)
  let k = 0
  while (k < x.length && k < y.length && x[k] === y[k]) k++
  if (!k || (k === x.length && k === y.length)) return 0
  if (k === y.length) return 1
  if (k === x.length) return 2
  // One shared opening word is often a nationality or "University": kept apart from two.
  return 3 + Math.min(k, 2)
}

/** orgNameShare of an organization pair: a subsidiary is often named after its parent. */
function pushOrgNames(f: number[], a: Entity, b: Entity, tp: number): void {
  const k = orgNameShare(a, b)
  if (k) f.push(feat(R.orgNames, k, tp))
}

// What is said between two organizations: who owns, which is a part, who founded or joined,
// who runs what ("its subsidiaries X and Y", "a division of", "the flagship of", "acquired").
const ORG_CUE_CLASSES: [number, string][] = [
  [0, 'owns owned owner owners parent acquired acquires acquisition bought purchased stake controlling controlled controls holding'],
  [
    1,
    'subsidiary subsidiaries division divisions unit units branch branches arm affiliate affiliated affiliates part department departments chapter wing imprint brand channel channels station stations flagship sister',
  ],
  [2, 'founded co-founded founder established formed created merged merger spun'],
  [3, 'member members joined league conference association federation'],
  [4, 'operated operates operating runs ran managed manages broadcast broadcasts airs aired'],
]
const ORG_CUE = wordClasses(ORG_CUE_CLASSES)

/**
 * Classes of ORG_CUE_CLASSES between an organization and another organization or an object (at
 * most 12 words apart) and three words either side of the pair, by direction; and, by direction,
 * with the target's kind. "X , a subsidiary of Y" and "Y 's subsidiary X" differ by direction only.
 */
export function pushOrgPairCues(
  f: number[],
  words: Uint32Array,
  s: Anchor,
  t: Anchor,
  a: Anchor,
  b: Anchor,
  sent: { first: number; last: number },
  tp: number,
): void {
  if (s.entity.type !== 'ORG' || (t.entity.type !== 'ORG' && t.entity.type !== 'OBJ') || b.first - a.last > 12) return
  const bits = aroundPairBits(ORG_CUE, words, a, b, sent)
  if (!bits) return
  const fw = s.first < t.first ? 1 : 0
  const kind = orgKind(t.entity)
  for (let k = 0; k < ORG_CUE_CLASSES.length * 2; k++)
    if (bits & (1 << k)) f.push(feat(R.orgPairCue, k * 2 + fw, tp), feat(R.orgPairCue, 100 + (k * 2 + fw) * 8 + kind, tp))
}

/**
 * Cue classes of the words between the pair's mentions in other sentences (typedCandidates'
 * bag): PAIR_CUE_CLASSES for a person and an organization (with the organization's kind),
 * ORG_CUE_CLASSES for two organizations. A document says "He taught at X" once and names X with
 * him again elsewhere.
 */
export function pushBagCues(f: number[], c: RelationCandidate, ws: Set<number>, tp: number): void {
  if (!ws.size) return
  const st = c.source.entity.type
  const tt = c.target.entity.type
  if (st === 'PER' && tt === 'ORG') {
    let bits = 0
    for (const w of ws) {
      const k = PAIR_CUE.get(w)
      if (k !== undefined) bits |= 1 << k
    }
    const kind = orgKind(c.target.entity)
    for (let k = 0; k < PAIR_CUE_CLASSES.length; k++)
      if (bits & (1 << k)) f.push(feat(R.bagCue, k, tp), feat(R.bagCue, 100 + k * 16 + kind, tp))
  } else if (st === 'ORG' && (tt === 'ORG' || tt === 'OBJ')) {
    let bits = 0
    for (const w of ws) {
      const k = ORG_CUE.get(w)
      if (k !== undefined) bits |= 1 << k
    }
    for (let k = 0; k < ORG_CUE_CLASSES.length; k++) if (bits & (1 << k)) f.push(feat(R.bagCue, 300 + k, tp))
  }
}

/** A person's document profile by anchors array (one per document), filled when first read. */
const PROFILES = new WeakMap<Anchor[][], Map<Entity, number>>()

/**
 * Bits of PAIR_CUE_CLASSES said anywhere in the sentences that mention a person (by name or by a
 * pronoun resolved to it): what the document says the person does (studied, taught, led, played).
 */
export function personProfile(words: Uint32Array, doc: Tokenized, anchors: Anchor[][], e: Entity): number {
  let m = PROFILES.get(anchors)
  if (!m) PROFILES.set(anchors, (m = new Map<Entity, number>()))
  let bits = m.get(e)
  if (bits !== undefined) return bits
  bits = 0
  for (let s = 0; s < anchors.length; s++) {
    if (!anchors[s].some((a) => a.entity === e)) continue
    const sent = doc.sentences[s]
    for (let i = sent.first; i < sent.last; i++) {
      const k = PAIR_CUE.get(words[i])
      if (k !== undefined) bits |= 1 << k
    }
  }
  m.set(e, bits)
  return bits
}

/** The person's document profile (personProfile) crossed with the organization's kind, for a person and an organization. */
export function pushPersonProfile(
  f: number[],
  doc: Tokenized,
  words: Uint32Array,
  s: Anchor,
  t: Anchor,
  anchors: Anchor[][],
  tp: number,
): void {
  if (s.entity.type !== 'PER' || t.entity.type !== 'ORG') return
  const bits = personProfile(words, doc, anchors, s.entity)
  if (!bits) return
  const kind = orgKind(t.entity)
  for (let k = 0; k < PAIR_CUE_CLASSES.length; k++) if (bits & (1 << k)) f.push(feat(R.profile, k * 16 + kind, tp))
}

/**
 * Classes of PAIR_CUE_CLASSES between (and three words around) a pronoun and an organization
 * ("He worked for Aker", "She currently teaches at Antioch College"), alone and with the
 * organization's kind: a pronoun's pair is scored down as a whole (its antecedent may be wrong),
 * which buries the pairs that say what the person does there.
 */
export function pushPronounCues(
  f: number[],
  words: Uint32Array,
  s: Anchor,
  t: Anchor,
  a: Anchor,
  b: Anchor,
  sent: { first: number; last: number },
  tp: number,
): void {
  if (!s.pronoun || s.entity.type !== 'PER' || t.entity.type !== 'ORG' || b.first - a.last > 12) return
  const bits = aroundPairBits(PAIR_CUE, words, a, b, sent)
  if (!bits) return
  const kind = orgKind(t.entity)
  for (let k = 0; k < 14; k++) if (bits & (1 << k)) f.push(feat(R.pronCue, k, tp), feat(R.pronCue, 100 + k * 16 + kind, tp))
}

/** Country index of a country's name or a nationality word of one to three tokens [from, to), capitalised; -1 if none. */
function nationOf(toks: Tokenized['tokens'], from: number, to: number, places: PlaceTable): number {
  if (!/^\p{Lu}/u.test(toks[from].text)) return -1
  let phrase = toks[from].text
  for (let i = from + 1; i < to; i++) phrase += ' ' + toks[i].text
  const p = places.get(placeKey(phrase))
  if (p !== undefined && p & 1) return p >> 1
  const d = places.get(demonymKey(phrase))
  return d === undefined ? -1 : d >> 1
}

/** Countries named (or, with `only demonyms`, whose nationality is named) by the phrases of one to three tokens within [from, to). */
function nationsIn(toks: Tokenized['tokens'], from: number, to: number, places: PlaceTable, demonymsOnly = false): Set<number> {
  const out = new Set<number>()
  for (let i = from; i < to; i++)
    for (let j = i + 1; j <= Math.min(to, i + 3); j++) {
      const k = demonymsOnly ? demonymOf(toks, i, j, places) : nationOf(toks, i, j, places)
      if (k >= 0) out.add(k)
    }
  return out
}

/** Country index of a nationality word of tokens [from, to), capitalised; -1 if none. */
function demonymOf(toks: Tokenized['tokens'], from: number, to: number, places: PlaceTable): number {
  if (!/^\p{Lu}/u.test(toks[from].text)) return -1
  let phrase = toks[from].text
  for (let i = from + 1; i < to; i++) phrase += ' ' + toks[i].text
  const d = places.get(demonymKey(phrase))
  return d === undefined ? -1 : d >> 1
}

/** A name's nameWords between spaces, so that a search in it finds whole words only (see pushPlaceNames). */
function wholeWords(x: string): string {
  return ' ' + nameWords(x).join(' ') + ' '
}

/**
 * A place named in the organization's own name, or a nationality next to the source ("the
 * Bulgarian Socialist Party" in Bulgaria, "the University of Tokyo" in Tokyo, "the Russian
 * Defence Ministry" in Moscow, "Mongolian Prime Minister X" not in China, "X , the Bulgarian
 * president" in Sofia): whether the place the pair points at is the one named, in its country
 * or in another. Within an organization's name, countries and nationality words only (a town's
 * name is often also a word: "Union"); around the source, three words before it and three of
 * an apposition after a comma. A person's own name is not read (Washington, Lincoln).
 */
function pushPlaceNames(f: number[], doc: Tokenized, s: Anchor, t: Anchor, places: PlaceTable, tp: number): void {
  if (t.entity.type !== 'LOC' || (s.entity.type !== 'ORG' && s.entity.type !== 'PER') || s.pronoun) return
  const target = places.get(placeKey(t.entity.name))
  const country = target === undefined ? -1 : target >> 1
  const own = target !== undefined && (target & 1) === 1
  const toks = doc.tokens
  if (s.entity.type === 'ORG') {
    // Whole words, case, dots and hyphens ignored ("Pittsburgh-Corning Corp." names Pittsburgh).
    const sn = wholeWords(s.entity.name)
    const tn = wholeWords(t.entity.name)
    if (tn.length > 2 && sn !== tn && sn.includes(tn)) f.push(feat(R.placeName, 1, tp))
    else if (country >= 0) {
      const named = nationsIn(toks, s.first, s.last, places)
      if (named.has(country)) f.push(feat(R.placeName, own ? 2 : 3, tp))
      else if (named.size) f.push(feat(R.placeName, 4, tp))
    }
  }
  if (country < 0) return
  const sent = doc.sentences[s.sent]
  // Nationality words only: a country there is an entity of its own, often the pair's target.
  const near = nationsIn(toks, Math.max(sent.first, s.first - 3), s.first, places, true)
  // And the apposition after it: "Zhelyu Zhelev , the Bulgarian president".
  if (s.last < sent.last && toks[s.last].text === ',')
    for (const k of nationsIn(toks, s.last + 1, Math.min(sent.last, s.last + 4), places, true)) near.add(k)
  if (near.has(country)) f.push(feat(R.placeName, own ? 5 : 6, tp))
  else if (near.size) f.push(feat(R.placeName, 7, tp))
}

/** Bits of a class table's (PAIR_CUE unless given) words [from, to), `near` 0 between the pair, 1 around it. */
function cueBits(words: Uint32Array, from: number, to: number, near: number, classes = PAIR_CUE): number {
  let bits = 0
  for (let i = from; i < to; i++) {
    const k = classes.get(words[i])
    if (k !== undefined) bits |= 1 << (k * 2 + near)
  }
  return bits
}

/** Bits of a class table's words between the pair [a, b] (near 0) and three words either side of it in its sentence (near 1). */
function aroundPairBits(
  classes: Map<number, number>,
  words: Uint32Array,
  a: Anchor,
  b: Anchor,
  sent: { first: number; last: number },
): number {
  return (
    cueBits(words, a.last, b.first, 0, classes) |
    cueBits(words, Math.max(sent.first, a.first - 3), a.first, 1, classes) |
    cueBits(words, b.last, Math.min(sent.last, b.last + 3), 1, classes)
  )
}

/** A shared feature as read by the classifier of one relation type. */
export function typedFeature(f: number, type: RelationType): number {
  return feat(R.typed, f, CLASSIFIED.indexOf(type) + 1)
}

function gapOf(x: Anchor, y: Anchor): number {
  return x.first < y.first ? y.first - x.last : x.first - y.last
}

/** Classifier probability that the candidate holds the relation `type`. */
export function relationScore(model: RelationModel, feats: number[], type: RelationType): number {
  let z = 0
  const k = CLASSIFIED.indexOf(type) + 1
  for (const f of feats) {
    const w = model.weights.getOr(feat(R.typed, f, k), NaN)
    if (!Number.isNaN(w)) z += w
  }
  return 1 / (1 + Math.exp(-z))
}

export interface Decision {
  type: RelationType
  confidence: number
  candidate: RelationCandidate
  /** Read through another place (closePlaces). */
  via?: boolean
}

/** A candidate scored for one type, before calibration: what training and decisions share. */
export interface Scored {
  type: RelationType
  /** Classifier probability, or for a pattern-only type the cue phrase's measured precision. */
  score: number
  candidate: RelationCandidate
  /** Cue-phrase index of a pattern-only relation. */
  pattern?: number
  /** The candidate matches a cue phrase of the type. */
  cue?: boolean
  /** A place read through another one (A in B, B in C: A in C), see closePlaces. */
  via?: boolean
}

/**
 * Every (candidate, type) the engine considers, with its features: the argument checks and the
 * entity-type restrictions applied. `score` is filled by `scoreCandidates`.
 */
export interface TypedCandidate {
  candidate: RelationCandidate
  /** Classified types the entity types allow. */
  types: RelationType[]
  feats: number[]
  /** Types whose own cue phrase the pair matches (calibrated apart: see train-relations.ts). */
  cues: RelationType[]
  patternOnly?: { type: RelationType; pattern: number }
}

export function typedCandidates(
  doc: Tokenized,
  anchors: Anchor[][],
  candidates: RelationCandidate[],
  ctx: DocContext,
  words: Uint32Array,
  places?: PlaceTable,
): TypedCandidate[] {
  const kept: {
    c: RelationCandidate
    types: RelationType[] | undefined
    matched: number[]
    patternOnly?: TypedCandidate['patternOnly']
  }[] = []
  // What other sentences say of the same entity pair (a document states a fact once and names
  // the pair again elsewhere): the cue phrases and words between its mentions there.
  type Said = { c: RelationCandidate; words: number[]; pats: number[] }
  const bags = new Map<Entity, Map<Entity, Said[]>>()
  // Each entity is read once: a document's candidates name the same few entities over and over.
  const fits = new Map<Entity, boolean>()
  for (const c of candidates) {
    if (!fitsOnce(fits, c.source.entity) || !fitsOnce(fits, c.target.entity)) continue
    const types = LEARNED_TYPES[c.source.entity.type + '>' + c.target.entity.type]
    const matched = matchingPatterns(doc, c)
    const patternOnly = patternOnlyMatch(c, matched)
    if (!types && !patternOnly) continue
    kept.push({ c, types, matched, patternOnly })
    if (!types || c.sent !== c.sent2) continue
    let m = bags.get(c.source.entity)
    if (!m) bags.set(c.source.entity, (m = new Map<Entity, Said[]>()))
    let l = m.get(c.target.entity)
    if (!l) m.set(c.target.entity, (l = []))
    const [a, b] = c.source.first < c.target.first ? [c.source, c.target] : [c.target, c.source]
    const ws: number[] = []
    if (b.first - a.last <= 12) for (let i = a.last; i < b.first; i++) ws.push(words[i])
    l.push({ c, words: ws, pats: matched })
  }
  const out: TypedCandidate[] = []
  for (const { c, types, matched, patternOnly } of kept) {
    const cues = types ? types.filter((t) => matched.some((k) => PATTERNS[k].type === t)) : []
    const feats = types ? relationFeatures(doc, words, c, anchors, ctx, matched, places) : []
    if (types) {
      const others = (bags.get(c.source.entity)?.get(c.target.entity) ?? []).filter((o) => o.c.sent !== c.sent)
      const tp = feats[1]
      feats.push(feat(R.bagN, Math.min(others.length, 3), tp))
      const pats = new Set<number>()
      const ws = new Set<number>()
      for (const o of others) {
        for (const k of o.pats) pats.add(k)
        for (const w of o.words) ws.add(w)
      }
      for (const k of pats) feats.push(feat(R.bagPat, k, tp))
      for (const w of ws) feats.push(feat(R.bagBw, w, tp))
      pushBagCues(feats, c, ws, tp)
    }
    out.push({ candidate: c, types: types ?? [], feats, cues, patternOnly })
  }
  return out
}

/** Decides every candidate; returns the reported relations (one per triple, best evidence). */
export function decideRelations(
  doc: Tokenized,
  anchors: Anchor[][],
  candidates: RelationCandidate[],
  model: RelationModel,
  words = wordHashes(doc),
  entities?: Entity[],
): Decision[] {
  const ctx = docContext(anchors, entities ?? [...new Set(anchors.flat().map((a) => a.entity))])
  const best = new Map<string, Scored>()
  for (const tc of typedCandidates(doc, anchors, candidates, ctx, words, model.places)) {
    const c = tc.candidate
    if (tc.patternOnly) {
      const score = model.patternConfidence[String(tc.patternOnly.pattern)]
      if (score !== undefined)
        keep(
          doc,
          best,
          { type: tc.patternOnly.type, score, candidate: c, pattern: tc.patternOnly.pattern },
          tripleKey(c.source.entity, tc.patternOnly.type, c.target.entity),
        )
    }
    for (const type of tc.types)
      keep(
        doc,
        best,
        { type, score: relationScore(model, tc.feats, type), candidate: c, cue: tc.cues.includes(type) },
        tripleKey(c.source.entity, type, c.target.entity),
      )
  }
  return finalize(
    best,
    (d) =>
      d.pattern !== undefined ? d.score : calibrateType(model, d.type, d.score, d.cue, d.via, d.candidate.sent !== d.candidate.sent2),
    (d, conf) => d.pattern !== undefined || conf >= (model.threshold[d.type] ?? 0.5),
  )
}

/** `d` kept under `k` in `best` when it scores higher than what is there (on a tie, the shorter span). */
function keep(doc: Tokenized, best: Map<string, Scored>, d: Scored, k: string): void {
  const prev = best.get(k)
  if (!prev || d.score > prev.score || (d.score === prev.score && span(doc, d.candidate) < span(doc, prev.candidate))) best.set(k, d)
}

export function tripleKey(s: Entity, type: RelationType, t: Entity): string {
  return s.type + s.name + '\u0000' + type + '\u0000' + t.type + t.name
}

function span(doc: Tokenized, c: RelationCandidate): number {
  const a = doc.sentences[Math.min(c.sent, c.sent2)]
  const b = doc.sentences[Math.max(c.sent, c.sent2)]
  return b.end - a.start
}

/**
 * Confidence of a classified relation: its type's map (fitted on pairs within a sentence), a
 * separate one when a cue phrase of the type matched, one for a pair across sentences and one
 * for a place read through another place.
 */
export function calibrateType(
  model: Pick<RelationModel, 'calibration'>,
  type: RelationType,
  score: number,
  cue = false,
  via = false,
  far = false,
): number {
  const c =
    (via ? model.calibration[type + '+'] : undefined) ??
    (cue ? model.calibration[type + '*'] : undefined) ??
    (far ? model.calibration[type + '~'] : undefined) ??
    model.calibration[type]
  return c ? calibrate(c, score) : score
}

/** Classifier probability under which a place pair is no step of a chain (closePlaces). */
const HOP_MIN = 0.05
/** Rounds of closePlaces: a town in its county, state and country. */
const HOPS = 2
/** Rounds of closePlaces through a family (two gave a better family_of F1 on Re-DocRED CV than one). */
const FAMILY_HOPS = 2

/**
 * A place in a place in a place: where A is in B and B in C (as scored), A in C with the product
 * of the two scores, unless the pair's own score is higher (then it stands). A document names
 * the town with its region and the region with its country, and means the town in the country
 * too; such pairs are far apart, often in no one sentence. A family the same way, in both
 * directions and two rounds: the siblings of one's sibling, their parents and children. Then a
 * person's residence in the places that contain it (livesThroughPlaces).
 */
export function closePlaces(best: Map<string, Scored>): void {
  closeOver(best, 'located_in', HOPS, false)
  closeOver(best, 'family_of', FAMILY_HOPS, true)
  livesThroughPlaces(best)
}

/**
 * A person who lives in a town lives in the town's region and country too (P in A, A in B: P in
 * B, with the product of the two scores unless the pair's own is higher), after the places have
 * been closed over. News names the town with its state ("Doug Beldon of Albuquerque , N.M.");
 * CoNLL04 annotates the person in both where it annotates the town in the state (20 of 21 times
 * in its train set).
 */
export function livesThroughPlaces(best: Map<string, Scored>): void {
  const within = new Map<Entity, Scored[]>()
  for (const d of best.values()) {
    if (
      d.type !== 'located_in' ||
      d.score < HOP_MIN ||
      d.candidate.source.entity.type !== 'LOC' ||
      d.candidate.target.entity.type !== 'LOC'
    )
      continue
    const l = within.get(d.candidate.source.entity)
    if (l) l.push(d)
    else within.set(d.candidate.source.entity, [d])
  }
  const add = new Map<string, Scored>()
  for (const d1 of best.values()) {
    if (d1.type !== 'lives_in' || d1.score < HOP_MIN) continue
    for (const d2 of within.get(d1.candidate.target.entity) ?? []) {
      const a = d1.candidate.source
      const c = d2.candidate.target
      const score = d1.score * d2.score
      const k = tripleKey(a.entity, 'lives_in', c.entity)
      if ((best.get(k)?.score ?? -1) >= score || (add.get(k)?.score ?? -1) >= score) continue
      add.set(k, { type: 'lives_in', score, candidate: { source: a, target: c, sent: a.sent, sent2: c.sent }, via: true })
    }
  }
  for (const [k, d] of add) best.set(k, d)
}

/** An edge a → b of closeOver's graph. */
function addEdge(from: Map<Entity, { to: Anchor; from: Anchor; score: number }[]>, a: Anchor, b: Anchor, score: number): void {
  const l = from.get(a.entity)
  if (l) l.push({ from: a, to: b, score })
  else from.set(a.entity, [{ from: a, to: b, score }])
}

function closeOver(best: Map<string, Scored>, type: RelationType, hops: number, both: boolean): void {
  for (let round = 0; round < hops; round++) {
    const from = new Map<Entity, { to: Anchor; from: Anchor; score: number }[]>()
    for (const d of best.values()) {
      if (d.type !== type || d.score < HOP_MIN) continue
      addEdge(from, d.candidate.source, d.candidate.target, d.score)
      if (both) addEdge(from, d.candidate.target, d.candidate.source, d.score)
    }
    const add = new Map<string, Scored>()
    for (const l of from.values())
      for (const d1 of l)
        for (const d2 of from.get(d1.to.entity) ?? []) {
          const a = d1.from
          const c = d2.to
          if (a.entity === c.entity) continue
          const score = d1.score * d2.score
          const k = tripleKey(a.entity, type, c.entity)
          const r = both ? (best.get(tripleKey(c.entity, type, a.entity))?.score ?? -1) : -1
          if ((best.get(k)?.score ?? -1) >= score || r >= score || (add.get(k)?.score ?? -1) >= score) continue
          add.set(k, { type, score, candidate: { source: a, target: c, sent: a.sent, sent2: c.sent }, via: true })
        }
    if (!add.size) return
    for (const [k, d] of add) best.set(k, d)
  }
}

/**
 * The tripleKey of the same relation read the other way round: the key's first three parts (as
 * `split('\u0000')` cuts them: a name may hold that character too) in the reverse order, read
 * between the separators without an array of the parts.
 */
function reverseKey(k: string): string {
  const a = k.indexOf('\u0000')
  const b = k.indexOf('\u0000', a + 1)
  const c = k.indexOf('\u0000', b + 1)
  return (c < 0 ? k.slice(b + 1) : k.slice(b + 1, c)) + '\u0000' + k.slice(a + 1, b) + '\u0000' + k.slice(0, a)
}

/**
 * From the best-scored candidate per triple to the reported relations: one direction of a
 * located_in or killed pair, both of a family tie (with the better of the two scores).
 */
export function finalize(
  best: Map<string, Scored>,
  confidence: (d: Scored) => number,
  report: (d: Scored, conf: number) => boolean,
): Decision[] {
  closePlaces(best)
  for (const [k, d] of best) {
    if (!SYMMETRIC.has(d.type)) continue
    const rk = reverseKey(k)
    const r = best.get(rk)
    if (r && r.score > d.score) best.set(k, { ...d, score: r.score })
    else if (!r)
      best.set(rk, {
        ...d,
        candidate: {
          ...d.candidate,
          source: d.candidate.target,
          target: d.candidate.source,
          sent: d.candidate.sent2,
          sent2: d.candidate.sent,
        },
      })
  }
  const out: Decision[] = []
  for (const [k, d] of best) {
    if (ONE_WAY.has(d.type)) {
      const rk = reverseKey(k)
      const r = best.get(rk)
      if (r && (r.score > d.score || (r.score === d.score && rk < k))) continue
    }
    const conf = confidence(d)
    if (report(d, conf)) out.push({ type: d.type, confidence: conf, candidate: d.candidate, via: d.via })
  }
  return out
}

export function loadRelationModel(path: string | URL): RelationModel {
  return parseRelationModel(JSON.parse(readFileSync(path, 'utf8')) as RelationModelFile)
}

export interface RelationModelFile {
  format: 'tea-relations-3'
  /** Hashed feature id (decimal) → weight. */
  weights: Record<string, number>
  calibration: Record<string, Calibration>
  threshold: Partial<Record<RelationType, number>>
  patternConfidence: Record<string, number>
  /** Place-name hash → country index × 2 (+1 for a country's own name), sorted by hash. */
  places: [number, number][]
}

export function parseRelationModel(j: RelationModelFile): RelationModel {
  // A file's format is whatever it says, whatever the type hopes for.
  const format: string = j.format
  if (format !== 'tea-relations-3') throw new Error(`relations: unknown model format "${format}"`)
  const ids = Object.keys(j.weights)
  return {
    weights: new IdFloatMap(
      ids.map(Number),
      ids.map((k) => j.weights[k]),
    ),
    calibration: j.calibration,
    threshold: j.threshold,
    patternConfidence: j.patternConfidence,
    places: new Map(j.places),
  }
}

/**
 * The features of a candidate that say how often a text of its kind relates such a pair rather
 * than what it says of this one: the bias, the type pair, salience, position, co-occurrence
 * counts, the text's length, how crowded the sentence is, the place table. Training data that
 * holds only positives (one annotated pair per sentence) must not teach these: it would teach
 * that every pair is related.
 */
export function priorFeatures(c: RelationCandidate): Set<number> {
  // The pair's types as relationFeatures reads them (a state joins an organization as one does).
  const s = c.source.entity.type
  const t = c.target.entity.type
  const tp = TYPE_ID[s === 'LOC' && t === 'ORG' ? 'ORG' : s] * 8 + TYPE_ID[t]
  const out = new Set<number>([RELATION_BIAS, feat(R.tp, tp), feat(R.far2, tp), feat(R.xs, tp)])
  const range = (template: number, n: number, b: number) => {
    for (let v = 0; v < n; v++) out.add(feat(template, v, b))
  }
  range(R.sal, 16, tp)
  range(R.first, 4, tp)
  range(R.cooc, 4, tp)
  range(R.only, 4, tp)
  range(R.smc, 4, tp)
  range(R.tmc, 4, tp)
  range(R.sentPos, 11, tp)
  range(R.docLen, 7, tp)
  range(R.crowd, 7, tp)
  range(R.crowd, 55, tp + 100)
  range(R.place, 49, tp)
  // typedCandidates keys the other sentences' count by the type-pair feature.
  range(R.bagN, 4, feat(R.tp, tp))
  return out
}
