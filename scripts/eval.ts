// Scores the extraction engine on any file of the shared JSONL format.
// Usage: npm run eval -- <file.jsonl> [--task entities|relations|sentiment|language] [--holdout]
//   <file> is a path, or relative to ../shared/data (or $TEA_DATA_DIR).
//   --cv K     (entities) for sets without a dev split: K taggers, each trained without one fold
//              of documents (of every training corpus), score their held-out fold; several files
//              may be given, scored with the same K taggers.
//   --json     one JSON line of results (after the usual report, which goes to stderr).
//   --skip-speed  no throughput measurement.
//   --holdout  (sentiment) score only the 15% of sentences held out from training.
//   --born-in-as-lives-in  (relations) score born_in as lives_in, for corpora such as CoNLL04
//              whose Live_In annotation includes birthplaces. Strict scoring is the default.
//   --cv K     (relations) K-fold cross-validation by document (the relation model retrained
//              without each fold; the tagger as committed). --json: one line of JSON.
import { parseArgs } from 'node:util'
import winkNLP from 'wink-nlp'
import model from 'wink-eng-lite-web-model'
import { createEngine, detectLanguage, loadEngineModels, type Engine } from '../src/nlp/index.ts'
import { loadTagger } from '../src/nlp/tagger.ts'
import { tokenize } from '../src/nlp/tokens.ts'
import { goldCanon, goldMentions, serviceType, unscoredKey } from './nlp/data.ts'
import { readJsonl, type Example } from './nlp/data.ts'
import { evalRelations } from './nlp/eval-relations.ts'
import { foldOf, nerView, readNer } from './nlp/ner-data.ts'
import { trainFoldTaggers } from './nlp/cv.ts'
import { Scoreboard, ece, isHeldOut, macroF1 } from './nlp/metrics.ts'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    task: { type: 'string' },
    holdout: { type: 'boolean', default: false },
    limit: { type: 'string' },
    'born-in-as-lives-in': { type: 'boolean', default: false },
    cv: { type: 'string' },
    json: { type: 'boolean', default: false },
    'skip-speed': { type: 'boolean', default: false },
  },
})
// With --json the report goes to stderr and stdout carries the one line of results.
const json: Record<string, unknown> = {}
if (values.json) console.log = (...args: unknown[]) => console.error(...args)
const emit = (line: unknown) => process.stdout.write(JSON.stringify(line) + '\n')
const file = positionals[0]
if (!file) {
  console.error('usage: npm run eval -- <file.jsonl> [--task entities|relations|sentiment|language] [--holdout]')
  process.exit(2)
}
let rows = readJsonl(file)
if (values.limit) rows = rows.slice(0, Number(values.limit))
const first = rows[0] ?? ({} as Example)
const task = values.task ?? (first.language ? 'language' : first.polarity ? 'sentiment' : first.relations ? 'relations' : 'entities')
if (task === 'entities') rows = rows.map(nerView)
if (values.cv && task !== 'entities' && task !== 'relations') {
  console.error(`eval: --cv is implemented for --task entities and relations only, not ${task}`)
  process.exit(2)
}
console.log(`eval: ${file}, ${rows.length} texts, task ${task}`)
Object.assign(json, { file, task, texts: rows.length })

const TYPE_NAMES = ['PER', 'ORG', 'LOC', 'OBJ']

/**
 * Throughput on one core. CPU time of this (single-threaded) process is the measure, because
 * wall-clock time on a shared machine counts the time other processes hold the core; wall
 * clock is printed beside it. Best of three runs of each.
 */
function speed(engine: Engine, texts: string[]): number {
  const nlp = winkNLP(model, ['sbd', 'pos'])
  let tokens = 0
  for (const t of texts) tokens += tokenize(t).tokens.length
  const time = (f: (t: string) => unknown) => {
    const c0 = process.cpuUsage()
    const t0 = performance.now()
    for (const t of texts) f(t)
    const c = process.cpuUsage(c0)
    return { cpu: (c.user + c.system) / 1e6, wall: (performance.now() - t0) / 1000 }
  }
  const best = (f: (t: string) => unknown) => {
    const runs = [time(f), time(f), time(f)]
    return { cpu: Math.min(...runs.map((r) => r.cpu)), wall: Math.min(...runs.map((r) => r.wall)) }
  }
  time((t) => nlp.readDoc(t)) // warm-up
  time((t) => engine.analyze(t, { language: 'en' }))
  const wink = best((t) => nlp.readDoc(t))
  const full = best((t) => engine.analyze(t, { language: 'en' }))
  const rate = (s: number) => String(Math.round(tokens / s)).padStart(9)
  console.log(`\nspeed, one core (${tokens} tokens; best of 3):      by CPU time   by wall clock`)
  console.log(`  full extraction (analyze)               ${rate(full.cpu)} tok/s  ${rate(full.wall)} tok/s`)
  console.log(`  wink readDoc alone, same texts          ${rate(wink.cpu)} tok/s  ${rate(wink.wall)} tok/s`)
  console.log(`  ratio full / wink (CPU time)            ${(wink.cpu / full.cpu).toFixed(2)}`)
  return Math.round(tokens / full.cpu)
}

/** Entity scores of a set of texts: spans, canonical names per text, and the confidence of each reported entity. */
class EntityScores {
  span = new Scoreboard()
  names = new Scoreboard()
  conf: { conf: number; correct: boolean }[] = []
  add(engine: Engine, ex: Example): void {
    const gm = goldMentions(ex)
    const doc = tokenize(ex.text)
    const unscoredSpans = new Set((ex.entities ?? []).filter((e) => !serviceType(e.type)).map((e) => `${e.start}|${e.end}`))
    this.span.compare(
      gm.map((m) => `${m.type}|${m.start}|${m.end}`),
      engine
        .extractMentions(doc)
        .filter((m) => !unscoredSpans.has(`${m.start}|${m.end}`))
        .map((m) => `${m.type}|${m.start}|${m.end}`),
    )
    const { names: gold, unscored } = goldCanon(ex)
    const pred: string[] = []
    for (const e of engine.extract(doc).entities) {
      const key = `${e.type}|${e.name}`
      if (!gold.has(key) && unscored.has(unscoredKey(e.name))) continue
      pred.push(key)
      this.conf.push({ conf: e.confidence ?? 1, correct: gold.has(key) })
    }
    // The API's lists (analyze) are the same entities, at most a hundred of each type.
    this.names.compare(gold, pred)
  }
  report(title: string): Record<string, unknown> {
    const groups: [string, string[] | undefined][] = [
      ['micro PER/ORG/LOC', ['PER', 'ORG', 'LOC']],
      ['micro all', TYPE_NAMES],
    ]
    this.span.print(`${title}entities, exact span`, groups)
    this.names.print(`${title}entities, canonical name per document`, groups)
    const e = ece(this.conf)
    console.log(`\n${title}entity confidence: ECE ${e.ece.toFixed(4)} over ${this.conf.length} reported entities (10 bins)`)
    for (const l of e.table) console.log(l)
    const c = (x: { p: number; r: number; f1: number; tp: number; fn: number }) => ({
      p: +x.p.toFixed(4),
      r: +x.r.toFixed(4),
      f1: +x.f1.toFixed(4),
      support: x.tp + x.fn,
    })
    const objects = this.names.micro(['OBJ'])
    return {
      entities: c(this.names.micro(['PER', 'ORG', 'LOC'])),
      byType: Object.fromEntries(TYPE_NAMES.map((t) => [t, c(this.names.micro([t]))])),
      objects: objects.tp + objects.fn > 0 ? c(objects) : null,
      spans: c(this.span.micro(['PER', 'ORG', 'LOC'])),
      ece: +e.ece.toFixed(4),
      reported: this.conf.length,
    }
  }
}

if (task === 'entities' && values.cv) {
  const k = Number(values.cv)
  const sets = positionals.map((f) => ({ file: f, rows: readNer(f), scores: new EntityScores() }))
  const t0 = Date.now()
  const folds = await trainFoldTaggers(k)
  const models = loadEngineModels()
  for (const { fold, tagger } of folds) {
    const engine = createEngine({ ...models, tagger: loadTagger(tagger) })
    for (const s of sets) for (const ex of s.rows) if (foldOf(ex.id, k) === fold) s.scores.add(engine, ex)
  }
  const results = sets.map((s) => ({ file: s.file, texts: s.rows.length, ...s.scores.report(`${s.file}, ${k}-fold cross-validation: `) }))
  console.log(`\ncv: ${k} folds in ${Math.round((Date.now() - t0) / 1000)} s`)
  if (values.json) emit({ task, cv: k, sets: results })
} else if (task === 'entities') {
  const engine = createEngine(loadEngineModels())
  const scores = new EntityScores()
  for (const ex of rows) scores.add(engine, ex)
  Object.assign(json, scores.report(''))
  if (!values['skip-speed'])
    json.tokensPerSecond = speed(
      engine,
      rows.map((r) => r.text),
    )
  if (values.json) emit(json)
} else if (task === 'relations') {
  const engine = createEngine(loadEngineModels())
  await evalRelations(engine, {
    file,
    cv: values.cv ? Number(values.cv) : undefined,
    json: values.json,
    limit: values.limit ? Number(values.limit) : undefined,
    bornInAsLivesIn: values['born-in-as-lives-in'],
  })
  if (!values.json && !values.cv)
    speed(
      engine,
      rows.map((r) => r.text),
    )
} else if (task === 'sentiment') {
  const engine = createEngine(loadEngineModels())
  const set = values.holdout ? rows.filter((r) => isHeldOut(r.sentence_id ?? r.id)) : rows
  const gold: string[] = []
  const pred: string[] = []
  const t0 = performance.now()
  for (const ex of set) {
    const doc = tokenize(ex.text)
    const start = ex.start ?? 0
    const end = ex.end ?? ex.text.length
    const idx = doc.tokens.flatMap((t, i) => (t.start < end && t.end > start ? [i] : []))
    if (!idx.length) continue
    gold.push(ex.polarity ?? 'neutral')
    pred.push(engine.targetSentiment(doc, [{ first: idx[0], last: idx[idx.length - 1] + 1 }], doc.tokens[idx[0]].sent))
  }
  const ms = performance.now() - t0
  const m = macroF1(gold, pred, ['positive', 'neutral', 'negative'])
  console.log(`\nsentiment towards a target${values.holdout ? ' (held-out 15% of sentences)' : ''}: ${gold.length} targets`)
  console.log(`  macro-F1 ${m.macro.toFixed(4)}  accuracy ${m.accuracy.toFixed(4)}`)
  for (const [l, f] of Object.entries(m.per)) console.log(`  ${l.padEnd(10)} F1 ${f.toFixed(4)}`)
  console.log(`  ${(ms / Math.max(1, gold.length)).toFixed(3)} ms per target`)
  if (values.json) emit({ ...json, targets: gold.length, macroF1: +m.macro.toFixed(4), accuracy: +m.accuracy.toFixed(4) })
} else if (task === 'language') {
  let ok = 0
  const errors = new Map<string, number>()
  const t0 = performance.now()
  for (const ex of rows) {
    const p = detectLanguage(ex.text)
    if (p === ex.language) ok++
    else errors.set(`${ex.language}→${p}`, (errors.get(`${ex.language}→${p}`) ?? 0) + 1)
  }
  const ms = performance.now() - t0
  console.log(`\nlanguage: accuracy ${(ok / rows.length).toFixed(4)} (${ok}/${rows.length}), ${(ms / rows.length).toFixed(3)} ms per text`)
  if (errors.size) console.log('  errors: ' + [...errors].map(([k, v]) => `${k} ×${v}`).join(', '))
} else {
  console.error(`eval: unknown task "${task}" (entities, relations, sentiment, language)`)
  process.exit(2)
}
