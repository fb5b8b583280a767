// The caller's view of an analysis (its request options applied), as objects and as the JSON
// text of the response body. A leaf module: the pool's workers write the view of the results
// they send (src/analysis/worker.ts), so that the main thread need not parse them to answer.
import type { components } from '../../generated/api-types.ts'
import type { Analysis } from '../nlp/types.ts'
import { offsetConverter } from './offsets.ts'

/** The request options that shape the view (`AnalyzeRequest.options`). */
export type ViewOptions = components['schemas']['AnalyzeOptions']

export const DEFAULT_MAX_ENTITIES = 50

/** The options with their defaults filled in. */
export function resolveOptions(options: ViewOptions = {}) {
  return {
    max: options.maxEntitiesPerType ?? DEFAULT_MAX_ENTITIES,
    withEvidence: options.includeEvidence ?? true,
    mentions: options.include?.includes('mentions') ?? false,
    encoding: options.offsetEncoding ?? 'codepoint',
  }
}

type AnalyzeResult = components['schemas']['AnalyzeResult']
type EntityList = keyof Analysis['entities']
const LISTS: readonly EntityList[] = ['persons', 'organizations', 'locations', 'objects']
const TYPE_OF_LIST = { persons: 'person', organizations: 'organization', locations: 'location', objects: 'object' } as const

/**
 * The caller's view of an analysis: entity lists cut to `maxEntitiesPerType`, relations whose
 * entity was cut dropped with it, evidence removed on request. With `include: [mentions]`, the
 * detail of the entities kept (`entityDetails`, in list order) and, on each relation, its
 * evidence's offsets and its entities' indexes there, every offset in `offsetEncoding` units of
 * `text`, the analysed input.
 */
export function applyOptions(analysis: Analysis, options: ViewOptions | undefined, text?: string): Omit<AnalyzeResult, 'meta'> {
  const { max, withEvidence, mentions, encoding } = resolveOptions(options)
  const entities = {
    persons: analysis.entities.persons.slice(0, max),
    organizations: analysis.entities.organizations.slice(0, max),
    locations: analysis.entities.locations.slice(0, max),
    objects: analysis.entities.objects.slice(0, max),
  }
  if (!mentions) {
    const kept = new Set([...entities.persons, ...entities.organizations, ...entities.locations, ...entities.objects])
    const relations = analysis.relations
      .filter((r) => kept.has(r.source) && kept.has(r.target))
      .map((r) =>
        withEvidence
          ? { source: r.source, target: r.target, type: r.type, evidence: r.evidence, sentiment: r.sentiment, confidence: r.confidence }
          : { source: r.source, target: r.target, type: r.type, sentiment: r.sentiment, confidence: r.confidence },
      )
    return { entities, relations }
  }
  if (!analysis.detail || text === undefined) throw new Error('applyOptions: the mentions of an analysis need its detail and its text')
  const offset = offsetConverter(text, encoding)
  const entityDetails: NonNullable<AnalyzeResult['entityDetails']> = []
  const index = new Map<string, number>()
  for (const list of LISTS) {
    entities[list].forEach((name, i) => {
      const d = analysis.detail![list][i]
      index.set(name, entityDetails.length)
      entityDetails.push({
        name,
        type: TYPE_OF_LIST[list],
        confidence: d.confidence,
        salience: d.salience,
        mentions: d.mentions.map((m) => ({ text: text.slice(m.start, m.end), start: offset(m.start), end: offset(m.end), kind: m.kind })),
      })
    })
  }
  const relations = analysis.relations
    .filter((r) => index.has(r.source) && index.has(r.target))
    .map((r) => {
      const where = {
        evidenceStart: offset(r.evidenceStart!),
        evidenceEnd: offset(r.evidenceEnd!),
        sourceIndex: index.get(r.source)!,
        targetIndex: index.get(r.target)!,
      }
      return withEvidence
        ? {
            source: r.source,
            target: r.target,
            type: r.type,
            evidence: r.evidence,
            sentiment: r.sentiment,
            confidence: r.confidence,
            ...where,
          }
        : { source: r.source, target: r.target, type: r.type, sentiment: r.sentiment, confidence: r.confidence, ...where }
    })
  return { entities, relations, entityDetails }
}

/** Whether `options` give the default view (the one a cache entry keeps as text). */
export function usesDefaults(options: ViewOptions | undefined): boolean {
  const { max, withEvidence, mentions } = resolveOptions(options)
  return max === DEFAULT_MAX_ENTITIES && withEvidence && !mentions
}

/** `{"entities":…,"relations":…` of the caller's view of the analysis, with `"entityDetails":…` when asked for (no closing brace). */
export function viewText(analysis: Analysis, options: ViewOptions | undefined, text: string): string {
  const { entities, relations, entityDetails } = applyOptions(analysis, options, text)
  const head = `{"entities":${JSON.stringify(entities)},"relations":${JSON.stringify(relations)}`
  return entityDetails ? `${head},"entityDetails":${JSON.stringify(entityDetails)}` : head
}
