// Interleaved A/B of analyze()'s CPU time in one process: two checkouts' engines (each its own
// src/nlp, models and node_modules) over the same texts, in chunks of ten texts alternating
// A, B then B, A, so that the machine's other load falls on both alike. A ratio B/A per round;
// compare rounds, not single figures (docs/experiments/extraction-speed.md).
// Usage: node --import tsx scripts/bench/extract-ab.ts <tree A> <tree B> [--rounds 5] [--warmup 6] [--file conll2003/dev_docs.jsonl]
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { readJsonl } from '../nlp/data.ts'
import { runInterleaved } from './interleaved-ab.ts'
import type * as Nlp from '../../src/nlp/index.ts'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '5' },
    warmup: { type: 'string', default: '6' },
    file: { type: 'string', default: 'conll2003/dev_docs.jsonl' },
  },
})
const [treeA, treeB] = positionals.map((p) => path.resolve(p))
if (!treeA || !treeB) {
  console.error('usage: extract-ab.ts <tree A> <tree B> [--rounds 5] [--warmup 6] [--file …]')
  process.exit(2)
}

async function engineOf(tree: string): Promise<(text: string) => unknown> {
  const nlp = (await import(pathToFileURL(path.join(tree, 'src/nlp/index.ts')).href)) as typeof Nlp
  const engine = nlp.createEngine(nlp.loadEngineModels(path.join(tree, 'models')))
  return (text) => engine.analyze(text, { language: 'en' })
}

const texts = readJsonl(values.file).map((r) => r.text)
const a = await engineOf(treeA)
const b = await engineOf(treeB)
runInterleaved(a, b, texts, { rounds: Number(values.rounds), warmup: Number(values.warmup) })
