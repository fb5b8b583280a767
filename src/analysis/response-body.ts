// The 200 body of POST /v1/analyze, as JSON text. Most requests use the default options, and
// under load most are cache hits: the entities-and-relations part of their body is then the
// same text every time. It is written once per cached analysis and kept on the cache entry
// (whose size bound counts it), so a hit writes only `meta` instead of serialising the whole
// result again, which was a noticeable share of a cached request's CPU.
import type { operations } from '../../generated/api-types.ts'
import type { Analysis } from '../nlp/types.ts'
import type { CachedAnalysis } from './cache.ts'
import { applyOptions, DEFAULT_MAX_ENTITIES, resolveOptions, type AnalyzeInput } from './service.ts'

type AnalyzeResult = operations['analyzeText']['responses']['200']['content']['application/json']
export type ResponseMeta = AnalyzeResult['meta']

function usesDefaults(options: AnalyzeInput['options']): boolean {
  const { max, withEvidence, mentions } = resolveOptions(options)
  return max === DEFAULT_MAX_ENTITIES && withEvidence && !mentions
}

/** `{"entities":…,"relations":…` of the caller's view of the analysis, with `"entityDetails":…` when asked for (no closing brace). */
function viewText(analysis: Analysis, input: AnalyzeInput): string {
  const { entities, relations, entityDetails } = applyOptions(analysis, input.options, input.text)
  const head = `{"entities":${JSON.stringify(entities)},"relations":${JSON.stringify(relations)}`
  return entityDetails ? `${head},"entityDetails":${JSON.stringify(entityDetails)}` : head
}

/**
 * The response body: exactly `JSON.stringify({ entities, relations, entityDetails, meta })` of
 * the caller's view. `entry`, the cache entry the analysis came from, keeps the default-options part.
 */
export function analyzeResponseBody(analysis: Analysis, input: AnalyzeInput, meta: ResponseMeta, entry?: CachedAnalysis): string {
  let head: string
  if (entry && usesDefaults(input.options)) head = entry.body ??= viewText(analysis, input)
  else head = viewText(analysis, input)
  return `${head},"meta":${JSON.stringify(meta)}}`
}
