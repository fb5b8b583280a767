// Relations between entities of one sentence: candidate pairs (pronouns resolved to the
// canonical entity), a typed decision per pair, evidence and calibrated confidence.
//
// Types that CoNLL04 annotates (works_for, lives_in, located_in, killed) are decided by a
// logistic regression trained on it: there the entity types fix the relation type, and the
// model only judges whether the pair is related. The other types come from cue phrases.
import { readFileSync } from 'node:fs'
import type { Tokenized } from './tokens.ts'
import type { Entity, EntityType } from './entities.ts'
import type { RelationType } from './types.ts'
import { feat, fnv, lowerForms } from './features.ts'
import { calibrate, type Calibration } from './calibration.ts'
import { IdIndex } from './tables.ts'

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
  sent: number
}

const PRONOUN_TYPE: Record<string, EntityType> = {
  he: 'PER', him: 'PER', his: 'PER', she: 'PER', her: 'PER', hers: 'PER', himself: 'PER', herself: 'PER',
}

/**
 * Anchors per sentence. A personal pronoun resolves to the most recent person mentioned in
 * the same or the two previous sentences (no gender model: the most recent one wins).
 */
export function anchorsBySentence(doc: Tokenized, entities: Entity[]): Anchor[][] {
  const bySent: Anchor[][] = doc.sentences.map(() => [])
  const mentionAt = new Map<number, { last: number; e: Entity }>()
  for (const e of entities) for (const m of e.mentions) mentionAt.set(m.first, { last: m.last, e })
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
    if (!type || !lastPerson || t.sent - lastPerson.sent > 2) continue
    bySent[t.sent].push({ entity: lastPerson.e, first: i, last: i + 1, sent: t.sent, pronoun: true })
  }
  return bySent
}

const MAX_GAP = 30

/** Ordered pairs of distinct entities within a sentence (each mention pair once). */
export function candidatePairs(anchors: Anchor[][]): RelationCandidate[] {
  const out: RelationCandidate[] = []
  for (let s = 0; s < anchors.length; s++) {
    const list = anchors[s]
    if (list.length > 40) continue // tables and lists: no sentence-level relations to read
    for (let a = 0; a < list.length; a++) {
      for (let b = 0; b < list.length; b++) {
        if (a === b) continue
        const x = list[a]
        const y = list[b]
        if (x.entity === y.entity || (x.pronoun && y.pronoun)) continue
        // Farther apart than this, sentence-level relations are rare and the pairs many.
        if ((x.first < y.first ? y.first - x.last : x.first - y.last) > MAX_GAP) continue
        out.push({ source: x, target: y, sent: s })
      }
    }
  }
  return out
}

/** The CoNLL04 relation implied by an ordered pair of entity types. */
export const PAIR_TYPE: Partial<Record<string, RelationType>> = {
  'PER>ORG': 'works_for',
  'PER>LOC': 'lives_in',
  'ORG>LOC': 'located_in',
  'LOC>LOC': 'located_in',
  'PER>PER': 'killed',
}

interface Pattern {
  type: RelationType
  src: EntityType[]
  tgt: EntityType[]
  /** Matched against the lower-cased words between source and target (source first). */
  between: RegExp
  /** Set when the target comes first in the text ("X's founder Y"): matched the same way. */
  reversed?: boolean
}

// Cue phrases for the types CoNLL04 does not annotate, and for born_in, which CoNLL04 folds into Live_In.
const PATTERNS: Pattern[] = [
  { type: 'born_in', src: ['PER'], tgt: ['LOC'], between: /\bborn\b.*\b(in|at)\b|\bnative of\b|\bbirthplace\b/ },
  { type: 'founded', src: ['PER', 'ORG'], tgt: ['ORG'], between: /\b(co-?)?found(ed|s|ing)\b|\b(co-?)?founder of\b|\bestablished\b|\bset up\b|\bcreated\b|\bstarted\b/ },
  { type: 'founded', src: ['PER'], tgt: ['ORG'], between: /^(,|'s|’s)?\s*(co-?)?founders?\b|^(,|'s|’s)?\s*the (co-?)?founders?\b/, reversed: true },
  { type: 'acquired', src: ['ORG', 'PER'], tgt: ['ORG', 'OBJ'], between: /\b(acquired?|acquires|acquiring|bought|buys|buying|purchased?|purchases|took over|takes over|take over|takeover of|acquisition of)\b/ },
  { type: 'part_of', src: ['ORG', 'LOC'], tgt: ['ORG'], between: /\b(part|division|unit|subsidiary|arm|branch|department|wing|affiliate) of\b/ },
  { type: 'member_of', src: ['PER', 'ORG', 'LOC'], tgt: ['ORG'], between: /\bmembers? of\b|\bjoined\b|\bplays? for\b|\bplayed for\b|\bsigned (with|for)\b|\bmembership (in|of)\b/ },
  { type: 'owns', src: ['PER', 'ORG'], tgt: ['ORG', 'OBJ', 'LOC'], between: /\b(owns|owned|owner of|parent( company)? of|controls|stake in)\b/ },
  { type: 'owns', src: ['PER', 'ORG'], tgt: ['ORG', 'OBJ'], between: /^(,|'s|’s)?\s*(the )?(owner|parent( company)?)\b|^\s*is owned by\b|^,? owned by\b/, reversed: true },
  { type: 'produces', src: ['ORG', 'PER'], tgt: ['OBJ'], between: /\b(makes?|made|makers? of|produces?|produced|producer of|manufactures?|manufactured|manufacturer of|released?|launch(ed|es)?|unveil(ed|s)?|develop(ed|s)?|developer of|built|builds|designed|wrote|written|directed|publish(ed|es))\b|^(’s|'s)$/ },
  { type: 'produces', src: ['ORG', 'PER'], tgt: ['OBJ'], between: /^\s*(is|was)? ?(made|produced|manufactured|developed|built|designed|released|published|written|directed) by\b|^,? (made|built|developed|designed|produced) by\b/, reversed: true },
  { type: 'partner_of', src: ['ORG', 'PER', 'LOC'], tgt: ['ORG', 'PER', 'LOC'], between: /\bpartner(ed|ing|ship|s)? (with|of)\b|\bteamed up with\b|\balliance with\b|\bjoint venture with\b|\bcollaborat(ed|ing|ion) with\b|\bpartnership between\b/ },
  { type: 'competitor_of', src: ['ORG', 'PER'], tgt: ['ORG', 'PER'], between: /\brivals?\b|\bcompetitors?\b|\bcompet(es|ed|ing) (with|against)\b|\bcompetition (with|from)\b|\bbattle with\b/ },
  { type: 'family_of', src: ['PER'], tgt: ['PER'], between: /\b(wife|husband|son|daughter|brother|sister|father|mother|widow|widower|cousin|uncle|aunt|nephew|niece|grandson|granddaughter|grandfather|grandmother|spouse|sibling|parents?|child|children)\b|\bmarried\b/ },
]

/** The cue-phrase type for a candidate, if any. */
export function patternType(doc: Tokenized, c: RelationCandidate): RelationType | undefined {
  const { source: s, target: t } = c
  const forward = s.first < t.first
  const [a, b] = forward ? [s, t] : [t, s]
  if (b.first - a.last > 14) return undefined
  const patterns = PATTERNS_BY_PAIR.get(s.entity.type + '>' + t.entity.type + (forward ? '' : '<'))
  if (!patterns) return undefined
  const between = betweenText(doc, a.last, b.first)
  for (const p of patterns) if (p.between.test(between)) return p.type
  return undefined
}

// Patterns grouped by (source type, target type, direction), in their order of precedence.
const PATTERNS_BY_PAIR = new Map<string, Pattern[]>()
for (const p of PATTERNS) {
  for (const src of p.src) {
    for (const tgt of p.tgt) {
      const k = src + '>' + tgt + (p.reversed ? '<' : '')
      const list = PATTERNS_BY_PAIR.get(k)
      if (list) list.push(p)
      else PATTERNS_BY_PAIR.set(k, [p])
    }
  }
}

function betweenText(doc: Tokenized, from: number, to: number): string {
  let out = ''
  for (let i = from; i < to; i++) out += (i > from ? ' ' : '') + doc.tokens[i].text.toLowerCase()
  return out
}

export interface RelationModel {
  /** Feature id → index into `weights`. */
  features: IdIndex
  weights: Float64Array
  calibration: Calibration
  /** Minimum classifier score for a relation to be reported (chosen on training folds). */
  threshold: number
  /** Confidence reported for a cue-phrase relation, per type. */
  patternConfidence: Partial<Record<RelationType, number>>
}

const bucket = (n: number) => (n <= 0 ? 0 : n <= 2 ? n : n <= 4 ? 3 : n <= 7 ? 4 : n <= 12 ? 5 : 6)
const TYPE_ID: Record<EntityType, number> = { PER: 1, ORG: 2, LOC: 3, OBJ: 4 }

// Feature templates of the relatedness classifier. Never renumber: baked into the model file.
const R = {
  bias: 1, tp: 2, ord: 3, dist: 4, bw: 5, bb: 6, bf: 7, bl: 8, far: 9, verbs: 10, pre: 11, post: 12,
  app: 13, poss: 14, adj: 15, spron: 16, tpron: 17, commas: 18, shead: 19, thead: 20, trank: 21,
  srank: 22, ranks: 23, uw: 24, sgaz: 25, tgaz: 26, smc: 27, tmc: 28, crowd: 29,
  dsyn: 30, dord: 31, ctx2: 32,
} as const

export const RELATION_BIAS = feat(R.bias, 0)

/** Lower-cased word hashes of a document's tokens (computed once per document, read-only). */
export function wordHashes(doc: Tokenized): Uint32Array {
  return lowerForms(doc).hashes
}

const COMMA = fnv(',')
const POSSESSIVE = new Set([fnv("'s"), fnv('’s')])

/** Features (hashed, see features.ts) of a candidate pair for the relatedness classifier. */
export function relationFeatures(doc: Tokenized, words: Uint32Array, c: RelationCandidate, sentAnchors: Anchor[]): number[] {
  const { source: s, target: t } = c
  const tp = TYPE_ID[s.entity.type] * 8 + TYPE_ID[t.entity.type]
  const forward = s.first < t.first
  const [a, b] = forward ? [s, t] : [t, s]
  const toks = doc.tokens
  const sent = doc.sentences[c.sent]
  const dist = b.first - a.last
  const f: number[] = [RELATION_BIAS, feat(R.tp, tp), feat(R.ord, forward ? 1 : 0, tp), feat(R.dist, bucket(dist), tp)]
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
  f.push(feat(R.pre, a.first - 1 >= sent.first ? words[a.first - 1] : 1, tp), feat(R.post, b.last < sent.last ? words[b.last] : 2, tp))
  if (dist === 1 && words[a.last] === COMMA) f.push(feat(R.app, tp))
  if (dist === 1 && POSSESSIVE.has(words[a.last])) f.push(feat(R.poss, tp))
  if (dist === 0) f.push(feat(R.adj, tp))
  if (s.pronoun) f.push(feat(R.spron, tp))
  if (t.pronoun) f.push(feat(R.tpron, tp))
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
  // How often each entity is mentioned (the document's main actors take part in more of its
  // relations) and how crowded the sentence is (lists and tables relate few of their names).
  f.push(feat(R.smc, Math.min(s.entity.mentions.length, 3), tp), feat(R.tmc, Math.min(t.entity.mentions.length, 3), tp))
  f.push(feat(R.crowd, bucket(sentAnchors.length), tp))
  // The source's own last word carries titles of its head ("President", "Inc").
  f.push(feat(R.shead, words[s.last - 1], tp), feat(R.thead, words[t.last - 1], tp))
  // Is the target the nearest entity of its type to the source, and vice versa? Pairing each
  // entity with its nearest compatible partner alone reaches F1 0.5 on CoNLL04.
  let tRank = 0
  let sRank = 0
  const d0 = dist
  for (const o of sentAnchors) {
    if (o.entity === s.entity || o.entity === t.entity) continue
    if (o.entity.type === t.entity.type && gapOf(s, o) < d0) tRank++
    if (o.entity.type === s.entity.type && gapOf(o, t) < d0) sRank++
  }
  tRank = Math.min(tRank, 2)
  sRank = Math.min(sRank, 2)
  f.push(feat(R.trank, tRank, tp), feat(R.srank, sRank, tp), feat(R.ranks, tRank * 4 + sRank))
  // What the names are known as: a country or state is a likely container, a city a likely base.
  // Only the external lists (the first seven classes): the names from the training annotation
  // would be known for every training pair and so be over-trusted.
  for (let b = 0; b < 7; b++) {
    if ((s.entity.classes ?? 0) & (1 << b)) f.push(feat(R.sgaz, b, tp))
    if ((t.entity.classes ?? 0) & (1 << b)) f.push(feat(R.tgaz, b, tp))
  }
  return f
}

function gapOf(x: Anchor, y: Anchor): number {
  return x.first < y.first ? y.first - x.last : x.first - y.last
}

export function relatednessScore(model: RelationModel, feats: number[]): number {
  let z = 0
  for (const f of feats) {
    const r = model.features.row(f)
    z += r < 0 ? 0 : model.weights[r]
  }
  return 1 / (1 + Math.exp(-z))
}

export interface Decision {
  type: RelationType
  confidence: number
  candidate: RelationCandidate
}

/** Decides every candidate; returns the reported relations (one per triple, best evidence). */
export function decideRelations(doc: Tokenized, anchors: Anchor[][], candidates: RelationCandidate[], model: RelationModel, words = wordHashes(doc)): Decision[] {
  const best = new Map<string, Decision>()
  for (const c of candidates) {
    let type = patternType(doc, c)
    let confidence: number
    if (type) confidence = model.patternConfidence[type] ?? 0.5
    else {
      type = PAIR_TYPE[c.source.entity.type + '>' + c.target.entity.type]
      if (!type) continue
      const score = relatednessScore(model, relationFeatures(doc, words, c, anchors[c.sent]))
      if (score < model.threshold) continue
      confidence = calibrate(model.calibration, score)
    }
    const k = c.source.entity.type + c.source.entity.name + '\u0000' + type + '\u0000' + c.target.entity.type + c.target.entity.name
    const prev = best.get(k)
    const len = doc.sentences[c.sent].end - doc.sentences[c.sent].start
    if (!prev) best.set(k, { type, confidence, candidate: c })
    else {
      const plen = doc.sentences[prev.candidate.sent].end - doc.sentences[prev.candidate.sent].start
      // Several sentences support the same triple: it is at least as likely as the best of them,
      // and the shortest one serves as evidence.
      const conf = Math.max(prev.confidence, confidence)
      best.set(k, len < plen ? { type, confidence: conf, candidate: c } : { ...prev, confidence: conf })
    }
  }
  // A place is not inside what is inside it, and a killer is not killed by the victim: of the
  // two directions of a pair, only the likelier is reported (located_in, killed).
  for (const [k, d] of best) {
    if (d.type !== 'located_in' && d.type !== 'killed') continue
    const [src, type, tgt] = k.split('\u0000')
    const r = best.get(tgt + '\u0000' + type + '\u0000' + src)
    if (r && (r.confidence > d.confidence || (r.confidence === d.confidence && tgt < src))) best.delete(k)
  }
  return [...best.values()]
}

export function loadRelationModel(path: URL): RelationModel {
  return parseRelationModel(JSON.parse(readFileSync(path, 'utf8')) as RelationModelFile)
}

export interface RelationModelFile {
  format: 'tea-relations-2'
  /** Hashed feature id (decimal) → weight. */
  weights: Record<string, number>
  calibration: Calibration
  threshold: number
  patternConfidence: Partial<Record<RelationType, number>>
}

export function parseRelationModel(j: RelationModelFile): RelationModel {
  if (j.format !== 'tea-relations-2') throw new Error(`relations: unknown model format "${j.format}"`)
  const ids = Object.keys(j.weights)
  return {
    features: new IdIndex(ids.map(Number)),
    weights: Float64Array.from(ids, (k) => j.weights[k]),
    calibration: j.calibration,
    threshold: j.threshold,
    patternConfidence: j.patternConfidence,
  }
}
