// Interleaved A/B of the relation sentiment alone: each checkout's engine extracts the relations
// of the dev texts once, then its `targetSentiment` is timed on the span sets `analyze` reads
// (each once per document, in analyze's order), rounds alternating A, B then B, A.
// Usage: node --import tsx scripts/bench/sentiment-ab.ts <tree A> <tree B> [--rounds 16]
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { readJsonl } from '../nlp/data.ts'
import type * as Nlp from '../../src/nlp/index.ts'
import type * as Tokens from '../../src/nlp/tokens.ts'
import type { Span } from '../../src/nlp/sentiment.ts'

const { values, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: 'string', default: '16' } } })
const trees = positionals.map((p) => path.resolve(p))
if (trees.length !== 2) {
  console.error('usage: sentiment-ab.ts <tree A> <tree B> [--rounds 16]')
  process.exit(2)
}
const FILES = [
  'conll2003/dev_docs',
  'crossner/politics_dev',
  'crossner/science_dev',
  'crossner/music_dev',
  'crossner/literature_dev',
  'crossner/ai_dev',
]
const texts = FILES.flatMap((f) => readJsonl(`${f}.jsonl`).map((r) => r.text))

type Calls = { doc: Tokens.Tokenized; words: Uint32Array; calls: { targets: Span[]; sent: number }[] }[]
async function setUp(tree: string): Promise<() => void> {
  const nlp = (await import(pathToFileURL(path.join(tree, 'src/nlp/index.ts')).href)) as typeof Nlp
  const { tokenize } = (await import(pathToFileURL(path.join(tree, 'src/nlp/tokens.ts')).href)) as typeof Tokens
  const engine = nlp.createEngine(nlp.loadEngineModels(path.join(tree, 'models')))
  const work: Calls = texts.map((text) => {
    const doc = tokenize(text)
    const { relations, words = new Uint32Array(0) } = engine.extract(doc)
    const calls: Calls[number]['calls'] = []
    const keys = new Set<string>()
    for (const d of relations) {
      const { source, target, sent, sent2 } = d.candidate
      const targets = sent === sent2 ? [source, target] : [source]
      const key = targets.map((t) => `${t.first} ${t.last}`).join(' ') + ` ${sent}`
      if (keys.has(key)) continue
      keys.add(key)
      calls.push({ targets, sent })
    }
    return { doc, words, calls }
  })
  return () => {
    for (const w of work) for (const c of w.calls) engine.targetSentiment(w.doc, c.targets, c.sent, w.words)
  }
}

const [a, b] = [await setUp(trees[0]), await setUp(trees[1])]
const cpu = (run: () => void) => {
  const c0 = process.cpuUsage()
  run()
  const c = process.cpuUsage(c0)
  return (c.user + c.system) / 1000
}
for (let w = 0; w < 5; w++) {
  a()
  b()
}
const ratios: number[] = []
for (let r = 0; r < Number(values.rounds); r++) {
  const [ta, tb] = r % 2 === 0 ? [cpu(a), cpu(b)] : [cpu(b), cpu(a)].reverse()
  ratios.push(tb / ta)
  console.log(`round ${r}: A ${ta.toFixed(1)} ms, B ${tb.toFixed(1)} ms, B/A ${(tb / ta).toFixed(3)}`)
}
ratios.sort((x, y) => x - y)
console.log(`median B/A ${ratios[Math.floor(ratios.length / 2)].toFixed(3)}`)
