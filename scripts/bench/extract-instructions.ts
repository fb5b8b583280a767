// Instructions per token of analyze(), a figure that the machine's other load does not move
// (CPU time on a shared machine moves by 2×: docs/experiments/extraction-speed.md). Runs this
// script under `valgrind --tool=callgrind`: it loads the models, analyses the first --docs texts
// of --file --warmup times, then --passes more times between two marks, and callgrind counts the
// instructions between the marks only (`--zero-before=getegid`, `--dump-before=getppid`: the
// marks are `process.getegid()` and `process.ppid`, which nothing else calls in that stretch; the last dump is the one).
// Node runs single-threaded with fixed seeds, so that compilation happens on the counted thread
// at the same points and hash tables lay out the same way from one run to the next; the warm-up
// has to be long enough for V8 to have optimised the engine (CPU time per pass flat), or the
// count includes compiling. Printed: all threads' count and the main thread's (the engine's).
// Usage: node --import tsx scripts/bench/extract-instructions.ts [--file conll2003/dev_docs.jsonl]
//          [--docs 30] [--warmup 10] [--passes 2] [--tree <another checkout>] [--keep <callgrind file>]
//   --tree  counts another checkout's engine (its src/nlp, its models) with this script.
//   --keep  keeps callgrind's count of the passes (for callgrind_annotate: native code only).
//   (Inner mode, as the outer run starts it: … extract-instructions.ts --inner …)
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { readJsonl } from '../nlp/data.ts'
import type * as Nlp from '../../src/nlp/index.ts'
import type * as Tokens from '../../src/nlp/tokens.ts'

const { values } = parseArgs({
  options: {
    file: { type: 'string', default: 'conll2003/dev_docs.jsonl' },
    docs: { type: 'string', default: '30' },
    warmup: { type: 'string', default: '10' },
    passes: { type: 'string', default: '2' },
    tree: { type: 'string', default: path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..') },
    keep: { type: 'string' },
    inner: { type: 'boolean', default: false },
  },
})
const texts = readJsonl(values.file)
  .slice(0, Number(values.docs))
  .map((r) => r.text)

if (values.inner) {
  // Inner run, under callgrind.
  const nlp = (await import(pathToFileURL(path.join(values.tree, 'src/nlp/index.ts')).href)) as typeof Nlp
  const engine = nlp.createEngine(nlp.loadEngineModels(path.join(values.tree, 'models')))
  const run = () => {
    for (const t of texts) engine.analyze(t, { language: 'en' })
  }
  for (let i = 0; i < Number(values.warmup); i++) run()
  process.getegid?.() // callgrind zeroes its counts here
  for (let i = 0; i < Number(values.passes); i++) run()
  void process.ppid // and dumps them here
  const { tokenize } = (await import(pathToFileURL(path.join(values.tree, 'src/nlp/tokens.ts')).href)) as typeof Tokens
  let tokens = 0
  for (const t of texts) tokens += tokenize(t).tokens.length
  process.stdout.write(JSON.stringify({ tokens }) + '\n')
} else {
  const dir = mkdtempSync(path.join(tmpdir(), 'tea-instr-'))
  const outFile = path.join(dir, 'callgrind.out')
  const stdout = execFileSync(
    'valgrind',
    [
      '--tool=callgrind',
      `--callgrind-out-file=${outFile}`,
      '--zero-before=getegid',
      '--dump-before=getppid',
      process.execPath,
      '--single-threaded',
      '--hash-seed=1',
      '--random-seed=1',
      '--import',
      'tsx',
      fileURLToPath(import.meta.url),
      ...['--file', values.file, '--docs', values.docs, '--warmup', values.warmup, '--passes', values.passes],
      ...['--tree', values.tree, '--inner'],
    ],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 26 },
  )
  const { tokens } = JSON.parse(stdout.trim().split('\n').pop()!) as { tokens: number }
  // The last dump holds the passes between the marks (tsx reads process.ppid at start-up too,
  // which makes dumps of its own before the warm-up).
  const parts = readdirSync(dir)
    .filter((n) => /^callgrind\.out\.\d+$/.test(n))
    .sort((x, y) => Number(x.split('.').pop()) - Number(y.split('.').pop()))
  if (!parts.length) throw new Error('extract-instructions: callgrind made no dump at the mark')
  const counted = readFileSync(path.join(dir, parts[parts.length - 1]), 'utf8')
  const m = /^summary: (\d+)/m.exec(counted)
  if (!m) throw new Error(`extract-instructions: no summary line in ${parts[parts.length - 1]}`)
  const instructions = Number(m[1])
  const main = instructions - otherThreads(path.join(dir, parts[parts.length - 1]))
  if (values.keep) writeFileSync(values.keep, counted)
  rmSync(dir, { recursive: true, force: true })
  const passes = Number(values.passes)
  console.log(
    JSON.stringify({
      tree: values.tree,
      file: values.file,
      docs: texts.length,
      tokens,
      warmup: Number(values.warmup),
      passes,
      instructions,
      mainThreadInstructions: main,
      instructionsPerToken: Math.round(instructions / (passes * tokens)),
      mainThreadInstructionsPerToken: Math.round(main / (passes * tokens)),
    }),
  )
}

/**
 * Instructions of the threads other than the main one in a callgrind dump: under tsx, its
 * loader's worker thread ran 0.2–1.4 G instructions during the passes (16% and 53% of two
 * runs' counts), which the engine did not; the main thread's count is the total less this.
 */
function otherThreads(file: string): number {
  const report = execFileSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', file], { encoding: 'utf8', maxBuffer: 1 << 28 })
  const line = report.split('\n').find((l) => /pthread_create\.c:start_thread\b/.test(l))
  return line ? Number(/^\s*([\d,]+)/.exec(line)![1].replaceAll(',', '')) : 0
}
