// Interleaved A/B of analyze()'s CPU time in one process: two checkouts' engines (each its own
// src/nlp, models and node_modules) over the same texts, in chunks of ten texts alternating
// A, B then B, A, so that the machine's other load falls on both alike. A ratio B/A per round;
// compare rounds, not single figures (docs/experiments/extraction-speed.md).
// Usage: node --import tsx scripts/bench/extract-ab.ts <tree A> <tree B> [--rounds 5] [--warmup 6] [--file conll2003/dev_docs.jsonl]
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { readJsonl } from '../nlp/data.ts'
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
for (let w = 0; w < Number(values.warmup); w++) {
  for (const t of texts) {
    a(t)
    b(t)
  }
}
const cpu = () => {
  const c = process.cpuUsage()
  return c.user + c.system
}
for (let r = 0; r < Number(values.rounds); r++) {
  let ta = 0
  let tb = 0
  for (let k = 0; k < texts.length; k += 10) {
    const chunk = texts.slice(k, k + 10)
    const order = (k / 10 + r) % 2 === 0 ? [a, b] : [b, a]
    for (const run of order) {
      const c0 = cpu()
      for (const t of chunk) run(t)
      if (run === a) ta += cpu() - c0
      else tb += cpu() - c0
    }
  }
  console.log(`round ${r}: A ${(ta / 1000).toFixed(0)} ms, B ${(tb / 1000).toFixed(0)} ms, B/A ${(tb / ta).toFixed(3)}`)
}
