// Offsets of the analysis answer (in the unit the request asked for) back to indexes into a
// JavaScript string (UTF-16 code units), so the playground slices the text exactly where the
// answer says a mention is, whatever characters come before it. The reader's side of
// src/analysis/offsets.ts, written as a client would: it trusts nothing about the offsets.
import type { OffsetEncoding } from '../analysis/offsets.ts'

export type { OffsetEncoding }

/**
 * A function from an offset in `encoding` to the UTF-16 index of the same place in `text`;
 * undefined when the offset is outside the text or falls inside a character (half of a
 * surrogate pair, or inside a UTF-8 sequence).
 */
export function utf16Index(text: string, encoding: OffsetEncoding): (offset: number) => number | undefined {
  if (encoding === 'utf16') {
    return (offset) => {
      if (!Number.isInteger(offset) || offset < 0 || offset > text.length) return undefined
      // An index between the halves of a pair is no place in the text.
      if (offset > 0 && offset < text.length && isLow(text.charCodeAt(offset)) && isHigh(text.charCodeAt(offset - 1))) return undefined
      return offset
    }
  }
  // Each character boundary, in the requested unit, to its UTF-16 index.
  const boundaries = new Map<number, number>()
  let unit = 0
  let index = 0
  for (const ch of text) {
    boundaries.set(unit, index)
    unit += encoding === 'codepoint' ? 1 : utf8Length(ch.codePointAt(0)!)
    index += ch.length
  }
  boundaries.set(unit, index)
  return (offset) => boundaries.get(offset)
}

function isHigh(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff
}

function utf8Length(cp: number): number {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4
}
