// Offsets in code points, UTF-16 units and UTF-8 bytes: each unit's own slicing of the text at
// the converted offsets gives the same string as JavaScript's slicing at the UTF-16 ones.
import t from 'tap'
import fc from 'fast-check'
import { offsetConverter } from '../../src/analysis/offsets.ts'
import { ENCODINGS, sliceIn, trickyPiece } from '../helpers/unicode.ts'

/** The UTF-16 offsets of `text` that are code point boundaries. */
function boundaries(text: string): number[] {
  const out = [0]
  let i = 0
  for (const c of text) out.push((i += c.length))
  return out
}

t.test('known texts', async (t) => {
  const cases: { name: string; text: string; at: number; codepoint: number; utf8: number }[] = [
    { name: 'ASCII', text: 'Tim Cook', at: 4, codepoint: 4, utf8: 4 },
    { name: 'astral emoji before', text: '😀 Apple', at: 3, codepoint: 2, utf8: 5 },
    { name: 'skin-tone modifier (two astral code points)', text: '👋🏽Cook', at: 4, codepoint: 2, utf8: 8 },
    { name: 'ZWJ family sequence', text: '👨‍👩‍👧 Berlin', at: 9, codepoint: 6, utf8: 19 },
    { name: 'combining acute accent', text: 'Jose\u0301 Mari\u0301a', at: 6, codepoint: 6, utf8: 7 },
    { name: 'CRLF', text: 'Apple\r\nBerlin', at: 7, codepoint: 7, utf8: 7 },
    { name: 'Hebrew (RTL) and an RLM', text: 'שלום\u200F London', at: 6, codepoint: 6, utf8: 12 },
    { name: 'Arabic', text: 'مرحبا Paris', at: 6, codepoint: 6, utf8: 11 },
    { name: 'CJK (3 bytes each)', text: '東京 Tokyo', at: 3, codepoint: 3, utf8: 7 },
    { name: 'end of text', text: 'é😀', at: 3, codepoint: 2, utf8: 6 },
  ]
  for (const c of cases) {
    t.equal(offsetConverter(c.text, 'utf16')(c.at), c.at, `${c.name}: utf16 is the identity`)
    t.equal(offsetConverter(c.text, 'codepoint')(c.at), c.codepoint, `${c.name}: code points`)
    t.equal(offsetConverter(c.text, 'utf8')(c.at), c.utf8, `${c.name}: UTF-8 bytes`)
  }
  t.equal(offsetConverter('😀x', 'codepoint')(1), 0, 'inside a surrogate pair: the start of the pair')
  t.throws(() => offsetConverter('abc', 'utf8')(4), RangeError, 'past the end')
  t.throws(() => offsetConverter('abc', 'codepoint')(-1), RangeError, 'before the start')
})

// Random texts of the characters that break offset arithmetic, mixed with plain words.
const word = fc.constantFrom('Tim', 'Cook', 'Apple', 'Berlin', 'a', 'the', '.', ',')
const unicodeText = fc
  .array(fc.oneof(trickyPiece, word, fc.string({ unit: 'grapheme', maxLength: 4 })), { maxLength: 40 })
  .map((parts) => parts.join(''))

t.test('property: slicing at converted offsets gives the same text in every encoding', async (t) => {
  fc.assert(
    fc.property(unicodeText, fc.nat(), fc.nat(), (text, i, j) => {
      const cuts = boundaries(text)
      let a = cuts[i % cuts.length]
      let b = cuts[j % cuts.length]
      if (a > b) [a, b] = [b, a]
      for (const encoding of ENCODINGS) {
        const at = offsetConverter(text, encoding)
        if (sliceIn(text, encoding, at(a), at(b)) !== text.slice(a, b)) return false
        if (
          at(text.length) !==
          (encoding === 'utf8' ? Buffer.byteLength(text) : encoding === 'codepoint' ? Array.from(text).length : text.length)
        )
          return false
      }
      return true
    }),
    { numRuns: 2000 },
  )
  t.pass('2000 random texts')
})
