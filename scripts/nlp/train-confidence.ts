// Fits the entity confidence model (src/nlp/confidence.ts) on out-of-fold predictions: K taggers,
// each trained without fold k of every corpus (cv.ts), extract the entities of the fold-k
// documents; an entity is right when its type and canonical name are among the gold ones.
// A logistic regression (Newton's method, a small ridge) over the pooled rows; its ECE per
// corpus is printed cross-fitted (the regression fitted without the fold it is scored on).
import { rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { tokenize } from '../../src/nlp/tokens.ts'
import { CONFIDENCE_FEATURES, REPORT_CUT, type ConfidenceModel } from '../../src/nlp/confidence.ts'
import type { EntityType } from '../../src/nlp/entities.ts'
import { entityCandidates } from '../../src/nlp/mentions.ts'
import { loadTagger } from '../../src/nlp/tagger.ts'
import { REPO_ROOT, goldCanon, unscoredKey } from './data.ts'
import { ece } from './metrics.ts'
import { foldOf, readNer } from './ner-data.ts'
import { KEPT_FOLDS, trainFoldTaggers } from './cv.ts'
import { SOURCE_REPEAT } from './train-ner.ts'

export interface ConfidenceRow {
  source: string
  fold: number
  type: EntityType
  x: Float64Array
  y: number
  /** Wrong, but the corpus labels the name MISC: the eval counts it neither as a hit nor as a miss. */
  unscored?: boolean
}

/**
 * Corpora that annotate objects (products, works): WNUT-17 and the CrossNER domains whose labels
 * hold one (music, literature, AI: OBJECT_LABELS); the others have none (CrossNER politics and
 * science put books and products in "misc"), so an object found there is of unknown truth.
 */
export const annotatesObjects = (source: string): boolean => /^(?:wnut17\/|crossner\/(?:music|literature|ai)_)/.test(source)

/** Out-of-fold entity rows of the given corpora, from the fold taggers; `gold` counts the gold names per type. */
export function outOfFoldRows(
  folds: { fold: number; tagger: string }[],
  k: number,
  sources: string[],
): ConfidenceRow[] & { gold?: Record<EntityType, number>; goldBySource?: Map<string, number> } {
  const rows: ConfidenceRow[] & { gold?: Record<EntityType, number>; goldBySource?: Map<string, number> } = []
  const goldCount: Record<EntityType, number> = { PER: 0, ORG: 0, LOC: 0, OBJ: 0 }
  const goldBySource = new Map<string, number>()
  rows.gold = goldCount
  rows.goldBySource = goldBySource
  const data = sources.map((s) => ({ s, docs: readNer(s) }))
  for (const { fold, tagger: file } of folds) {
    const tagger = loadTagger(file)
    for (const { s, docs } of data) {
      for (const ex of docs) {
        if (foldOf(ex.id, k) !== fold) continue
        const { names: gold, unscored } = goldCanon(ex)
        for (const g of gold) {
          const t = g.slice(0, g.indexOf('|')) as EntityType
          if (t in goldCount && (t !== 'OBJ' || annotatesObjects(s))) {
            goldCount[t]++
            goldBySource.set(s, (goldBySource.get(s) ?? 0) + 1)
          }
        }
        for (const { entity, features } of entityCandidates(tokenize(ex.text), tagger)) {
          // An object found in a corpus that annotates none is of unknown truth, not wrong.
          if (entity.type === 'OBJ' && !annotatesObjects(s)) continue
          const y = gold.has(`${entity.type}|${entity.name}`) ? 1 : 0
          rows.push({ source: s, fold, type: entity.type, x: features, y, unscored: !y && unscored.has(unscoredKey(entity.name)) })
        }
      }
    }
  }
  return rows
}

/**
 * Row weights that shrink the pull of the large corpora: each row of a corpus of n rows weighs
 * 1/sqrt(n), scaled to a mean of 1. Unweighted, the fit follows CoNLL-2003 and BTC (half the rows)
 * and is worst calibrated on the small corpora; weighted equally per corpus, it is worst on
 * CoNLL-2003. The square root is between the two.
 */
export function corpusWeights(rows: { source: string }[]): number[] {
  const n = new Map<string, number>()
  for (const r of rows) n.set(r.source, (n.get(r.source) ?? 0) + 1)
  const raw = rows.map((r) => 1 / Math.sqrt(n.get(r.source)!))
  const mean = raw.reduce((a, b) => a + b, 0) / Math.max(1, raw.length)
  return raw.map((w) => w / mean)
}

/** Logistic regression by Newton's method with an L2 penalty (not on the bias); `weights` per row. */
export function fitLogistic(rows: { x: Float64Array; y: number }[], weights?: number[], l2 = 1, iterations = 25): number[] {
  const d = CONFIDENCE_FEATURES.length
  const w = new Float64Array(d)
  for (let it = 0; it < iterations; it++) {
    const g = new Float64Array(d)
    const h = new Float64Array(d * d)
    for (let i = 0; i < rows.length; i++) {
      const { x, y } = rows[i]
      const c = weights ? weights[i] : 1
      let z = 0
      for (let j = 0; j < d; j++) z += w[j] * x[j]
      const p = 1 / (1 + Math.exp(-z))
      const r = (p - y) * c
      const s = p * (1 - p) * c
      for (let j = 0; j < d; j++) {
        if (x[j] === 0) continue
        g[j] += r * x[j]
        for (let l = 0; l < d; l++) h[j * d + l] += s * x[j] * x[l]
      }
    }
    for (let j = 1; j < d; j++) {
      g[j] += l2 * w[j]
      h[j * d + j] += l2
    }
    h[0] += 1e-6
    const step = solve(h, g, d)
    let change = 0
    for (let j = 0; j < d; j++) {
      w[j] -= step[j]
      change = Math.max(change, Math.abs(step[j]))
    }
    if (change < 1e-7) break
  }
  return [...w].map((v) => +v.toFixed(6))
}

/** Solves A s = b (Gaussian elimination with partial pivoting); A is d×d row-major. */
function solve(a: Float64Array, b: Float64Array, d: number): Float64Array {
  const m = Float64Array.from(a)
  const v = Float64Array.from(b)
  for (let c = 0; c < d; c++) {
    let p = c
    for (let r = c + 1; r < d; r++) if (Math.abs(m[r * d + c]) > Math.abs(m[p * d + c])) p = r
    if (p !== c) {
      for (let k = 0; k < d; k++) [m[c * d + k], m[p * d + k]] = [m[p * d + k], m[c * d + k]]
      ;[v[c], v[p]] = [v[p], v[c]]
    }
    const piv = m[c * d + c] || 1e-12
    for (let r = c + 1; r < d; r++) {
      const f = m[r * d + c] / piv
      if (!f) continue
      for (let k = c; k < d; k++) m[r * d + k] -= f * m[c * d + k]
      v[r] -= f * v[c]
    }
  }
  const s = new Float64Array(d)
  for (let r = d - 1; r >= 0; r--) {
    let t = v[r]
    for (let k = r + 1; k < d; k++) t -= m[r * d + k] * s[k]
    s[r] = t / (m[r * d + r] || 1e-12)
  }
  return s
}

const predict = (w: number[], x: Float64Array) => {
  let z = 0
  for (let j = 0; j < x.length; j++) z += w[j] * x[j]
  return 1 / (1 + Math.exp(-z))
}

export async function trainConfidence(opts: { out: string; folds: number }): Promise<void> {
  const t0 = Date.now()
  const sources = Object.keys(SOURCE_REPEAT)
  const folds = await trainFoldTaggers(opts.folds)
  const rows = outOfFoldRows(folds, opts.folds, sources)
  if (!KEPT_FOLDS) for (const f of folds) rmSync(path.dirname(f.tagger), { recursive: true, force: true })
  console.log(
    `confidence: ${rows.length} out-of-fold entities, ${rows.filter((r) => r.y).length} right (${Math.round((Date.now() - t0) / 1000)} s)`,
  )
  // Cross-fitted ECE per corpus: the regression of the other folds' rows scores each fold.
  const pairs = new Map<string, { conf: number; correct: boolean; unscored?: boolean }[]>()
  const byType = new Map<EntityType, { conf: number; correct: boolean }[]>()
  for (let k = 0; k < opts.folds; k++) {
    const train = rows.filter((r) => r.fold !== k)
    const w = fitLogistic(train, corpusWeights(train))
    for (const r of rows)
      if (r.fold === k) {
        const name = r.source.replace(/\.jsonl$/, '')
        if (!pairs.has(name)) pairs.set(name, [])
        const p = { conf: predict(w, r.x), correct: r.y === 1, unscored: r.unscored }
        pairs.get(name)!.push(p)
        if (!byType.has(r.type)) byType.set(r.type, [])
        byType.get(r.type)!.push(p)
      }
  }
  reportCuts(byType, rows.gold!)
  reportScores(pairs, rows.goldBySource!)
  for (const [name, ps] of pairs) {
    const kept = ps.filter((p) => p.conf >= REPORT_CUT)
    console.log(
      `confidence: ${name.padEnd(32)} ECE ${ece(ps).ece.toFixed(4)}, of the kept ${ece(kept).ece.toFixed(4)} (${ps.length} entities; ${kept.length} kept, of them right ${(kept.filter((p) => p.correct).length / Math.max(1, kept.length)).toFixed(3)}; dropped right ${ps.filter((p) => p.conf < REPORT_CUT && p.correct).length})`,
    )
  }
  const model: ConfidenceModel = {
    format: 'tea-entity-confidence-2',
    features: [...CONFIDENCE_FEATURES],
    weights: fitLogistic(rows, corpusWeights(rows)),
  }
  writeFileSync(opts.out, JSON.stringify(model, null, 1) + '\n')
  console.log(`confidence: wrote ${path.relative(REPO_ROOT, opts.out)} (${Math.round((Date.now() - t0) / 1000)} s)`)
}

/**
 * Prints, per corpus, the cross-fitted log-loss and the F1 at REPORT_CUT of the out-of-fold
 * entities, scored as the eval scores them (a wrong entity whose name the corpus labels MISC
 * counts neither way; gold names the extraction missed count against recall), and their means
 * over the corpora: the figures a change of the model or its features is chosen by.
 */
export function reportScores(
  pairs: Map<string, { conf: number; correct: boolean; unscored?: boolean }[]>,
  gold: Map<string, number>,
): void {
  let f1Sum = 0
  let llSum = 0
  let llAll = 0
  let nAll = 0
  const parts: string[] = []
  for (const [name, all] of pairs) {
    const ps = all.filter((p) => !p.unscored)
    let ll = 0
    for (const p of ps) ll -= Math.log(Math.min(1 - 1e-9, Math.max(1e-9, p.correct ? p.conf : 1 - p.conf)))
    const kept = ps.filter((p) => p.conf >= REPORT_CUT)
    const tp = kept.filter((p) => p.correct).length
    const f1 = (2 * tp) / Math.max(1, kept.length + (gold.get(`${name}.jsonl`) ?? 0))
    f1Sum += f1
    llSum += ll / Math.max(1, ps.length)
    llAll += ll
    nAll += ps.length
    parts.push(`${name} ${f1.toFixed(3)}/${(ll / Math.max(1, ps.length)).toFixed(3)}`)
  }
  console.log(
    `confidence: cross-fitted F1 at ${REPORT_CUT} / log-loss, mean over corpora ${(f1Sum / pairs.size).toFixed(4)} / ${(llSum / pairs.size).toFixed(4)}, log-loss pooled ${(llAll / Math.max(1, nAll)).toFixed(4)}: ${parts.join(', ')}`,
  )
}

/**
 * Prints, per type, the cross-fitted F1 and precision of the out-of-fold entities at cuts from 0 to
 * 0.5 (gold names the extraction missed count against recall): what the fixed cut costs each type.
 */
export function reportCuts(byType: Map<EntityType, { conf: number; correct: boolean }[]>, gold: Record<EntityType, number>): void {
  for (const t of ['PER', 'ORG', 'LOC', 'OBJ'] as EntityType[]) {
    const ps = byType.get(t) ?? []
    const lines: string[] = []
    for (let c = 0; c <= 0.5 + 1e-9; c += 0.05) {
      const kept = ps.filter((p) => p.conf >= c)
      const tp = kept.filter((p) => p.correct).length
      lines.push(
        `${c.toFixed(2)}:${((2 * tp) / Math.max(1, kept.length + gold[t])).toFixed(3)}/P${(tp / Math.max(1, kept.length)).toFixed(2)}`,
      )
    }
    console.log(`confidence: ${t} cross-fitted F1/precision by cut ${lines.join(' ')} (${gold[t]} gold names)`)
  }
}
