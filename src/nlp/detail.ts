// The detail of an analysis beyond the names: each entity's confidence, salience and mentions
// with their offsets, and where each relation's evidence is. Offsets are UTF-16 code units of the
// input (the engine's own), moved out to code point boundaries so that they convert to code
// points and UTF-8 bytes exactly (src/analysis/offsets.ts).
import { spellsName, type Entity } from './entities.ts'
import type { EntityDetail, MentionSpan } from './types.ts'

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff

/** [start, end) widened so that neither end falls between the two halves of a surrogate pair. */
export function codePointSpan(text: string, start: number, end: number): [number, number] {
  if (start > 0 && start < text.length && isLow(text.charCodeAt(start)) && isHigh(text.charCodeAt(start - 1))) start--
  if (end > 0 && end < text.length && isLow(text.charCodeAt(end)) && isHigh(text.charCodeAt(end - 1))) end++
  return [start, end]
}

/** The sum the salience of the reported entities is divided by, so that theirs sums to 1. */
export function salienceTotal(entities: readonly Entity[]): number {
  let total = 0
  for (const e of entities) total += e.salience
  return total
}

/**
 * One entity's detail. Salience is its share of `total` (salienceTotal of the entities reported
 * with it): the engine's score grows with the number of mentions, an early first mention and,
 * a little, a longer name (./entities.ts, buildEntities).
 */
export function entityDetail(text: string, e: Entity, total: number): EntityDetail {
  const mentions: MentionSpan[] = []
  // Spans by number (start × (length + 1) + end), not by a string made for each mention.
  const seen = new Set<number>()
  const stride = text.length + 1
  for (const m of e.mentions) {
    const [start, end] = codePointSpan(text, m.start, m.end)
    if (end <= start || seen.has(start * stride + end)) continue
    seen.add(start * stride + end)
    mentions.push({ start, end, kind: spellsName(e, text.slice(start, end)) ? 'name' : 'alias' })
  }
  mentions.sort((a, b) => a.start - b.start || a.end - b.end)
  return {
    confidence: +e.confidence!.toFixed(4),
    salience: total > 0 ? +(e.salience / total).toFixed(4) : 0,
    mentions,
  }
}
