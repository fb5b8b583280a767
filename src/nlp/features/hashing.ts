// Hashing of words, phrases and features, shared by the tagger, the relation features and the
// sentiment input.
//
// A feature is a 30-bit hash of (template, value…) rather than a string: building and
// hashing ~50 strings per token cost more than wink's whole tokenizer, while integer keys
// in an open-addressing table are a few nanoseconds each. Collisions between the ~10^5
// kept features are negligible at 30 bits.

export const FNV_OFFSET = 0x811c9dc5
export const FNV_PRIME = 0x01000193

// Hashes are cut to 30 bits: V8 keeps such integers unboxed (small integers), so Map and Set
// lookups on them neither allocate nor hash a heap number.

/** FNV-1a over UTF-16 code units, continuing from `h`; 30 bits. */
export function fnv(s: string, h = FNV_OFFSET): number {
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, FNV_PRIME)
  }
  return h >>> 2
}

/** FNV-1a over s[from, to), without slicing. */
export function fnvRange(s: string, from: number, to: number): number {
  let h = FNV_OFFSET
  for (let i = from; i < to; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, FNV_PRIME)
  }
  return h >>> 2
}

/** Phrase key of the gazetteer: words joined by single spaces, hashed. */
export function phraseHash(words: string[]): number {
  // Chained exactly as the gazetteer matcher and the capitalised-run hash do.
  let h = 0
  for (let k = 0; k < words.length; k++) h = k === 0 ? fnv(words[k]) : fnv(words[k], fnv(' ', h))
  return h
}

/** Feature id (30 bits, never 0) from a template number and up to two values (murmur3 finaliser mixing). */
export function feat(template: number, a: number, b = 0): number {
  let x = Math.imul(a ^ Math.imul(template, 0x9e3779b1), 0x85ebca6b)
  x ^= x >>> 13
  x = Math.imul(x ^ b, 0xc2b2ae35)
  x ^= x >>> 16
  x = Math.imul(x ^ template, 0x27d4eb2f)
  x ^= x >>> 15
  // 0 marks an empty slot in the weight table.
  return x & 0x3fffffff || 1
}
