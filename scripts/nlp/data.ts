// Reading the shared corpora (never copied into the repository) and mapping their labels.
import { readFileSync, existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import { buildEntities, cleanName, type EntityType, type Mention } from '../../src/nlp/entities.ts'
import { tokenize } from '../../src/nlp/tokens.ts'

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
export const DATA_DIR = process.env.TEA_DATA_DIR ?? path.resolve(REPO_ROOT, '../shared/data')

/** The entity dev splits, relative to DATA_DIR, in the order of the evaluation table. */
export const DEV_FILES = [
  'conll2003/dev_docs.jsonl',
  'wnut17/dev_grouped.jsonl',
  'conll04/dev_grouped.jsonl',
  ...['politics', 'science', 'music', 'literature', 'ai'].map((d) => `crossner/${d}_dev.jsonl`),
]

export interface GoldEntity {
  text: string
  type: string
  start: number
  end: number
}
export interface GoldRelation {
  source: number
  target: number
  type: string
}
export interface Example {
  id: string
  text: string
  entities?: GoldEntity[]
  relations?: GoldRelation[]
  language?: string
  target?: string
  start?: number
  end?: number
  polarity?: string
  sentence_id?: string
}

/**
 * A file named on the command line: as given (relative to where the command was typed; npm
 * puts that in INIT_CWD) when it exists there, else relative to the shared data folder, so
 * both `../shared/data/conll04/dev.jsonl` and `conll04/dev.jsonl` work.
 */
export function dataPath(rel: string): string {
  if (path.isAbsolute(rel)) return rel
  const asTyped = path.resolve(process.env.INIT_CWD ?? process.cwd(), rel)
  return existsSync(asTyped) ? asTyped : path.resolve(DATA_DIR, rel)
}

export function hasData(rel: string): boolean {
  return existsSync(dataPath(rel))
}

export function readJsonl(file: string): Example[] {
  return readFileSync(dataPath(file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Example)
}

/** Tagger label for a corpus label ("MISC" is learned but has no service type). */
export const TAGGER_LABEL: Record<string, 'PER' | 'ORG' | 'LOC' | 'MISC' | 'OBJ' | undefined> = {
  PER: 'PER',
  Peop: 'PER',
  person: 'PER',
  ORG: 'ORG',
  Org: 'ORG',
  corporation: 'ORG',
  group: 'ORG',
  LOC: 'LOC',
  Loc: 'LOC',
  location: 'LOC',
  MISC: 'MISC',
  product: 'OBJ',
  'creative-work': 'OBJ',
  OBJ: 'OBJ',
}

/** Service type of a corpus label; undefined for MISC / Other (scored neither as hit nor miss). */
export function serviceType(label: string): EntityType | undefined {
  const t = TAGGER_LABEL[label]
  return t === 'MISC' ? undefined : t
}

/** CoNLL04 relation labels → service relation types. */
export const RELATION_LABEL: Record<string, string> = {
  Work_For: 'works_for',
  Live_In: 'lives_in',
  Located_In: 'located_in',
  OrgBased_In: 'located_in',
  Kill: 'killed',
}

/** Seeded PRNG (mulberry32) so that training is reproducible. */
export function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export function shuffle<T>(xs: T[], r: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1))
    ;[xs[i], xs[j]] = [xs[j], xs[i]]
  }
  return xs
}

// The end and sentence of each token of the last text asked about (goldMentions is asked twice per text).
let sentencesOf: { text: string; ends: number[]; sents: number[] } | undefined

/** The engine's sentence (./tokens.ts) of the token at or after an offset of a text. */
function sentenceAt(text: string, offset: number): number {
  if (sentencesOf?.text !== text) {
    const { tokens } = tokenize(text)
    sentencesOf = { text, ends: tokens.map((t) => t.end), sents: tokens.map((t) => t.sent) }
  }
  const { ends, sents } = sentencesOf
  let lo = 0
  let hi = ends.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (ends[mid] <= offset) lo = mid + 1
    else hi = mid
  }
  return sents[Math.min(lo, sents.length - 1)] ?? 0
}

/**
 * Gold mentions of one text as service-typed mentions (MISC / Other dropped), each with the
 * engine's sentence of its text (buildEntities reads whether two names share one).
 */
export function goldMentions(ex: Example): (Mention & { index: number })[] {
  const out: (Mention & { index: number })[] = []
  ;(ex.entities ?? []).forEach((e, index) => {
    const type = serviceType(e.type)
    if (!type) return
    const sent = sentenceAt(ex.text, e.start)
    out.push({ type, first: index, last: index + 1, start: e.start, end: e.end, text: e.text, sent, index })
  })
  return out
}

/** Canonical names of gold entities, merged by the same rules as the engine's own output. */
export function goldCanon(ex: Example): {
  names: Set<string>
  nameOf: Map<number, string>
  triples: Set<string>
  unscored: Set<string>
} {
  const ms = goldMentions(ex)
  // Names the corpus labels MISC / Other have no service type: the data's README says to score
  // them neither as hits nor as misses, so a reported entity of that name is left out of the score.
  const unscored = new Set<string>()
  for (const e of ex.entities ?? []) if (!serviceType(e.type)) unscored.add(unscoredKey(cleanName(e.text)))
  const ents = buildEntities(ms, ex.text.length)
  const nameOf = new Map<number, string>()
  const names = new Set<string>()
  for (const e of ents) {
    names.add(`${e.type}|${e.name}`)
    for (const m of e.mentions) nameOf.set((m as Mention & { index: number }).index, e.name)
  }
  const triples = new Set<string>()
  for (const r of ex.relations ?? []) {
    const type = RELATION_LABEL[r.type] ?? r.type
    const s = nameOf.get(r.source)
    const t = nameOf.get(r.target)
    if (s && t) triples.add(`${type}|${s}|${t}`)
  }
  return { names, nameOf, triples, unscored }
}

/** Key under which a reported name matches a gold name of no service type (case, dots and a leading "the" ignored). */
export function unscoredKey(name: string): string {
  return name.toLowerCase().replace(/[.’']/g, '').replace(/\s+/g, ' ').trim().replace(/^the /, '')
}
