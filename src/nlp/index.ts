// The extraction engine's public surface (see ./types.ts for the contract with the service).
import { tokenize, type Sentence, type Tokenized } from './tokens.ts'
import type { EntityType } from './entities.ts'
import { extractEntities } from './mentions.ts'
import { anchorsBySentence, candidatePairs, decideRelations, loadRelationModel, wordHashes } from './relations.ts'
import { loadSentimentModel, sentimentTowards, type Span } from './sentiment.ts'
import { MODEL_NAME, type Analysis, type AnalyzeOptions, type ExtractedRelation } from './types.ts'

export { detectLanguage } from './language.ts'
export { extractMentions } from './mentions.ts'

// In the contract: the service reads them from types.ts without loading the models.
export { MODEL_NAME, SUPPORTED_LANGUAGES } from './types.ts'

// Resolved from this file so that it works from any working directory and in worker threads.
const relationModel = loadRelationModel(new URL('../../models/relations.json', import.meta.url))
const sentimentModel = loadSentimentModel(new URL('../../models/sentiment.bin.gz', import.meta.url))

/** Sentiment expressed towards the target spans in one sentence (used by analyze and eval). */
export function targetSentiment(doc: Tokenized, targets: Span[], sent: number, words = wordHashes(doc)) {
  return sentimentTowards(sentimentModel, doc, words, targets, sent)
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

/** The sentence supporting a relation, or for an overlong sentence the stretch around the pair. */
function evidence(doc: Tokenized, s: Sentence, first1: number, first2: number, last1: number, last2: number): string {
  if (s.end - s.start <= MAX_EVIDENCE) return doc.text.slice(s.start, s.end)
  const a = Math.max(s.first, Math.min(first1, first2) - EVIDENCE_CONTEXT)
  const b = Math.min(s.last, Math.max(last1, last2) + EVIDENCE_CONTEXT)
  return doc.text.slice(doc.tokens[a].start, doc.tokens[b - 1].end)
}

export function analyze(text: string, options: AnalyzeOptions): Analysis {
  const doc = tokenize(text)
  const entities = extractEntities(doc)
  const lists: Analysis['entities'] = { persons: [], organizations: [], locations: [], objects: [] }
  for (const e of entities) lists[LIST[e.type]].push(e.name)

  const relations: ExtractedRelation[] = []
  const anchors = anchorsBySentence(doc, entities)
  const candidates = candidatePairs(anchors)
  // Hashed once for the relation features and the sentiment of every relation.
  const words = candidates.length ? wordHashes(doc) : new Uint32Array(0)
  const decisions = decideRelations(doc, anchors, candidates, relationModel, words)
  decisions.sort((a, b) => b.confidence - a.confidence || a.candidate.source.first - b.candidate.source.first)
  for (const d of decisions) {
    const { source, target, sent } = d.candidate
    const s = doc.sentences[sent]
    relations.push({
      source: source.entity.name,
      target: target.entity.name,
      type: d.type,
      evidence: evidence(doc, s, source.first, target.first, source.last, target.last),
      sentiment: targetSentiment(doc, [source, target], sent, words),
      confidence: +d.confidence.toFixed(4),
    })
  }
  return { entities: lists, relations, language: options.language, model: MODEL_NAME }
}
