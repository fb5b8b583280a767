// The extraction engine's public surface (see ./types.ts for the contract with the service).
import { tokenize, type Sentence, type Tokenized } from './tokens.ts'
import type { EntityType } from './entities.ts'
import { extractEntities, loadEntityModels } from './mentions.ts'
import {
  anchorsBySentence,
  candidatePairs,
  decideRelations,
  loadRelationModel,
  wordHashes,
  type Decision,
  type RelationModel,
} from './relations.ts'
import type { Entity } from './entities.ts'
import { loadSentimentModel, sentimentTowards, type SentimentModel, type Span } from './sentiment.ts'
import { codePointSpan, entityDetail, salienceTotal } from './detail.ts'
import { MODEL_NAME, type Analysis, type AnalyzeOptions, type ExtractedRelation } from './types.ts'

export { detectLanguage } from './language.ts'
export { extractMentions } from './mentions.ts'

// In the contract: the service reads them from types.ts without loading the models.
export { MODEL_NAME, SUPPORTED_LANGUAGES } from './types.ts'

// Resolved from this file so that it works from any working directory and in worker threads.
const RELATION_FILE = new URL('../../models/relations.json', import.meta.url)
const SENTIMENT_FILE = new URL('../../models/sentiment.bin.gz', import.meta.url)
// Importing this module reads no model: each loads on first use, or all at once by loadModels.
let relationModel: RelationModel | undefined
let sentimentModel: SentimentModel | undefined

function currentRelationModel(): RelationModel {
  return (relationModel ??= loadRelationModel(RELATION_FILE))
}

function currentSentimentModel(): SentimentModel {
  return (sentimentModel ??= loadSentimentModel(SENTIMENT_FILE))
}

/**
 * Loads every model of the engine (tagger, entity confidence, relations, sentiment) unless
 * already loaded, so that a service pays for it at start-up rather than on its first analysis.
 */
export function loadModels(): void {
  loadEntityModels()
  currentRelationModel()
  currentSentimentModel()
}

/** Sentiment expressed towards the target spans in one sentence (used by analyze and eval). */
export function targetSentiment(doc: Tokenized, targets: Span[], sent: number, words = wordHashes(doc)) {
  return sentimentTowards(currentSentimentModel(), doc, words, targets, sent)
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

/**
 * The relations among a document's entities, most confident first. `model` replaces the
 * committed relation model (cross-validation in scripts/nlp/eval-relations.ts).
 */
export function extractRelations(
  doc: Tokenized,
  entities: Entity[],
  model: RelationModel = currentRelationModel(),
  words?: Uint32Array,
): Decision[] {
  const anchors = anchorsBySentence(doc, entities)
  const candidates = candidatePairs(anchors, model.places)
  if (!candidates.length) return []
  const decisions = decideRelations(doc, anchors, candidates, model, words ?? wordHashes(doc), entities)
  decisions.sort((a, b) => b.confidence - a.confidence || a.candidate.source.first - b.candidate.source.first)
  return decisions
}

export function analyze(text: string, options: AnalyzeOptions): Analysis {
  const doc = tokenize(text)
  const entities = extractEntities(doc)
  const lists: Analysis['entities'] = { persons: [], organizations: [], locations: [], objects: [] }
  const detail: NonNullable<Analysis['detail']> = { persons: [], organizations: [], locations: [], objects: [] }
  const total = salienceTotal(entities)
  for (const e of entities) {
    lists[LIST[e.type]].push(e.name)
    detail[LIST[e.type]].push(entityDetail(text, e, total))
  }

  const relations: ExtractedRelation[] = []
  // Hashed once for the relation features and the sentiment of every relation.
  const words = entities.length > 1 ? wordHashes(doc) : new Uint32Array(0)
  const decisions = entities.length > 1 ? extractRelations(doc, entities, currentRelationModel(), words) : []
  for (const d of decisions) {
    const { source, target, sent, sent2 } = d.candidate
    const s = doc.sentences[sent]
    const [evidenceStart, evidenceEnd] = evidence(doc, s, source.first, target.first, source.last, target.last, doc.sentences[sent2])
    relations.push({
      source: source.entity.name,
      target: target.entity.name,
      type: d.type,
      evidence: text.slice(evidenceStart, evidenceEnd),
      // Read in the source's sentence; across two sentences, towards the source alone there.
      sentiment: targetSentiment(doc, sent === sent2 ? [source, target] : [source], sent, words),
      confidence: +d.confidence.toFixed(4),
      evidenceStart,
      evidenceEnd,
    })
  }
  return { entities: lists, relations, language: options.language, model: MODEL_NAME, detail }
}
