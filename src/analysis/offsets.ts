// Offsets in the unit the caller asked for (`options.offsetEncoding`). The engine's offsets are
// UTF-16 code units (JavaScript strings); a caller in Python counts code points, one in Go or
// Rust counts UTF-8 bytes. The input never holds a lone surrogate (src/analysis/service.ts
// refuses it), and the engine's offsets are on code point boundaries (src/nlp/detail.ts).
import type { components } from '../../generated/api-types.ts'

export type OffsetEncoding = NonNullable<components['schemas']['AnalyzeOptions']['offsetEncoding']>

const identity = (utf16: number) => utf16

/**
 * A function from a UTF-16 offset of `text` (0..text.length) to the same place in `encoding`
 * units. An offset between the two halves of a surrogate pair maps to the pair's start.
 * Built in one pass over the text, so any number of offsets costs O(length) in all.
 */
export function offsetConverter(text: string, encoding: OffsetEncoding): (utf16: number) => number {
  if (encoding === 'utf16') return identity
  const utf8 = encoding === 'utf8'
  const at = new Uint32Array(text.length + 1)
  let n = 0
  for (let i = 0; i < text.length; i++) {
    at[i] = n
    const c = text.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1)
      if (d >= 0xdc00 && d <= 0xdfff) {
        // An astral code point: one code point, four UTF-8 bytes.
        at[++i] = n
        n += utf8 ? 4 : 1
        continue
      }
    }
    // Everything else in the BMP (a lone surrogate would be the 3 bytes of U+FFFD).
    n += !utf8 ? 1 : c < 0x80 ? 1 : c < 0x800 ? 2 : 3
  }
  at[text.length] = n
  return (utf16: number) => {
    if (!Number.isInteger(utf16) || utf16 < 0 || utf16 > text.length)
      throw new RangeError(`offsetConverter: offset ${utf16} is outside the text (0..${text.length})`)
    return at[utf16]
  }
}
