// Relation scoring for `npm run eval -- <file> --task relations`: CoNLL04 and Re-DocRED
// (document-level), end to end from the engine's own entities, each matched to a gold entity
// cluster by its mentions and name (relation-data.ts). Per type P/R/F1 over the types the file
// annotates, micro and macro F1, calibration error of the reported confidences. With `cv`, the
// relation model is retrained K times without one fold of the file's documents (the tagger
// stays as committed) and each fold is scored with the model that did not see it.
import { writeFileSync } from 'node:fs'
import { tokenize } from '../../src/nlp/tokens.ts'
import { createEngine, type Engine } from '../../src/nlp/index.ts'
import { parseRelationModel } from '../../src/nlp/relations.ts'
import type { RelationType } from '../../src/nlp/types.ts'
import { rng, shuffle } from './data.ts'
import { Counts, ece } from './metrics.ts'
import { loadRelDocs, matchClusters, type PreparedDoc, type RelDoc } from './relation-data.ts'
import { foldOf } from './ner-data.ts'

export interface RelationEvalOptions {
  file: string
  cv?: number
  json?: boolean
  limit?: number
  /** Score born_in as lives_in (CoNLL04 folds birthplaces into Live_In). */
  bornInAsLivesIn?: boolean
  seed?: number
}

export interface RelationEvalResult {
  task: 'relations'
  set: string
  micro: { p: number; r: number; f1: number }
  macro: number
  perType: Record<string, { p: number; r: number; f1: number; support: number }>
  ece: number
  n: number
}

/** Reported (cluster-level) relations of one document, with their confidence and correctness. */
function scoreDoc(
  rel: RelDoc,
  engine: Engine,
  opts: RelationEvalOptions,
  counts: Map<string, Counts>,
  conf: { conf: number; correct: boolean }[],
): void {
  const doc = tokenize(rel.text)
  const { entities, relations } = engine.extract(doc)
  const cluster = matchClusters(rel, entities)
  const pred = new Map<string, number>()
  for (const d of relations) {
    const type: RelationType = opts.bornInAsLivesIn && d.type === 'born_in' ? 'lives_in' : d.type
    if (!rel.annotated.has(type)) continue
    const s = cluster.get(d.candidate.source.entity)
    const t = cluster.get(d.candidate.target.entity)
    // An entity that matches no gold cluster makes a wrong relation of its own.
    const k = `${type}|${s ?? 'x' + d.candidate.source.entity.name}|${t ?? 'x' + d.candidate.target.entity.name}`
    pred.set(k, Math.max(pred.get(k) ?? 0, d.confidence))
  }
  const get = (type: string) => {
    let c = counts.get(type)
    if (!c) counts.set(type, (c = new Counts()))
    return c
  }
  for (const type of rel.annotated) get(type)
  for (const [k, p] of pred) {
    const ok = rel.triples.has(k)
    get(k.slice(0, k.indexOf('|')))[ok ? 'tp' : 'fp']++
    conf.push({ conf: p, correct: ok })
  }
  for (const g of rel.triples) if (!pred.has(g)) get(g.slice(0, g.indexOf('|'))).fn++
}

/** Scores `engine` on opts.file; with opts.cv, an engine per fold with the relation model retrained without it. */
export async function evalRelations(engine: Engine, opts: RelationEvalOptions): Promise<RelationEvalResult> {
  const log = opts.json ? () => {} : (s: string) => console.log(s)
  let docs = loadRelDocs(opts.file)
  if (opts.limit) docs = docs.slice(0, opts.limit)
  const counts = new Map<string, Counts>()
  const conf: { conf: number; correct: boolean }[] = []
  if (opts.cv && opts.cv > 1) {
    const K = opts.cv
    // Imported here: training code is not needed to score the committed model.
    const { TRAIN_SETS, EXTRA_WEIGHT, CALIBRATION_FOLDS, foldTaggerDocs, prepareAll, trainModel, patternConfidence, places } =
      await import('./train-relations.ts')
    const { prepareFewRel } = await import('./fewrel.ts')
    log(
      `relations: ${K}-fold cross-validation by document: the relation model is retrained without each fold, and each scored text is read by a fold tagger that did not see it (TEA_FOLDS_DIR)`,
    )
    const train = prepareAll(TRAIN_SETS, engine.models, log)
    // As in training: the calibration's out-of-fold triples over the fold taggers' entities.
    const { docs: heldOutAll, taggers } = await foldTaggerDocs(engine.models, log)
    const extra = EXTRA_WEIGHT > 0 ? prepareFewRel(engine.models, places(), log) : []
    // The relation seed moves the fold split and the SGD order (a second seed checks a gain).
    const seed = Number(process.env.TEA_REL_SEED ?? opts.seed ?? 20042)
    const fold = new Map<string, number>()
    shuffle(
      docs.map((d) => d.domain + '\u0000' + d.id),
      rng(seed),
    ).forEach((id, k) => fold.set(id, k % K))
    const patterns = patternConfidence()
    for (let f = 0; f < K; f++) {
      const kept = (d: PreparedDoc) => fold.get(d.rel.domain + '\u0000' + d.rel.id) !== f
      const keep = train.filter(kept)
      const { file } = trainModel(keep, { seed, epochs: 15, extra, heldOut: heldOutAll.filter(kept) })
      const relations = parseRelationModel({ ...file, patternConfidence: patterns, places: [...places()] })
      const foldEngines = taggers.map((tagger) => createEngine({ ...engine.models, tagger, relations }))
      const held = docs.filter((d) => fold.get(d.domain + '\u0000' + d.id) === f)
      for (const rel of held) scoreDoc(rel, foldEngines[foldOf(rel.id, CALIBRATION_FOLDS)], opts, counts, conf)
      log(`relations: fold ${f + 1}/${K}: trained on ${keep.length} documents, scored ${held.length}`)
    }
  } else {
    for (const rel of docs) scoreDoc(rel, engine, opts, counts, conf)
  }
  const micro = new Counts()
  const perType: RelationEvalResult['perType'] = {}
  for (const [type, c] of [...counts].sort((a, b) => a[0].localeCompare(b[0]))) {
    micro.add(c)
    perType[type] = { p: +c.p.toFixed(4), r: +c.r.toFixed(4), f1: +c.f1.toFixed(4), support: c.tp + c.fn }
  }
  const types = Object.keys(perType)
  const macro = types.reduce((a, t) => a + perType[t].f1, 0) / Math.max(1, types.length)
  const e = ece(conf)
  // TEA_REL_CONF_DUMP=<file>: the reported confidences and their correctness (noise simulations).
  if (process.env.TEA_REL_CONF_DUMP) writeFileSync(process.env.TEA_REL_CONF_DUMP, JSON.stringify(conf))
  const result: RelationEvalResult = {
    task: 'relations',
    set: opts.file,
    micro: { p: +micro.p.toFixed(4), r: +micro.r.toFixed(4), f1: +micro.f1.toFixed(4) },
    macro: +macro.toFixed(4),
    perType,
    ece: +e.ece.toFixed(4),
    n: docs.length,
  }
  if (opts.json) {
    process.stdout.write(JSON.stringify(result) + '\n')
    return result
  }
  console.log(
    `\nrelations, (source cluster, type, target cluster) per document, types the file annotates${opts.cv ? `, ${opts.cv}-fold CV` : ''}`,
  )
  console.log('  type            precision  recall     F1   support')
  const row = (l: string, p: number, r: number, f: number, n: number | string) =>
    console.log(
      `  ${l.padEnd(16)}${p.toFixed(4).padStart(9)}${r.toFixed(4).padStart(9)}${f.toFixed(4).padStart(9)}${String(n).padStart(9)}`,
    )
  for (const t of types) row(t, perType[t].p, perType[t].r, perType[t].f1, perType[t].support)
  row('micro', micro.p, micro.r, micro.f1, micro.tp + micro.fn)
  console.log(`  macro F1 ${macro.toFixed(4)} over ${types.length} types`)
  console.log(`\nrelation confidence: expected calibration error ${e.ece.toFixed(4)} over ${conf.length} reported relations (10 bins)`)
  for (const l of e.table) console.log(l)
  return result
}
