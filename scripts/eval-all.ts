// One table of every figure the extraction is judged by: entity F1 (canonical names per text,
// persons/organizations/locations), objects F1 and entity ECE on every dev set and, by 5-fold
// cross-validation, on the sets without one; relations on CoNLL04 dev and Re-DocRED (5-fold);
// NewsMTSC held-out sentiment; throughput on one core. Each figure comes from `scripts/eval.ts
// --json` in a process of its own, two at a time (the machine has two cores).
// Usage: npm run eval:all [-- --folds K] [--meta]   (--meta: store the table in models/meta.json)
import { spawn } from 'node:child_process'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { DEV_FILES, REPO_ROOT } from './nlp/data.ts'
import { CV_SETS } from './nlp/ner-data.ts'
import { writeMeta } from './nlp/meta.ts'

const { values } = parseArgs({ options: { folds: { type: 'string', default: '5' }, meta: { type: 'boolean', default: false } } })
const folds = values.folds
const t0 = Date.now()

interface Score {
  p: number
  r: number
  f1: number
  support: number
}

/** The one line of `eval.ts --json`; which fields are present depends on the task. */
interface EvalResult {
  file?: string
  texts?: number
  entities?: Score
  byType?: Record<string, Score>
  objects?: Score | null
  ece?: number
  tokensPerSecond?: number
  macroF1?: number
  /** Entities by cross-validation: one result per file. */
  sets?: EvalResult[]
  /** Relations: nested differently by mode, read by relationCells. */
  [key: string]: unknown
}

/** Runs eval.ts with the arguments; the last JSON line it prints, or undefined when it fails. */
function evalJson(args: string[]): Promise<EvalResult | undefined> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...process.execArgv, path.join(REPO_ROOT, 'scripts/eval.ts'), ...args, '--json'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let out = ''
    let err = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d))
    child.on('error', () => resolve(undefined))
    child.on('exit', (code) => {
      const line = out
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .at(-1)
      if (code !== 0 || !line) {
        console.error(`eval:all: eval.ts ${args.join(' ')} failed (exit ${code}): ${err.trim().split('\n').slice(-3).join(' | ')}`)
        return resolve(undefined)
      }
      console.error(`eval:all: ${args.join(' ')} done (${Math.round((Date.now() - t0) / 1000)} s)`)
      resolve(JSON.parse(line) as EvalResult)
    })
  })
}

/** Runs the jobs, `jobs` at a time, keeping their order. */
async function pool<T>(tasks: (() => Promise<T>)[], jobs = 2): Promise<T[]> {
  const out = new Array<T>(tasks.length)
  let next = 0
  await Promise.all(
    Array.from({ length: jobs }, async () => {
      while (next < tasks.length) {
        const k = next++
        out[k] = await tasks[k]()
      }
    }),
  )
  return out
}

// Single-process jobs first, two at a time; the cross-validations use both cores themselves.
const quick = await pool([
  ...DEV_FILES.map((f) => () => evalJson([f, '--task', 'entities', ...(f.startsWith('conll2003') ? [] : ['--skip-speed'])])),
  () => evalJson(['conll04/dev_grouped.jsonl', '--task', 'relations', '--skip-speed']),
  () => evalJson(['newsmtsc/train.jsonl', '--task', 'sentiment', '--holdout']),
])
const devResults = quick.slice(0, DEV_FILES.length)
const [relConll04, sentiment] = quick.slice(DEV_FILES.length)
const cv = await evalJson([...CV_SETS, '--task', 'entities', '--cv', folds])
const relRedocred = await evalJson(['redocred/train.jsonl', '--task', 'relations', '--cv', folds, '--skip-speed'])

const f = (x: unknown) => (typeof x === 'number' ? x.toFixed(3) : 'n/a')
const rowsOut: string[][] = [['set', 'split', 'texts', 'entity F1', 'PER', 'ORG', 'LOC', 'objects F1', 'entity ECE']]
const entityRow = (name: string, split: string, r: EvalResult | undefined) =>
  rowsOut.push([
    name,
    split,
    String(r?.texts ?? 'n/a'),
    f(r?.entities?.f1),
    f(r?.byType?.PER?.f1),
    f(r?.byType?.ORG?.f1),
    f(r?.byType?.LOC?.f1),
    r ? (r.objects ? f(r.objects.f1) : '—') : 'n/a',
    f(r?.ece),
  ])
DEV_FILES.forEach((s, i) => entityRow(s.replace(/\.jsonl$/, ''), 'dev', devResults[i]))
CV_SETS.forEach((s) =>
  entityRow(
    s.replace(/\.jsonl$/, ''),
    `cv${folds}`,
    cv?.sets?.find((x) => x.file === s),
  ),
)
const crossner = devResults
  .slice(3)
  .map((r) => r?.entities?.f1)
  .filter((x): x is number => typeof x === 'number')
const widths = rowsOut[0].map((_, c) => Math.max(...rowsOut.map((r) => r[c].length)))
const print = (r: string[]) => console.log(r.map((v, c) => (c < 2 ? v.padEnd(widths[c]) : v.padStart(widths[c]))).join('  '))
console.log('\nentities (canonical names per text; entity F1 = micro over persons, organizations, locations)')
rowsOut.forEach(print)
if (crossner.length === 5)
  console.log(`crossner dev mean entity F1 ${f(crossner.reduce((a, b) => a + b, 0) / 5)}, lowest ${f(Math.min(...crossner))}`)

/** A relation result of eval.ts --task relations --json, whatever it nests: micro F1 and ECE. */
function relationCells(r: EvalResult | undefined): string {
  if (!r) return 'n/a'
  const pick = (o: unknown, re: RegExp): number | undefined => {
    if (!o || typeof o !== 'object') return undefined
    for (const [k, v] of Object.entries(o)) if (re.test(k) && typeof v === 'number') return v
    for (const v of Object.values(o)) {
      const x = pick(v, re)
      if (x !== undefined) return x
    }
    return undefined
  }
  const relations = r.relations as { f1?: unknown } | undefined
  const micro = typeof relations?.f1 === 'number' ? relations.f1 : pick(r.micro ?? r.relations ?? r, /^(micro)?f1$/i)
  const macro = pick(r, /^macro(f1)?$/i)
  const e = pick(r, /^ece$/i)
  const per = r.byType ?? r.perType ?? r.types
  const perText =
    per && typeof per === 'object'
      ? Object.entries(per as Record<string, number | { f1?: number } | undefined>)
          .map(([t, v]) => `${t} ${f(typeof v === 'number' ? v : v?.f1)}`)
          .join(', ')
      : ''
  return `micro F1 ${f(micro)}${macro !== undefined ? `, macro F1 ${f(macro)}` : ''}, ECE ${f(e)}${perText ? `\n    per type: ${perText}` : ''}`
}
console.log('\nrelations')
console.log(`  conll04/dev_grouped (dev)        ${relationCells(relConll04)}`)
console.log(`  redocred/train (cv${folds})            ${relationCells(relRedocred)}`)
console.log(`\nsentiment: newsmtsc held-out 15% macro-F1 ${f(sentiment?.macroF1)}`)
console.log(`speed: full extraction ${devResults[0]?.tokensPerSecond ?? 'n/a'} tokens/s (CPU time, one core; conll2003/dev_docs)`)
console.log(`eval:all took ${Math.round((Date.now() - t0) / 1000)} s`)
if (values.meta) {
  writeMeta(path.join(REPO_ROOT, 'models'), {
    eval: {
      folds: Number(folds),
      table: rowsOut,
      relations: { conll04Dev: relConll04 ?? null, redocredCv: relRedocred ?? null },
      sentimentMacroF1: sentiment?.macroF1 ?? null,
      tokensPerSecond: devResults[0]?.tokensPerSecond ?? null,
    },
  })
}
