// Texts and slicing for offset tests: the characters that break offset arithmetic (astral
// emoji, skin tones, ZWJ sequences, combining marks, CRLF, right-to-left scripts and marks).
import fc from 'fast-check'
import type { OffsetEncoding } from '../../src/analysis/offsets.ts'

/** `text` cut at [start, end) in `encoding` units, as a caller in that language would (Python, JavaScript, Go). */
export function sliceIn(text: string, encoding: OffsetEncoding, start: number, end: number): string {
  if (encoding === 'utf16') return text.slice(start, end)
  if (encoding === 'codepoint') return Array.from(text).slice(start, end).join('')
  return Buffer.from(text, 'utf8').subarray(start, end).toString('utf8')
}

export const ENCODINGS: readonly OffsetEncoding[] = ['codepoint', 'utf16', 'utf8']

export const trickyPiece = fc.constantFrom(
  '😀',
  '👋🏽',
  '👨‍👩‍👧',
  '🏳️‍🌈',
  '\u200D',
  'e\u0301',
  'n\u0303\u0323',
  '\r\n',
  '\n',
  '\t',
  'שלום',
  'مرحبا',
  '\u200F',
  '\u202E',
  '東京',
  '𝔘𝔫𝔦',
  'ß',
  'İ',
  '\uFEFF',
  ' ',
)
