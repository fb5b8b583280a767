// The 200 body of POST /v1/analyze, as JSON text. Most requests use the default options, and
// under load most are cache hits: the entities-and-relations part of their body is then the
// same text every time. It is written once per cached analysis and kept on the cache entry
// (whose size bound counts it), so a hit writes only `meta` instead of serialising the whole
// result again, which was a noticeable share of a cached request's CPU. An uncached result from
// a worker arrives with its view already written (`AnalysisOutcome.view`); its cache entry keeps
// that text as bytes, which the entry's first hit decodes (`keptBody`).
import type { operations } from '../../generated/api-types.ts'
import type { AnalysisOutcome, AnalyzeInput } from './service.ts'
import { usesDefaults, viewText } from './view.ts'

type AnalyzeResult = operations['analyzeText']['responses']['200']['content']['application/json']
export type ResponseMeta = AnalyzeResult['meta']

/**
 * The response body: exactly `JSON.stringify({ entities, relations, entityDetails, meta })` of
 * the caller's view. `outcome.entry`, the cache entry the analysis came from, keeps the default-options part.
 */
export function analyzeResponseBody(outcome: AnalysisOutcome, input: AnalyzeInput, meta: ResponseMeta): string {
  const { entry } = outcome
  let head: string
  if (outcome.view !== undefined) head = outcome.view
  else if (entry && usesDefaults(input.options))
    head = entry.body ??= entry.keptBody() ?? viewText(entry.analysis, input.options, input.text)
  else head = viewText(outcome.analysis, input.options, input.text)
  return `${head},"meta":${JSON.stringify(meta)}}`
}
