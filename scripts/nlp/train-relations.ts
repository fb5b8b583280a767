// Trains the relation classifiers (one logistic regression per relation type, over features
// shared by all types) on CoNLL04 train and Re-DocRED train, over the candidates the engine
// builds at run time from its own entities (plus candidates from the gold entities, for
// fitting only), so that the probability covers entity errors too. Confidence is calibrated per
// type on out-of-fold predictions (5 folds by document, over the entities of fold taggers that did
// not see the document) pooled over both corpora, aggregated per
// reported triple as the engine reports them; the reporting threshold per type is the one with
// the best out-of-fold F1. Pattern-only types get the precision of their cue phrase measured on
// hand-labelled predictions (pattern-labels.jsonl, drawn by sample-patterns.ts).
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  CLASSIFIED,
  PATTERNS,
  PATTERN_ONLY,
  finalize,
  patternFeature,
  tripleKey,
  typedFeature,
  calibrateType,
  type RelationCandidate,
  type RelationModelFile,
  type Scored,
} from '../../src/nlp/relations.ts'
import { fitPlatt, type Calibration } from '../../src/nlp/calibration.ts'
import type { RelationType } from '../../src/nlp/types.ts'
import { rng, shuffle } from './data.ts'
import { ece, Counts } from './metrics.ts'
import { buildPlaces } from './places.ts'
import { TYPE_INDEX, loadRelDocs, prepareDoc, type PreparedDoc, type RelDoc } from './relation-data.ts'
import type { EntityModels } from '../../src/nlp/mentions.ts'
import { prepareFewRel } from './fewrel.ts'
import { loadEntityModels } from '../../src/nlp/index.ts'
import { loadTagger, type TaggerModel } from '../../src/nlp/tagger.ts'
import { foldOf } from './ner-data.ts'
import { KEPT_FOLDS, trainFoldTaggers } from './cv.ts'

export const TRAIN_SETS = ['conll04/train_grouped.jsonl', 'redocred/train.jsonl']
export const LABELS_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'pattern-labels.jsonl')

export interface TrainOptions {
  seed: number
  epochs: number
  /** The seed of the documents' split into folds, when it is to stay while `seed` moves the SGD order. */
  foldSeed?: number
  log?: (s: string) => void
  /** Positives-only documents (FewRel) trained in every fit, never scored out of fold. */
  extra?: PreparedDoc[]
  /** The same documents over entities of taggers that did not see them (scored out of fold instead). */
  heldOut?: PreparedDoc[]
}

/** How much a positives-only sample weighs against a sample of the annotated corpora. */
export const EXTRA_WEIGHT = 0.5

/** (feature, type) pairs → dense index, shared by every fit of one process. */
const TYPED = new Map<number, number>()
const TYPED_KEYS: [number, number][] = []
const dense = new WeakMap<object, Int32Array>()

interface Sample {
  x: Int32Array
  y: number
  doc: number
  /** Weight of the sample's gradient (1 unless positives-only). */
  w?: number
}

function vector(feats: number[], k: number): Int32Array {
  const x = new Int32Array(feats.length)
  for (let i = 0; i < feats.length; i++) {
    const key = feats[i] * 16 + k
    let d = TYPED.get(key)
    if (d === undefined) {
      d = TYPED_KEYS.length
      TYPED.set(key, d)
      TYPED_KEYS.push([feats[i], k])
    }
    x[i] = d
  }
  return x
}

function samplesOf(docs: PreparedDoc[], gold: boolean): Sample[] {
  const out: Sample[] = []
  docs.forEach((d, di) => {
    for (const set of d.sets) {
      if (set.gold && !gold) continue
      for (const it of set.items) {
        let x = dense.get(it)
        if (!x) dense.set(it, (x = vector(set.rows[it.row].feats, TYPE_INDEX.get(it.type)!)))
        out.push({ x, y: it.y, doc: di })
      }
    }
  })
  return out
}

// A cue phrase of a classified type starts with this weight in its own type's classifier, and
// L2 pulls it back here rather than to 0: our prior that the phrase states the relation, which
// the data then moves. Types with few examples (founded, owns, part_of) otherwise never learn
// that "co-founded" or "a division of" mean what they say.
const PATTERN_PRIOR = 2
const PRIOR_L2 = 1e-2

function priors(n: number): Float64Array {
  const mu = new Float64Array(n)
  PATTERNS.forEach((p, k) => {
    const ti = TYPE_INDEX.get(p.type)
    if (ti === undefined) return
    const d = TYPED.get(patternFeature(k) * 16 + ti)
    if (d !== undefined) mu[d] = PATTERN_PRIOR
  })
  return mu
}

/** Logistic regression by SGD with L2, seeded order, weights averaged over the later epochs. */
function fit(samples: Sample[], opts: TrainOptions): Float64Array {
  const n = TYPED_KEYS.length
  const mu = priors(n)
  const w = Float64Array.from(mu)
  const avg = new Float64Array(n)
  const r = rng(opts.seed + 1)
  // Positives-only samples (weighted) are mixed into the others' order, never shuffled with them.
  const order: number[] = []
  const extra: number[] = []
  samples.forEach((s, i) => (s.w === undefined ? order : extra).push(i))
  const r2 = rng(opts.seed + 2)
  const l2 = 1e-4
  let kept = 0
  for (let e = 0; e < opts.epochs; e++) {
    shuffle(order, r)
    const lr = 0.2 / (1 + e * 0.3)
    for (const i of mixIn(order, shuffle(extra, r2))) {
      const { x, y } = samples[i]
      let z = 0
      for (let j = 0; j < x.length; j++) z += w[x[j]]
      const g = (y - 1 / (1 + Math.exp(-z))) * (samples[i].w ?? 1)
      for (let j = 0; j < x.length; j++) {
        const d = x[j]
        w[d] += lr * (g - (mu[d] ? PRIOR_L2 * (w[d] - mu[d]) : l2 * w[d]))
      }
    }
    if (e >= opts.epochs / 3) {
      kept++
      for (let j = 0; j < n; j++) avg[j] += w[j]
    }
  }
  for (let j = 0; j < n; j++) avg[j] /= kept
  return avg
}

/**
 * The annotated corpora's samples in their own seeded order, with the positives-only ones spread
 * evenly among them: every type they do not train is fitted exactly as without them.
 */
function mixIn(order: number[], extra: number[]): number[] {
  if (!extra.length) return order
  const out: number[] = []
  let j = 0
  for (let k = 0; k < order.length; k++) {
    while (j < extra.length && (j + 1) * order.length <= k * (extra.length + 1)) out.push(extra[j++])
    out.push(order[k])
  }
  while (j < extra.length) out.push(extra[j++])
  return out
}

const score = (w: Float64Array, x: Int32Array) => {
  let z = 0
  for (let j = 0; j < x.length; j++) z += w[x[j]] ?? 0
  return 1 / (1 + Math.exp(-z))
}

/** A reported triple before calibration: its best score and whether the gold annotation has it. */
export interface TripleScore {
  doc: number
  domain: string
  type: RelationType
  score: number
  y: number
  cue: boolean
  via: boolean
  /** The best candidate spans two sentences or more. */
  far: boolean
  /** Source and target gold clusters (or the entity's name where it matches none). */
  pair: string
}

/** The engine's triples of one document under classifier weights `w`, as decideRelations forms them. */
function docTriples(d: PreparedDoc, di: number, w: Float64Array): TripleScore[] {
  const set = d.sets.find((s) => !s.gold)!
  const best = new Map<string, Scored>()
  for (const it of set.items) {
    const row = set.rows[it.row]
    const c = row.candidate
    const s = score(w, dense.get(it) ?? vector(row.feats, TYPE_INDEX.get(it.type)!))
    const k = tripleKey(c.source.entity, it.type, c.target.entity)
    const prev = best.get(k)
    if (!prev || s > prev.score) best.set(k, { type: it.type, score: s, candidate: c, cue: row.cues.includes(it.type) })
  }
  const cueOf = new Map<RelationCandidate, Map<RelationType, boolean>>()
  for (const x of best.values()) {
    let m = cueOf.get(x.candidate)
    if (!m) cueOf.set(x.candidate, (m = new Map<RelationType, boolean>()))
    m.set(x.type, !!x.cue)
  }
  return finalize(
    best,
    (x) => x.score,
    () => true,
  ).map((x) => {
    const s = set.cluster.get(x.candidate.source.entity)
    const t = set.cluster.get(x.candidate.target.entity)
    const y = s !== undefined && t !== undefined && d.rel.triples.has(`${x.type}|${s}|${t}`) ? 1 : 0
    // finalize may turn a family tie around: the cue is the same both ways.
    const cue =
      cueOf.get(x.candidate)?.get(x.type) ??
      [...best.values()].some(
        (b) => b.type === x.type && b.candidate.source === x.candidate.target && b.candidate.target === x.candidate.source && !!b.cue,
      )
    return {
      doc: di,
      domain: d.rel.domain,
      type: x.type,
      score: x.confidence,
      y,
      cue: cue && !x.via,
      via: !!x.via,
      far: x.candidate.sent !== x.candidate.sent2,
      pair: `${s ?? 'x' + x.candidate.source.entity.name}|${t ?? 'x' + x.candidate.target.entity.name}`,
    }
  })
}

/** Gold triples per type and domain (the recall denominators). */
export function goldCounts(docs: RelDoc[]): Map<string, number> {
  const m = new Map<string, number>()
  for (const d of docs)
    for (const t of d.triples) {
      const k = d.domain + '|' + t.slice(0, t.indexOf('|'))
      m.set(k, (m.get(k) ?? 0) + 1)
    }
  return m
}

/** Trains on prepared documents: out-of-fold calibration and thresholds, then the final weights. */
export function trainModel(
  docs: PreparedDoc[],
  opts: TrainOptions,
): { file: Omit<RelationModelFile, 'patternConfidence' | 'places'>; oof: TripleScore[]; all: TripleScore[] } {
  const log = opts.log ?? (() => {})
  const all = samplesOf(docs, true)
  // Positives-only samples: in every fold's fit (doc -1 is in no fold), never scored.
  const extra = samplesOf(opts.extra ?? [], true).map((s) => ({ ...s, doc: -1, w: EXTRA_WEIGHT }))
  all.push(...extra)
  log(
    `relations: ${docs.length} documents, ${all.length} (candidate, type) samples, ${all.filter((s) => s.y).length} positive, ${TYPED_KEYS.length} typed features`,
  )
  const folds = 5
  const docFold = new Map<number, number>()
  shuffle(
    docs.map((_, i) => i),
    rng(opts.foldSeed ?? opts.seed),
  ).forEach((d, k) => docFold.set(d, k % folds))
  const oof: TripleScore[] = []
  for (let f = 0; f < folds; f++) {
    const w = fit(
      all.filter((s) => docFold.get(s.doc) !== f),
      opts,
    )
    docs.forEach((d, di) => {
      if (docFold.get(di) === f) oof.push(...docTriples(opts.heldOut?.[di] ?? d, di, w))
    })
  }
  // TEA_REL_OOF_DUMP=<file>: the out-of-fold triples before calibration, one JSON a line (for
  // calibration experiments).
  if (process.env.TEA_REL_OOF_DUMP) writeFileSync(process.env.TEA_REL_OOF_DUMP, oof.map((t) => JSON.stringify(t)).join('\n') + '\n')
  const gold = goldCounts(docs.map((d) => d.rel))
  const calibration: Record<string, Calibration> = {}
  const threshold: Partial<Record<RelationType, number>> = {}
  // Triples whose best candidate matches a cue phrase of the type are right far more often than
  // the rest of their type's: they get a map of their own, from the type's own such triples
  // where there are enough (MIN_CUE), else from those of every type pooled.
  const MIN_CUE = 40
  const platt = (ts: TripleScore[]) =>
    fitPlatt(
      ts.map((t) => t.score),
      ts.map((t) => t.y),
    )
  const anyCue = oof.filter((t) => t.cue)
  const pooledCue = anyCue.length ? platt(anyCue) : undefined
  for (const type of CLASSIFIED) {
    const ts = oof.filter((t) => t.type === type)
    if (!ts.length) continue
    // Pairs across sentences (and places read through another) are right at other rates than
    // pairs within one: maps of their own where there are enough of them.
    const plain = ts.filter((t) => !t.cue && !t.via && !t.far)
    const cued = ts.filter((t) => t.cue)
    const via = ts.filter((t) => t.via)
    const far = ts.filter((t) => t.far && !t.cue && !t.via)
    calibration[type] = platt(plain.length >= MIN_CUE ? plain : ts.filter((t) => !t.cue))
    const cueMap = cued.length >= MIN_CUE ? platt(cued) : pooledCue
    if (cueMap) calibration[type + '*'] = cueMap
    // A map of their own only where it rises with the score (no positive across sentences
    // fits a falling line).
    const rising = (m: Calibration) => m.y[m.y.length - 1] > m.y[0]
    const viaMap = via.length >= MIN_CUE ? platt(via) : undefined
    if (viaMap && rising(viaMap)) calibration[type + '+'] = viaMap
    const farMap = far.length >= MIN_CUE && plain.length >= MIN_CUE ? platt(far) : undefined
    if (farMap && rising(farMap)) calibration[type + '~'] = farMap
    const c = { calibration }
    log(
      `relations: ${type}: ${ts.length} out-of-fold triples, ${cued.length} with a cue phrase (${cued.filter((t) => t.y).length} right)${cued.length >= MIN_CUE ? '' : ', pooled cue map'}`,
    )
    // The threshold with the best F1 averaged over the corpora that annotate the type: pooled,
    // the larger corpus would set it alone.
    const domains = [...new Set(docs.map((d) => d.rel.domain))].filter((dm) => (gold.get(dm + '|' + type) ?? 0) > 0)
    let bestTh = 0.5
    let bestF = -1
    // From 0.04: a rare type's best F1 is low, and so is the threshold that reaches it (about
    // half the F1, for a calibrated score).
    for (let th = 0.04; th < 0.9; th += 0.02) {
      let sum = 0
      for (const dm of domains) {
        let tp = 0
        let fp = 0
        for (const t of ts) {
          if (t.domain === dm && calibrateType(c, type, t.score, t.cue, t.via, t.far) >= th) {
            if (t.y) tp++
            else fp++
          }
        }
        const p = tp / Math.max(1, tp + fp)
        const r = tp / Math.max(1, gold.get(dm + '|' + type)!)
        sum += p + r ? (2 * p * r) / (p + r) : 0
      }
      const f1 = sum / Math.max(1, domains.length)
      if (f1 > bestF + 1e-9) {
        bestF = f1
        bestTh = +th.toFixed(2)
      }
    }
    // Where no threshold gives a useful F1 out of fold, the classifier has shown no skill on
    // the corpora: its relations are reported from the lowest threshold tried, each with the confidence
    // measured for it (in practice those with a cue phrase of the type; the rest score below).
    threshold[type] = bestF < 0.05 ? 0.1 : bestTh
  }
  for (const t of oof) t.score = calibrateType({ calibration }, t.type, t.score, t.cue, t.via, t.far)
  const w = fit(all, opts)
  const weights = new Map<number, number>()
  for (let j = 0; j < w.length; j++) {
    if (Math.abs(w[j]) < 0.01) continue
    const [f, k] = TYPED_KEYS[j]
    const id = typedFeature(f, CLASSIFIED[k])
    weights.set(id, (weights.get(id) ?? 0) + w[j])
  }
  const out: Record<string, number> = {}
  for (const [k, v] of [...weights].sort((a, b) => a[0] - b[0])) out[String(k)] = +v.toFixed(4)
  return {
    file: { format: 'tea-relations-3', weights: out, calibration, threshold },
    oof: oof.filter((t) => t.score >= threshold[t.type]!),
    all: oof,
  }
}

/** Precision of each pattern-only cue phrase on its labelled predictions, shrunk toward its type's. */
export function patternConfidence(): Record<string, number> {
  const rows = readFileSync(LABELS_FILE, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as { type: RelationType; pattern: number; correct: boolean })
  const out: Record<string, number> = {}
  PATTERNS.forEach((p, k) => {
    if (!PATTERN_ONLY.includes(p.type)) return
    const ofType = rows.filter((r) => r.type === p.type)
    const typeRate = (ofType.filter((r) => r.correct).length + 1) / (ofType.length + 2)
    const mine = rows.filter((r) => r.pattern === k)
    // A Beta prior worth five predictions, centred on the type's rate.
    out[String(k)] = +((mine.filter((r) => r.correct).length + 5 * typeRate) / (mine.length + 5)).toFixed(4)
  })
  return out
}

/** Prints per-domain figures of out-of-fold triples (already thresholded and calibrated). */
export function reportOof(oof: TripleScore[], docs: RelDoc[], log: (s: string) => void): void {
  const gold = goldCounts(docs)
  for (const domain of [...new Set(docs.map((d) => d.domain))]) {
    const ts = oof.filter((t) => t.domain === domain)
    const micro = new Counts()
    const parts: string[] = []
    for (const type of CLASSIFIED) {
      const g = gold.get(domain + '|' + type) ?? 0
      if (!g) continue
      const c = new Counts()
      for (const t of ts) {
        if (t.type === type) {
          if (t.y) c.tp++
          else c.fp++
        }
      }
      c.fn = g - c.tp
      micro.add(c)
      parts.push(`${type} ${c.f1.toFixed(3)}`)
    }
    log(
      `relations: out-of-fold ${domain}: micro P ${micro.p.toFixed(3)} R ${micro.r.toFixed(3)} F1 ${micro.f1.toFixed(3)}, ECE ${ece(ts.map((t) => ({ conf: t.score, correct: t.y === 1 }))).ece.toFixed(4)} over ${ts.length}; ${parts.join(', ')}`,
    )
  }
}

let placeTable: Map<number, number> | undefined
/** The place table (built once per process). */
export function places(): Map<number, number> {
  return (placeTable ??= buildPlaces())
}

/** The training documents' candidates, over the entities `models` find. */
export function prepareAll(files: string[], models: EntityModels, log: (s: string) => void = () => {}): PreparedDoc[] {
  const t0 = Date.now()
  const out: PreparedDoc[] = []
  for (const f of files) for (const rel of loadRelDocs(f)) out.push(prepareDoc(rel, true, places(), models))
  log(`relations: ${out.length} documents tagged and paired (${Date.now() - t0} ms)`)
  return out
}

/** Fold taggers whose entities score the out-of-fold triples (three, as the entity confidence's). */
export const CALIBRATION_FOLDS = 3

/**
 * The training documents read by the fold taggers, each by the one trained without it (as on new
 * text), in `prepareAll`'s order, with the taggers themselves; the fold taggers are reused from
 * TEA_FOLDS_DIR, else trained and removed after.
 */
export async function foldTaggerDocs(
  models: EntityModels,
  log: (s: string) => void = () => {},
): Promise<{ docs: PreparedDoc[]; taggers: TaggerModel[] }> {
  const folds = await trainFoldTaggers(CALIBRATION_FOLDS)
  const taggers = folds.map((f) => loadTagger(f.tagger))
  if (!KEPT_FOLDS) for (const f of folds) rmSync(path.dirname(f.tagger), { recursive: true, force: true })
  const docs: PreparedDoc[] = []
  for (const f of TRAIN_SETS)
    for (const rel of loadRelDocs(f))
      docs.push(prepareDoc(rel, true, places(), { ...models, tagger: taggers[foldOf(rel.id, CALIBRATION_FOLDS)] }))
  log(`relations: ${docs.length} documents paired over the fold taggers' entities`)
  return { docs, taggers }
}

/**
 * Trains over the entities of the tagger and entity confidence in `dir` (those just trained there).
 * The out-of-fold triples that fit the calibration and the thresholds are scored over the entities
 * of fold taggers, each document read by the one trained without it: the committed tagger has seen
 * the training texts, so over its entities the scores read overconfident on new text
 * (docs/experiments/calibration.md). The final weights are fitted over the committed tagger's.
 */
export async function trainRelations(opts: { dir: string; out: string; seed: number; epochs: number }): Promise<void> {
  const log = (s: string) => console.log(s)
  const models = loadEntityModels(opts.dir)
  const docs = prepareAll(TRAIN_SETS, models, log)
  const extra = EXTRA_WEIGHT > 0 ? prepareFewRel(models, places(), log) : []
  const { docs: heldOut } = await foldTaggerDocs(models, log)
  const { file, oof } = trainModel(docs, { ...opts, log, extra, heldOut })
  reportOof(
    oof,
    docs.map((d) => d.rel),
    log,
  )
  log(`relations: thresholds ${JSON.stringify(file.threshold)}`)
  const full: RelationModelFile = { ...file, patternConfidence: patternConfidence(), places: [...places()].sort((a, b) => a[0] - b[0]) }
  log(`relations: cue-phrase confidence ${JSON.stringify(full.patternConfidence)}`)
  writeFileSync(opts.out, JSON.stringify(full))
  log(`relations: wrote ${opts.out} (${Object.keys(file.weights).length} weights)`)
}
