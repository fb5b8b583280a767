// Trains the relatedness classifier (logistic regression) on CoNLL04 train, over the same
// candidates the engine builds at run time (its own entities, not the gold ones), so that
// its probability covers entity errors too. Confidence is calibrated by isotonic regression
// on out-of-fold predictions (5 folds by document), aggregated per reported triple.
import { writeFileSync } from 'node:fs'
import { tokenize } from '../../src/nlp/tokens.ts'
import { extractEntities, nameClasses } from '../../src/nlp/mentions.ts'
import {
  PAIR_TYPE, anchorsBySentence, candidatePairs, patternType, relationFeatures, wordHashes,
  type RelationModelFile,
} from '../../src/nlp/relations.ts'
import { fitBeta, fitIsotonic, fitPlatt, calibrate, type Calibration } from '../../src/nlp/calibration.ts'
import { goldCanon, goldMentions, readJsonl, rng, shuffle, type Example } from './data.ts'
import type { Tokenized } from '../../src/nlp/tokens.ts'
import { buildEntities, mentionFromTokens, type Entity, type Mention } from '../../src/nlp/entities.ts'
import { ece } from './metrics.ts'

interface Sample {
  /** Built from gold entities: used for fitting only, never for thresholds or calibration. */
  gold?: boolean
  doc: number
  triple: string
  feats: number[]
  y: number
}

// Priors for cue-phrase relations: CoNLL04 has no labels for these types, so these are our
// judgement of the cue phrases' precision, checked on the hand-written sentences of the tests.
const PATTERN_CONFIDENCE = {
  born_in: 0.85, founded: 0.75, acquired: 0.75, part_of: 0.65, member_of: 0.6, owns: 0.6,
  produces: 0.6, partner_of: 0.65, competitor_of: 0.6, family_of: 0.6,
} as const

export function trainRelations(opts: { out: string; seed: number; epochs: number }): void {
  const t0 = Date.now()
  const rows = readJsonl('conll04/train_grouped.jsonl')
  const { samples, goldTotal } = candidates(rows, true)
  const pos = samples.filter((s) => s.y).length
  console.log(`relations: ${rows.length} documents, ${samples.length} candidates, ${pos} related, ${goldTotal} gold triples (${Date.now() - t0} ms)`)

  const allSamples = samples.slice()
  // Out-of-fold scores for calibration and for choosing the reporting threshold.
  const folds = 5
  const docFold = shuffle(rows.map((_, i) => i), rng(opts.seed)).reduce((m, d, k) => m.set(d, k % folds), new Map<number, number>())
  const oof = new Array<number>(samples.length)
  for (let f = 0; f < folds; f++) {
    const w = fit(samples.filter((s) => docFold.get(s.doc) !== f), opts)
    samples.forEach((s, i) => { if (docFold.get(s.doc) === f) oof[i] = score(w, s.feats) })
  }
  for (let i = samples.length - 1; i >= 0; i--) if (samples[i].gold) { samples.splice(i, 1); oof.splice(i, 1) }
  // The engine reports each triple once, with the best of its candidates' scores.
  const byTriple = new Map<string, { s: number; y: number }>()
  samples.forEach((s, i) => {
    const k = s.doc + '\u0000' + s.triple
    const prev = byTriple.get(k)
    if (!prev || oof[i] > prev.s) byTriple.set(k, { s: oof[i], y: s.y })
  })
  const trip = [...byTriple.values()]
  let best = { f1: 0, threshold: 0.5 }
  for (let th = 0.05; th < 0.95; th += 0.01) {
    let tp = 0, fp = 0
    for (const t of trip) if (t.s >= th) (t.y ? tp++ : fp++)
    const p = tp / Math.max(1, tp + fp), r = tp / Math.max(1, goldTotal)
    const f1 = p + r ? (2 * p * r) / (p + r) : 0
    if (f1 > best.f1) best = { f1, threshold: +th.toFixed(3) }
  }
  console.log(`relations: out-of-fold triple F1 ${best.f1.toFixed(3)} at score threshold ${best.threshold} (classifier types only, train entities)`)

  const w = fit(allSamples, opts)
  // Calibration is fitted on dev (as the issue asks): on train the tagger has seen the entities,
  // so train triples are more often right than the engine's triples on unseen text. Two-fold
  // cross-fitting on dev estimates the calibration error on text the map was not fitted on.
  const dev = candidates(readJsonl('conll04/dev_grouped.jsonl'))
  // The reporting threshold is tuned on dev triple F1 (classifier types; the cue-phrase ones
  // are fixed): the out-of-fold choice on train sees better entities than unseen text has.
  const devAll = antisymmetric(tripleScores(dev.samples, (s) => score(w, s.feats)))
  const curve: { th: number; f1: number }[] = []
  for (let th = 0.05; th < 0.95; th += 0.01) {
    let tp = 0, fp = 0
    for (const t of devAll) if (t.s >= th) (t.y ? tp++ : fp++)
    const p = tp / Math.max(1, tp + fp), r = tp / Math.max(1, dev.goldTotal)
    curve.push({ th: +th.toFixed(3), f1: p + r ? (2 * p * r) / (p + r) : 0 })
  }
  // Dev is small (125 documents) and its F1 peak moves with every retraining; train's
  // out-of-fold peak sees better entities than unseen text has. The threshold is the midpoint
  // of the two peaks.
  const top = Math.max(...curve.map((c) => c.f1))
  const devPeak = curve.find((c) => c.f1 === top)!.th
  const mid = +((devPeak + best.threshold) / 2).toFixed(2)
  const tuned = { f1: curve.find((c) => Math.abs(c.th - mid) < 1e-9)?.f1 ?? top, threshold: mid }
  console.log(`relations: dev F1 peak ${top.toFixed(3)} at ${devPeak}, train out-of-fold peak at ${best.threshold}`)
  console.log(`relations: dev triple F1 ${tuned.f1.toFixed(3)} at score threshold ${tuned.threshold} (classifier types only)`)
  best.threshold = tuned.threshold
  const devTrip = devAll.filter((t) => t.s >= best.threshold)
  // Calibration error on triples the map was not fitted on: 5-fold cross-fitting on dev by
  // document, out-of-fold confidences pooled into one 10-bin ECE, for isotonic regression and
  // for Platt scaling; the map with the lower cross-fitted error is then fitted on all dev triples.
  const crossFitted = (fitter: (s: number[], y: number[]) => Calibration) => {
    const pooled: { conf: number; correct: boolean }[] = []
    for (let f = 0; f < 5; f++) {
      const fitSet = devTrip.filter((t) => t.doc % 5 !== f)
      const c = fitter(fitSet.map((t) => t.s), fitSet.map((t) => t.y))
      for (const t of devTrip) if (t.doc % 5 === f) pooled.push({ conf: calibrate(c, t.s), correct: t.y === 1 })
    }
    return ece(pooled).ece
  }
  const fitters: [string, (s: number[], y: number[]) => Calibration][] = [
    ['isotonic regression (blocks of ≥ 20)', (s, y) => fitIsotonic(s, y, 20)],
    ['isotonic regression (blocks of ≥ 40)', (s, y) => fitIsotonic(s, y, 40)],
    ['Platt scaling', (s, y) => fitPlatt(s, y)],
    ['beta calibration', (s, y) => fitBeta(s, y)],
  ]
  const errs = fitters.map(([, f]) => crossFitted(f))
  console.log(`relations: calibration error, 5-fold cross-fitted on dev (${devTrip.length} triples): ${fitters.map(([n], k) => `${n} ${errs[k].toFixed(4)}`).join(', ')}; uncalibrated classifier probability: ${ece(devTrip.map((t) => ({ conf: t.s, correct: t.y === 1 }))).ece.toFixed(4)}`)
  // The error on the fitting triples themselves is what `npm run eval` prints on dev; a
  // two-parameter Platt map can miss a bend of the curve there (0.054 at one retraining)
  // while looking best cross-fitted. The map kept is the one whose worse figure is lowest.
  const fitted = fitters.map(([, f]) => f(devTrip.map((t) => t.s), devTrip.map((t) => t.y)))
  const inSample = fitted.map((c) => ece(devTrip.map((t) => ({ conf: calibrate(c, t.s), correct: t.y === 1 }))).ece)
  console.log(`relations: calibration error on the fitting triples: ${fitters.map(([n], k) => `${n} ${inSample[k].toFixed(4)}`).join(', ')}`)
  const worse = errs.map((e, k) => Math.max(e, inSample[k]))
  const pick = worse.indexOf(Math.min(...worse))
  const calibration = fitted[pick]
  console.log(`relations: ${fitters[pick][0]} fitted on all dev triples`)
  const weights: Record<string, number> = {}
  for (const [k, v] of [...w].sort((a, b) => a[0] - b[0])) if (Math.abs(v) >= 1e-3) weights[String(k)] = +v.toFixed(4)
  const file: RelationModelFile = {
    format: 'tea-relations-2',
    weights,
    calibration,
    threshold: best.threshold,
    patternConfidence: PATTERN_CONFIDENCE,
  }
  writeFileSync(opts.out, JSON.stringify(file))
  console.log(`relations: wrote ${opts.out} (${Object.keys(weights).length} weights, ${calibration.x.length} calibration points)`)
}

/** Entities from the gold annotation, on the engine's tokens (training data with no entity errors). */
function goldEntities(doc: Tokenized, ex: Example): Entity[] {
  const ms: Mention[] = []
  for (const m of goldMentions(ex)) {
    let first = -1
    let last = -1
    doc.tokens.forEach((t, i) => {
      if (t.start < m.end && t.end > m.start) { if (first < 0) first = i; last = i + 1 }
    })
    if (first >= 0 && doc.tokens[first].sent === doc.tokens[last - 1].sent) ms.push(mentionFromTokens(doc.text, doc.tokens, first, last, m.type))
  }
  const ents = buildEntities(ms, doc.text.length)
  for (const e of ents) e.classes = nameClasses(e.name)
  return ents
}

function candidates(rows: Example[], withGold = false): { samples: Sample[]; goldTotal: number } {
  const samples: Sample[] = []
  let goldTotal = 0
  rows.forEach((ex, di) => {
    const doc = tokenize(ex.text)
    const { triples } = goldCanon(ex)
    goldTotal += triples.size
    addSamples(samples, doc, di, triples, extractEntities(doc))
    if (withGold) addSamples(samples, doc, di, triples, goldEntities(doc, ex), 'gold')
  })
  return { samples, goldTotal }
}

function addSamples(samples: Sample[], doc: Tokenized, di: number, triples: Set<string>, entities: Entity[], tag = ''): void {
  {
    const anchors = anchorsBySentence(doc, entities)
    const words = wordHashes(doc)
    for (const c of candidatePairs(anchors)) {
      if (patternType(doc, c)) continue
      const type = PAIR_TYPE[c.source.entity.type + '>' + c.target.entity.type]
      if (!type) continue
      const triple = `${type}|${c.source.entity.name}|${c.target.entity.name}`
      samples.push({ doc: di, triple: tag + triple, feats: relationFeatures(doc, words, c, anchors[c.sent]), y: triples.has(triple) ? 1 : 0, gold: tag !== '' })
    }
  }
}

/** As the engine decides: of a located_in or killed pair's two directions, the likelier one only. */
function antisymmetric(trip: { doc: number; s: number; y: number; triple: string }[]): { doc: number; s: number; y: number; triple: string }[] {
  const by = new Map(trip.map((t) => [t.doc + '\u0000' + t.triple, t]))
  return trip.filter((t) => {
    const [type, src, tgt] = t.triple.split('|')
    if (type !== 'located_in' && type !== 'killed') return true
    const r = by.get(t.doc + '\u0000' + [type, tgt, src].join('|'))
    return !r || r.s < t.s || (r.s === t.s && src < tgt)
  })
}

/** Best score per (document, triple), as the engine reports each triple once. */
function tripleScores(samples: Sample[], f: (s: Sample) => number): { doc: number; s: number; y: number; triple: string }[] {
  const by = new Map<string, { doc: number; s: number; y: number; triple: string }>()
  for (const s of samples) {
    const k = s.doc + '\u0000' + s.triple
    const v = f(s)
    const prev = by.get(k)
    if (!prev || v > prev.s) by.set(k, { doc: s.doc, s: v, y: s.y, triple: s.triple })
  }
  return [...by.values()]
}

function score(w: Map<number, number>, feats: number[]): number {
  let z = 0
  for (const f of feats) z += w.get(f) ?? 0
  return 1 / (1 + Math.exp(-z))
}

/** Logistic regression by SGD with L2, seeded order, weights averaged over the later epochs. */
function fit(samples: Sample[], opts: { seed: number; epochs: number }): Map<number, number> {
  const w = new Map<number, number>()
  const r = rng(opts.seed + 1)
  const order = samples.map((_, i) => i)
  const l2 = 1e-4
  const avg = new Map<number, number>()
  let n = 0
  for (let e = 0; e < opts.epochs; e++) {
    shuffle(order, r)
    const lr = 0.2 / (1 + e * 0.3)
    for (const i of order) {
      const s = samples[i]
      const g = s.y - score(w, s.feats)
      for (const f of s.feats) {
        const v = w.get(f) ?? 0
        w.set(f, v + lr * (g - l2 * v))
      }
    }
    // The weights kept are the average of those at the end of each epoch after the first third
    // (steadier than the last epoch's: +0.007 on CoNLL04 dev triples over three seeds).
    if (e >= opts.epochs / 3) { n++; for (const [k, v] of w) avg.set(k, (avg.get(k) ?? 0) + v) }
  }
  for (const [k, v] of avg) avg.set(k, v / n)
  return avg
}
