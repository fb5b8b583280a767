// The contract between the service and the extraction engine. The service depends only on
// this file and on `src/nlp/index.ts` exporting `loadEngineModels`, `createEngine` (whose
// `analyze` it calls), `detectLanguage`, `MODEL_NAME` and `SUPPORTED_LANGUAGES`, so the engine
// can be replaced without touching HTTP code.
import { readFileSync } from 'node:fs'

/** Every relation type the engine may emit. Must equal the `RelationType` enum in openapi.yaml (a test checks). */
export const RELATION_TYPES = [
  'works_for',
  'located_in',
  'lives_in',
  'born_in',
  'founded',
  'owns',
  'acquired',
  'part_of',
  'member_of',
  'produces',
  'partner_of',
  'competitor_of',
  'family_of',
  'killed',
] as const
export type RelationType = (typeof RELATION_TYPES)[number]

export type Sentiment = 'positive' | 'negative' | 'neutral'

export interface ExtractedRelation {
  /** Canonical name; appears in one of the entity lists. */
  source: string
  /** Canonical name; appears in one of the entity lists. */
  target: string
  type: RelationType
  /** Shortest sentence-level excerpt of the input supporting the relation. */
  evidence: string
  /** Sentiment expressed about the relation's entities in the evidence. */
  sentiment: Sentiment
  /** Calibrated probability that the relation is correct, 0..1. */
  confidence: number
  /** Where `evidence` is in the input: UTF-16 offsets, end exclusive (absent in results of older engines). */
  evidenceStart?: number
  evidenceEnd?: number
}

/** One place the input refers to an entity: UTF-16 offsets on code point boundaries, end exclusive. */
export interface MentionSpan {
  start: number
  end: number
  /** `name` when the mention spells the canonical name (or a variant of it), else `alias` (a surname alone, a short form). */
  kind: 'name' | 'alias'
}

/** What the engine knows of one entity besides its name. */
export interface EntityDetail {
  /** Calibrated probability that the entity (name and type) is right, 0..1. */
  confidence: number
  /** The entity's share of the salience of all the entities reported for the text (they sum to 1). */
  salience: number
  /** In text order. */
  mentions: MentionSpan[]
}

export interface Analysis {
  /** Each list: deduplicated canonical names, most salient first, at most 100 entries. */
  entities: {
    persons: string[]
    organizations: string[]
    locations: string[]
    objects: string[]
  }
  relations: ExtractedRelation[]
  /** ISO 639-1 code the analysis ran as. */
  language: string
  /** Model name and version, e.g. "tea-extract-2.0.0". */
  model: string
  /**
   * Each entity list's entities described, index for index (`detail.persons[i]` is
   * `entities.persons[i]`). Absent in results of older engines.
   */
  detail?: Record<keyof Analysis['entities'], EntityDetail[]>
}

export interface AnalyzeOptions {
  /** ISO 639-1 code decided by the caller (hint) or by detectLanguage; must be supported. */
  language: string
}

/** Upper bound on entities kept per type by the engine (the API's maxEntitiesPerType ceiling). */
export const MAX_ENTITIES_PER_TYPE = 100

/** The engine's model and version (`meta.model`), as models/meta.json names it; part of every
 * cache key, so an upgraded model never answers with a result of the one before. Reading it
 * loads no model. */
export const MODEL_NAME: string = (JSON.parse(readFileSync(new URL('../../models/meta.json', import.meta.url), 'utf8')) as { name: string })
  .name

/** Languages `analyze` accepts (ISO 639-1). The service rejects others before counting them. */
export const SUPPORTED_LANGUAGES: readonly string[] = Object.freeze(['en'])
