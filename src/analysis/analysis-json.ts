// An analysis that arrives as JSON text (from a pool worker) keeps that text, so that the cache
// write encrypts it as it is instead of serialising the object again on the main thread. A
// worker answering text also spares the structured clone: in V8, deserialising a 2,000-character
// analysis costs the receiving thread about twice what `JSON.parse` of its text does.
import type { Analysis } from '../nlp/types.ts'

const texts = new WeakMap<Analysis, string>()

/** The analysis of `json`, which `analysisJson` then returns for it. Analyses are never changed once made. */
export function analysisFromJson(json: string): Analysis {
  const analysis = JSON.parse(json) as Analysis
  texts.set(analysis, json)
  return analysis
}

/** `JSON.stringify(analysis)`, or the text it was parsed from. */
export function analysisJson(analysis: Analysis): string {
  return texts.get(analysis) ?? JSON.stringify(analysis)
}
