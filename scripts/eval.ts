// Scores the extraction engine on any file of the shared JSONL format.
// Usage: npm run eval -- <file.jsonl> [--task entities|relations|sentiment|language] [--holdout]
//   <file> is a path, or relative to ../shared/data (or $TEA_DATA_DIR).
//   --holdout  (sentiment) score only the 15% of sentences held out from training.
//   --born-in-as-lives-in  (relations) score born_in as lives_in, for corpora such as CoNLL04
//              whose Live_In annotation includes birthplaces. Strict scoring is the default.
//   --cv K     (relations) K-fold cross-validation by document (the relation model retrained
//              without each fold; the tagger as committed). --json: one line of JSON.
import { parseArgs } from 'node:util'
import winkNLP from 'wink-nlp'
import model from 'wink-eng-lite-web-model'
import { analyze, detectLanguage, extractMentions, targetSentiment } from '../src/nlp/index.ts'
import { tokenize } from '../src/nlp/tokens.ts'
import { goldCanon, goldMentions } from './nlp/data.ts'
import { readJsonl, type Example } from './nlp/data.ts'
import { Scoreboard, isHeldOut, macroF1 } from './nlp/metrics.ts'
import { evalRelations } from './nlp/eval-relations.ts'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    task: { type: 'string' },
    holdout: { type: 'boolean', default: false },
    limit: { type: 'string' },
    'born-in-as-lives-in': { type: 'boolean', default: false },
    cv: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
})
const file = positionals[0]
if (!file) {
  console.error('usage: npm run eval -- <file.jsonl> [--task entities|relations|sentiment|language] [--holdout]')
  process.exit(2)
}
let rows = readJsonl(file)
if (values.limit) rows = rows.slice(0, Number(values.limit))
const first = rows[0] ?? ({} as Example)
const task =
  values.task ??
  (first.language ? 'language' : first.polarity ? 'sentiment' : first.relations ? 'relations' : 'entities')
if (!values.json) console.log(`eval: ${file}, ${rows.length} texts, task ${task}`)

const TYPE_NAMES = ['PER', 'ORG', 'LOC', 'OBJ']
const LIST = { persons: 'PER', organizations: 'ORG', locations: 'LOC', objects: 'OBJ' } as const

/**
 * Throughput on one core. CPU time of this (single-threaded) process is the measure, because
 * wall-clock time on a shared machine counts the time other processes hold the core; wall
 * clock is printed beside it. Best of three runs of each.
 */
function speed(texts: string[]): void {
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
  time((t) => analyze(t, { language: 'en' }))
  const wink = best((t) => nlp.readDoc(t))
  const full = best((t) => analyze(t, { language: 'en' }))
  const rate = (s: number) => String(Math.round(tokens / s)).padStart(9)
  console.log(`\nspeed, one core (${tokens} tokens; best of 3):      by CPU time   by wall clock`)
  console.log(`  full extraction (analyze)               ${rate(full.cpu)} tok/s  ${rate(full.wall)} tok/s`)
  console.log(`  wink readDoc alone, same texts          ${rate(wink.cpu)} tok/s  ${rate(wink.wall)} tok/s`)
  console.log(`  ratio full / wink (CPU time)            ${(wink.cpu / full.cpu).toFixed(2)}`)
}

if (task === 'entities') {
  const span = new Scoreboard()
  const names = new Scoreboard()
  for (const ex of rows) {
    const gm = goldMentions(ex)
    const doc = tokenize(ex.text)
    span.compare(
      gm.map((m) => `${m.type}|${m.start}|${m.end}`),
      extractMentions(doc).map((m) => `${m.type}|${m.start}|${m.end}`),
    )
    const a = analyze(ex.text, { language: 'en' })
    const pred: string[] = []
    for (const [list, type] of Object.entries(LIST)) for (const n of a.entities[list as keyof typeof LIST]) pred.push(`${type}|${n}`)
    names.compare(goldCanon(ex).names, pred)
  }
  const groups: [string, string[] | undefined][] = [['micro PER/ORG/LOC', ['PER', 'ORG', 'LOC']], ['micro all', TYPE_NAMES]]
  span.print('entities, exact span', groups)
  names.print('entities, canonical name per document', groups)
  speed(rows.map((r) => r.text))
} else if (task === 'relations') {
  await evalRelations({ file, cv: values.cv ? Number(values.cv) : undefined, json: values.json, limit: values.limit ? Number(values.limit) : undefined, bornInAsLivesIn: values['born-in-as-lives-in'] })
  if (!values.json && !values.cv) speed(rows.map((r) => r.text))
} else if (task === 'sentiment') {
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
    pred.push(targetSentiment(doc, [{ first: idx[0], last: idx[idx.length - 1] + 1 }], doc.tokens[idx[0]].sent))
  }
  const ms = performance.now() - t0
  const m = macroF1(gold, pred, ['positive', 'neutral', 'negative'])
  console.log(`\nsentiment towards a target${values.holdout ? ' (held-out 15% of sentences)' : ''}: ${gold.length} targets`)
  console.log(`  macro-F1 ${m.macro.toFixed(4)}  accuracy ${m.accuracy.toFixed(4)}`)
  for (const [l, f] of Object.entries(m.per)) console.log(`  ${l.padEnd(10)} F1 ${f.toFixed(4)}`)
  console.log(`  ${(ms / Math.max(1, gold.length)).toFixed(3)} ms per target`)
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
