// The extraction engine's public surface (see ./types.ts for the contract with the service).
// Importing it reads no model: `loadEngineModels` reads the files, `createEngine` answers over
// the models it is given, so a service, a test or a cross-validation fold picks its own.
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import { tokenize, type Sentence, type Tokenized } from './tokens.ts'
import type { Entity, EntityType, Mention } from './entities.ts'
import { extractEntities, extractMentions, type EntityModels } from './mentions.ts'
import {
  anchorsBySentence,
  candidatePairs,
  decideRelations,
  loadRelationModel,
  paragraphsOf,
  RELATION_ENTITY_CUT,
  wordHashes,
  type Decision,
  type RelationModel,
} from './relations.ts'
import { loadTagger } from './tagger.ts'
import { loadConfidenceModel, REPORT_CUT } from './confidence.ts'
import { loadSentimentModel, sentimentTowards, type SentimentModel, type Span } from './sentiment.ts'
import { codePointSpan, entityDetail, salienceTotal } from './detail.ts'
import { MODEL_NAME, type Analysis, type AnalyzeOptions, type ExtractedRelation, type Sentiment } from './types.ts'

export { detectLanguage } from './language.ts'
export type { EntityModels } from './mentions.ts'

// In the contract: the service reads them from types.ts without loading the models.
export { MODEL_NAME, SUPPORTED_LANGUAGES } from './types.ts'

/** Every model the engine reads. */
export interface EngineModels extends EntityModels {
  relations: RelationModel
  sentiment: SentimentModel
}

/** The committed models' folder, resolved from this file so that it works from any working directory and in worker threads. */
export const MODELS_DIR = fileURLToPath(new URL('../../models/', import.meta.url))

/** The entity models (tagger, entity confidence) of a folder laid out as models/. */
export function loadEntityModels(dir: string = MODELS_DIR): EntityModels {
  return {
    tagger: loadTagger(path.join(dir, 'ner.bin.gz')),
    confidence: loadConfidenceModel(path.join(dir, 'entity-confidence.json')),
  }
}

/** The model files of a folder laid out as models/ (the committed one by default). */
export function loadEngineModels(dir: string = MODELS_DIR): EngineModels {
  return {
    ...loadEntityModels(dir),
    relations: loadRelationModel(path.join(dir, 'relations.json')),
    sentiment: loadSentimentModel(path.join(dir, 'sentiment.bin.gz')),
  }
}

export interface Extraction {
  entities: Entity[]
  relations: Decision[]
  /** The document's word hashes when relations were read (sentiment reads them too). */
  words?: Uint32Array
}

export interface Engine {
  readonly models: EngineModels
  /** The whole extraction of one text (the service's `analyze`); synchronous and pure. */
  analyze(text: string, options: AnalyzeOptions): Analysis
  /** Typed mentions found by the tagger and the mention rules, before they are merged into entities. */
  extractMentions(doc: Tokenized): Mention[]
  /** Canonical entities, most salient first (under the confidence cut dropped, unless `all`); before relations are read. */
  extractEntities(doc: Tokenized, options?: { all?: boolean; cut?: number }): Entity[]
  /** The relations among the given entities, most confident first. */
  extractRelations(doc: Tokenized, entities: Entity[], words?: Uint32Array): Decision[]
  /** The entities `analyze` reports (those that fill a reported relation included) and its relations. */
  extract(doc: Tokenized): Extraction
  /** Sentiment expressed towards the target spans in one sentence. */
  targetSentiment(doc: Tokenized, targets: Span[], sent: number, words?: Uint32Array): Sentiment
}

const LIST: Record<EntityType, keyof Analysis['entities']> = {
  PER: 'persons',
  ORG: 'organizations',
  LOC: 'locations',
  OBJ: 'objects',
}

/** Beyond this many characters a "sentence" (often unpunctuated text) is cut around the pair. */
const MAX_EVIDENCE = 400
const EVIDENCE_CONTEXT = 8 // tokens kept on each side of the pair

/**
 * Where the sentence supporting a relation is, or for an overlong sentence the stretch around
 * the pair; for a pair across two adjacent sentences, both sentences (the stretch around the
 * first mention when they are overlong together).
 */
function evidence(doc: Tokenized, s: Sentence, first1: number, first2: number, last1: number, last2: number, s2 = s): [number, number] {
  if (s2 !== s) {
    const [a, b] = s.start < s2.start ? [s, s2] : [s2, s]
    if (b.end - a.start <= 2 * MAX_EVIDENCE) return codePointSpan(doc.text, a.start, b.end)
    return evidence(doc, s, first1, first1, last1, last1)
  }
  if (s.end - s.start <= MAX_EVIDENCE) return codePointSpan(doc.text, s.start, s.end)
  const a = Math.max(s.first, Math.min(first1, first2) - EVIDENCE_CONTEXT)
  const b = Math.min(s.last, Math.max(last1, last2) + EVIDENCE_CONTEXT)
  return codePointSpan(doc.text, doc.tokens[a].start, doc.tokens[b - 1].end)
}

function relationsOf(doc: Tokenized, entities: Entity[], model: RelationModel, words?: Uint32Array): Decision[] {
  const anchors = anchorsBySentence(doc, entities)
  const candidates = candidatePairs(anchors, paragraphsOf(doc), model.places)
  if (!candidates.length) return []
  const decisions = decideRelations(doc, anchors, candidates, model, words ?? wordHashes(doc), entities)
  decisions.sort((a, b) => b.confidence - a.confidence || a.candidate.source.first - b.candidate.source.first)
  return decisions
}

/** An engine over the given models (loaded by loadEngineModels, or any of them replaced). */
export function createEngine(models: EngineModels): Engine {
  const targetSentiment = (doc: Tokenized, targets: Span[], sent: number, words = wordHashes(doc)) =>
    sentimentTowards(models.sentiment, doc, words, targets, sent)
  return {
    models,
    analyze: (text, options) => analyzeText(models, text, options),
    extractMentions: (doc) => extractMentions(doc, models.tagger),
    extractEntities: (doc, options) => extractEntities(doc, models, options),
    extractRelations: (doc, entities, words) => relationsOf(doc, entities, models.relations, words),
    extract: (doc) => extract(models, doc),
    targetSentiment,
  }
}

/**
 * Relations are read among the entities down to RELATION_ENTITY_CUT; the entities reported are
 * those at REPORT_CUT or above and those that fill a reported relation (a relation's source and
 * target are always in the lists).
 */
function extract(models: EngineModels, doc: Tokenized): Extraction {
  const pool = extractEntities(doc, models, { cut: RELATION_ENTITY_CUT })
  // Hashed once for the relation features and the sentiment of every relation.
  const words = pool.length > 1 ? wordHashes(doc) : undefined
  const relations = words ? relationsOf(doc, pool, models.relations, words) : []
  const related = new Set<Entity>()
  for (const d of relations) related.add(d.candidate.source.entity).add(d.candidate.target.entity)
  return { entities: pool.filter((e) => (e.confidence ?? 1) >= REPORT_CUT || related.has(e)), relations, words }
}

function analyzeText(models: EngineModels, text: string, options: AnalyzeOptions): Analysis {
  const doc = tokenize(text)
  const { entities, relations: decisions, words = new Uint32Array(0) } = extract(models, doc)
  const lists: Analysis['entities'] = { persons: [], organizations: [], locations: [], objects: [] }
  const detail: NonNullable<Analysis['detail']> = { persons: [], organizations: [], locations: [], objects: [] }
  const total = salienceTotal(entities)
  for (const e of entities) {
    lists[LIST[e.type]].push(e.name)
    detail[LIST[e.type]].push(entityDetail(text, e, total))
  }

  const relations: ExtractedRelation[] = []
  // One pair of spans often holds two relations: its sentiment is read once.
  const sentiments = new Map<string, Sentiment>()
  for (const d of decisions) {
    const { source, target, sent, sent2 } = d.candidate
    const s = doc.sentences[sent]
    const [evidenceStart, evidenceEnd] = evidence(doc, s, source.first, target.first, source.last, target.last, doc.sentences[sent2])
    // Read in the source's sentence; across two sentences, towards the source alone there.
    const targets = sent === sent2 ? [source, target] : [source]
    const key = targets.map((t) => `${t.first} ${t.last}`).join(' ') + ` ${sent}`
    let sentiment = sentiments.get(key)
    if (!sentiment) sentiments.set(key, (sentiment = sentimentTowards(models.sentiment, doc, words, targets, sent)))
    relations.push({
      source: source.entity.name,
      target: target.entity.name,
      type: d.type,
      evidence: text.slice(evidenceStart, evidenceEnd),
      sentiment,
      confidence: +d.confidence.toFixed(4),
      evidenceStart,
      evidenceEnd,
    })
  }
  return { entities: lists, relations, language: options.language, model: MODEL_NAME, detail }
}
