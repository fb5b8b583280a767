// Interleaved A/B of wink's readDoc alone (with the `_resetCache()` tokenize() calls after it):
// two checkouts' node_modules (each its own wink-nlp and patch) over the same texts, in chunks
// of ten texts alternating as in extract-ab.ts. For a change to patches/wink-nlp+2.4.0.patch,
// whose share of analyze() is too small for extract-ab.ts to tell from noise.
// Usage: node --import tsx scripts/bench/wink-ab.ts <tree A> <tree B> [--rounds 12] [--warmup 3] [--file conll2003/dev_docs.jsonl …]
import { createRequire } from 'node:module'
import path from 'node:path'
import { parseArgs } from 'node:util'
import { readJsonl } from '../nlp/data.ts'
import { runInterleaved } from './interleaved-ab.ts'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '12' },
    warmup: { type: 'string', default: '3' },
    file: { type: 'string', multiple: true, default: ['conll2003/dev_docs.jsonl', 'crossner/politics_dev.jsonl'] },
  },
})
const [treeA, treeB] = positionals.map((p) => path.resolve(p))
if (!treeA || !treeB) {
  console.error('usage: wink-ab.ts <tree A> <tree B> [--rounds 12] [--warmup 3] [--file …]')
  process.exit(2)
}

interface Wink {
  readDoc(text: string): unknown
  _resetCache(): void
}

function readerOf(tree: string): (text: string) => void {
  const require = createRequire(path.join(tree, 'package.json'))
  const winkNLP = require('wink-nlp') as (model: unknown, pipe: string[]) => Wink
  const nlp = winkNLP(require('wink-eng-lite-web-model'), ['sbd', 'pos'])
  return (text) => {
    nlp.readDoc(text)
    nlp._resetCache()
  }
}

const texts = values.file.flatMap((f) => readJsonl(f).map((r) => r.text))
const a = readerOf(treeA)
const b = readerOf(treeB)
runInterleaved(a, b, texts, { rounds: Number(values.rounds), warmup: Number(values.warmup) })
