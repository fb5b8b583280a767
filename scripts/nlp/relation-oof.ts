// Out-of-fold relation figures of the training log and where CoNLL04's gold triples are lost.
// Usage: npx tsx scripts/nlp/relation-oof.ts [--seeds 20042,1] [--fold-seed N] [--buckets] [--dump file.json]
// (--fold-seed N: the folds of seed N at every seed, so that the seeds move only the SGD order)
// (TEA_BUCKET_DOMAIN=redocred: the buckets of Re-DocRED's triples instead of CoNLL04's)
// Tags the training sets once with the committed models and once with the three fold taggers
// (TEA_FOLDS_DIR, else trained here), then fits the relation model as `npm run train -- --only
// relations` does (5 folds by document over CoNLL04 train and Re-DocRED pooled, each fold's
// triples scored over the fold taggers' entities; calibration and thresholds on those out-of-fold
// triples) at each relation seed, and prints the out-of-fold figures per corpus. With --buckets,
// each CoNLL04 gold triple (over the fold taggers' entities) is put in the first bucket that holds
// (reported; a candidate under the threshold; the other direction reported; both entities found,
// no candidate of the type; an entity missing), and the reported wrong triples are split (an
// entity matching no gold one; a pair gold relates otherwise; a pair gold does not relate).
import { writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { loadEntityModels } from '../../src/nlp/index.ts'
import { EXTRA_WEIGHT, TRAIN_SETS, foldTaggerDocs, places, prepareAll, reportOof, trainModel, type TripleScore } from './train-relations.ts'
import { prepareFewRel } from './fewrel.ts'
import type { PreparedDoc } from './relation-data.ts'

const { values } = parseArgs({
  options: { seeds: { type: 'string' }, 'fold-seed': { type: 'string' }, buckets: { type: 'boolean' }, dump: { type: 'string' } },
})
const seeds = (values.seeds ?? '20042,1').split(',').map(Number)
const foldSeed = values['fold-seed'] === undefined ? undefined : Number(values['fold-seed'])
const log = (s: string) => console.log(s)
const models = loadEntityModels()
const docs = prepareAll(TRAIN_SETS, models, log)
const extra = EXTRA_WEIGHT > 0 ? prepareFewRel(models, places(), log) : []
const { docs: heldOut } = await foldTaggerDocs(models, log)
const dump: Record<string, unknown> = {}

for (const seed of seeds) {
  const t0 = Date.now()
  const { file, oof, all } = trainModel(docs, { seed, foldSeed, epochs: 15, extra, heldOut })
  log(`seed ${seed} (${Math.round((Date.now() - t0) / 1000)} s): thresholds ${JSON.stringify(file.threshold)}`)
  reportOof(
    oof,
    docs.map((d) => d.rel),
    log,
  )
  if (values.buckets) buckets(heldOut, oof, all, file.threshold)
  dump[String(seed)] = { threshold: file.threshold, all: all.map((t) => ({ ...t, id: docs[t.doc].rel.id })) }
}
if (values.dump) writeFileSync(values.dump, JSON.stringify(dump))

function buckets(docs: PreparedDoc[], oof: TripleScore[], all: TripleScore[], threshold: Partial<Record<string, number>>): void {
  const key = (t: TripleScore) => `${t.doc}|${t.type}|${t.pair}`
  const reported = new Set(oof.map(key))
  const scored = new Map(all.map((t) => [key(t), t.score]))
  const table = new Map<string, Map<string, number>>()
  const add = (type: string, b: string) => {
    let m = table.get(type)
    if (!m) table.set(type, (m = new Map<string, number>()))
    m.set(b, (m.get(b) ?? 0) + 1)
  }
  const under: { type: string; score: number; th: number }[] = []
  docs.forEach((d, di) => {
    if (d.rel.domain !== (process.env.TEA_BUCKET_DOMAIN ?? 'conll04')) return
    const set = d.sets.find((s) => !s.gold)!
    const found = new Set(set.cluster.values())
    const typesOf = new Map<string, Set<string>>()
    for (const it of set.items) {
      const c = set.rows[it.row].candidate
      const k = `${set.cluster.get(c.source.entity)}|${set.cluster.get(c.target.entity)}`
      let s = typesOf.get(k)
      if (!s) typesOf.set(k, (s = new Set()))
      s.add(it.type)
    }
    for (const g of d.rel.triples) {
      const [type, s, t] = g.split('|')
      const k = `${di}|${type}|${s}|${t}`
      if (reported.has(k)) add(type, 'reported')
      else if (scored.has(k)) {
        add(type, 'under the threshold')
        under.push({ type, score: scored.get(k)!, th: threshold[type] ?? 0.5 })
      } else if (reported.has(`${di}|${type}|${t}|${s}`) || scored.has(`${di}|${type}|${t}|${s}`)) add(type, 'other direction won')
      else if (!found.has(+s) || !found.has(+t)) {
        add(type, 'an entity missing or bounded unlike gold')
        if (process.env.SHOW_MISSING)
          for (const c of [+s, +t])
            if (!found.has(c)) {
              const m = d.rel.clusters[c].mentions[0]
              const near = [...set.cluster.keys()].filter((e) => e.mentions.some((x) => x.start < m.end && m.start < x.end))
              log(`    missing ${type} [${m.text}] engine: ${near.map((e) => e.name + '/' + e.type).join(', ') || '-'}`)
            }
      } else if (typesOf.get(`${s}|${t}`)) add(type, 'a candidate, not of the type (entity types)')
      else add(type, 'both found, never a candidate')
    }
    for (const t of oof) {
      if (t.doc !== di || t.y) continue
      const [s, tg] = t.pair.split('|')
      if (s.startsWith('x') || tg.startsWith('x')) add(t.type, 'FP: an entity matching no gold one')
      else if ([...d.rel.triples].some((g) => g.endsWith(`|${s}|${tg}`) || g.endsWith(`|${tg}|${s}`)))
        add(t.type, 'FP: a pair gold relates otherwise')
      else add(t.type, 'FP: a pair gold does not relate')
    }
  })
  for (const [type, m] of table) log(`  ${type}: ${[...m].map(([b, n]) => `${b} ${n}`).join('; ')}`)
  for (const type of new Set(under.map((u) => u.type))) {
    const u = under.filter((x) => x.type === type)
    const near = u.filter((x) => x.score >= x.th / 2).length
    log(`  ${type} under the threshold: ${near} at half the threshold or more, ${u.length - near} below`)
  }
}
