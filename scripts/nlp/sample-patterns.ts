// Draws a seeded sample of the engine's pattern-only relations (acquired, partner_of,
// competitor_of: no corpus annotates them) from the training splits of the shared corpora, to
// be labelled by hand. The labelled file (pattern-labels.jsonl, `correct` set by a reader of
// each evidence sentence) is what train-relations.ts turns into a confidence per cue phrase.
// Usage: npx tsx scripts/nlp/sample-patterns.ts [per-type] > candidates.jsonl
import { tokenize } from '../../src/nlp/tokens.ts'
import { createEngine, loadEngineModels } from '../../src/nlp/index.ts'
import {
  anchorsBySentence,
  argumentFits,
  candidatePairs,
  matchingPatterns,
  paragraphsOf,
  patternOnlyMatch,
} from '../../src/nlp/relations.ts'
import { hasData, readJsonl, rng, shuffle } from './data.ts'

const CORPORA = [
  'conll2003/train_docs.jsonl',
  'conll04/train_grouped.jsonl',
  'wnut17/train_grouped.jsonl',
  'redocred/train.jsonl',
  'crossner/politics_train.jsonl',
  'crossner/science_train.jsonl',
  'crossner/music_train.jsonl',
  'crossner/literature_train.jsonl',
  'crossner/ai_train.jsonl',
  'sec/train_grouped.jsonl',
  'btc/train_grouped.jsonl',
  'newsmtsc/train_grouped.jsonl',
  'fewrel/val_wiki_mapped.jsonl',
  // The dev splits too: the three types are scored on none of them, and the training splits
  // alone hold fewer than a hundred such predictions.
  'conll2003/dev_docs.jsonl',
  'conll04/dev_grouped.jsonl',
  'wnut17/dev_grouped.jsonl',
  'crossner/politics_dev.jsonl',
  'crossner/science_dev.jsonl',
  'crossner/music_dev.jsonl',
  'crossner/literature_dev.jsonl',
  'crossner/ai_dev.jsonl',
]
const perType = Number(process.argv[2] ?? 60)

interface Prediction {
  corpus: string
  id: string
  type: string
  pattern: number
  source: string
  target: string
  evidence: string
}
const engine = createEngine(loadEngineModels())
const all: Prediction[] = []
const seen = new Set<string>()
for (const corpus of CORPORA) {
  if (!hasData(corpus)) continue
  for (const ex of readJsonl(corpus)) {
    const doc = tokenize(ex.text)
    const entities = engine.extract(doc).entities
    for (const c of candidatePairs(anchorsBySentence(doc, entities), paragraphsOf(doc))) {
      if (!argumentFits(c.source.entity) || !argumentFits(c.target.entity)) continue
      const m = patternOnlyMatch(c, matchingPatterns(doc, c))
      if (!m) continue
      const k = `${ex.id}|${m.type}|${c.source.entity.name}|${c.target.entity.name}`
      if (seen.has(k)) continue
      seen.add(k)
      const s = doc.sentences[c.sent]
      all.push({
        corpus,
        id: ex.id,
        type: m.type,
        pattern: m.pattern,
        source: c.source.entity.name,
        target: c.target.entity.name,
        evidence: ex.text.slice(s.start, s.end),
      })
    }
  }
}
console.error(
  `sample-patterns: ${all.length} predictions: ${['acquired', 'partner_of', 'competitor_of'].map((t) => `${t} ${all.filter((p) => p.type === t).length}`).join(', ')}`,
)
shuffle(all, rng(20231))
for (const type of ['acquired', 'partner_of', 'competitor_of']) {
  for (const p of all.filter((x) => x.type === type).slice(0, perType)) console.log(JSON.stringify(p))
}
