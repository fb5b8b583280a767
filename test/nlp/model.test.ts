// The committed model files load and score above a floor on small slices of dev data.
// Floors sit a few points under the full-dev figures in MODEL.md: a broken model or a drift
// between training and tagging features falls far below them.
import t from 'tap'
import { createEngine, loadEngineModels, MODEL_NAME } from '../../src/nlp/index.ts'
import { tokenize } from '../../src/nlp/tokens.ts'
import { wordHashes } from '../../src/nlp/relations.ts'
import { inputsOf, loadSentimentModel, sentimentInput } from '../../src/nlp/sentiment.ts'
import { goldCanon, goldMentions, hasData, readJsonl, unscoredKey } from '../../scripts/nlp/data.ts'
import { Scoreboard, isHeldOut, macroF1 } from '../../scripts/nlp/metrics.ts'

const { analyze, extractMentions, targetSentiment } = createEngine(loadEngineModels())

t.match(MODEL_NAME, /^tea-extract-/)

t.test('entities, CoNLL-2003 dev slice', { skip: !hasData('conll2003/dev_docs.jsonl') && 'shared data absent' }, async (t) => {
  const board = new Scoreboard()
  for (const ex of readJsonl('conll2003/dev_docs.jsonl').slice(0, 40)) {
    const doc = tokenize(ex.text)
    board.compare(
      goldMentions(ex).map((m) => `${m.type}|${m.start}|${m.end}`),
      extractMentions(doc).map((m) => `${m.type}|${m.start}|${m.end}`),
    )
  }
  const f1 = board.micro(['PER', 'ORG', 'LOC']).f1
  t.ok(f1 >= 0.85, `span micro-F1 ${f1.toFixed(3)} ≥ 0.85`)
})

t.test('relations, CoNLL04 dev slice', { skip: !hasData('conll04/dev_grouped.jsonl') && 'shared data absent' }, async (t) => {
  const board = new Scoreboard()
  for (const ex of readJsonl('conll04/dev_grouped.jsonl').slice(0, 60)) {
    board.compare(
      goldCanon(ex).triples,
      analyze(ex.text, { language: 'en' }).relations.map((r) => `${r.type}|${r.source}|${r.target}`),
    )
  }
  const f1 = board.micro().f1
  t.ok(f1 >= 0.35, `triple micro-F1 ${f1.toFixed(3)} ≥ 0.35`)
})

t.test('sentiment, NewsMTSC held-out slice', { skip: !hasData('newsmtsc/train.jsonl') && 'shared data absent' }, async (t) => {
  const gold: string[] = []
  const pred: string[] = []
  for (const ex of readJsonl('newsmtsc/train.jsonl')
    .filter((r) => isHeldOut(r.sentence_id ?? r.id))
    .slice(0, 500)) {
    const doc = tokenize(ex.text)
    const idx = doc.tokens.flatMap((x, i) => (x.start < ex.end! && x.end > ex.start! ? [i] : []))
    if (!idx.length) continue
    gold.push(ex.polarity!)
    pred.push(targetSentiment(doc, [{ first: idx[0], last: idx[idx.length - 1] + 1 }], doc.tokens[idx[0]].sent))
  }
  const m = macroF1(gold, pred, ['positive', 'neutral', 'negative'])
  t.ok(m.macro >= 0.55, `macro-F1 ${m.macro.toFixed(3)} ≥ 0.55`)
})

t.test("sentiment heads: the loaded model's per-row scores give the pools' inputs bit for bit", async (t) => {
  const m = loadSentimentModel(new URL('../../models/sentiment.bin.gz', import.meta.url))
  t.ok(m.heads?.rowScores, 'the committed model has heads, and their per-row scores are made at load')
  const computed = { ...m, heads: { ...m.heads!, rowScores: undefined } }
  const sentences = [
    'Senator John Smith was not corrupt, said the committee, which praised his honest work.',
    'Critics accused John Smith of lying to voters about the failed and costly project in Ohio.',
    'John Smith met the ministers on Tuesday.',
  ]
  for (const text of sentences) {
    const doc = tokenize(text)
    const i = doc.tokens.findIndex((x) => x.text === 'John')
    const words = wordHashes(doc)
    const a = sentimentInput(m, doc, words, [{ first: i, last: i + 2 }], 0)
    const b = sentimentInput(computed, doc, words, [{ first: i, last: i + 2 }], 0)
    t.equal(a.length, inputsOf(m))
    t.ok(
      a.every((x, k) => Object.is(x, b[k])),
      text,
    )
  }
})

t.test('models/meta.json names the model and holds the checksum of every model file', async (t) => {
  const { createHash } = await import('node:crypto')
  const { readFileSync } = await import('node:fs')
  const meta = JSON.parse(readFileSync(new URL('../../models/meta.json', import.meta.url), 'utf8')) as {
    name: string
    files: Record<string, string>
  }
  t.equal(meta.name, MODEL_NAME)
  for (const f of ['ner.bin.gz', 'entity-confidence.json', 'relations.json', 'sentiment.bin.gz']) {
    const sum =
      'sha256:' +
      createHash('sha256')
        .update(readFileSync(new URL(`../../models/${f}`, import.meta.url)))
        .digest('hex')
    t.equal(meta.files[f], sum, `${f} is the file meta.json was written for`)
  }
})

t.test('partial labels: only capitalised tokens outside the annotated spans are unlabeled', async (t) => {
  const { markUnlabeled, prepare } = await import('../../scripts/nlp/train-ner.ts')
  const text = 'Roger Crouch of NASA met the Board in Paris.'
  const p = markUnlabeled(prepare({ id: 'x', text, entities: [{ start: 0, end: 12, type: 'PER', text: 'Roger Crouch' }] }, new Map()))
  const marked = p.doc.tokens.filter((_, i) => p.unlabeled![i]).map((tok) => tok.text)
  t.same(marked, ['NASA', 'Board', 'Paris'])
})

t.test('parameter mixing: one member by default (the tagger as trained before), K members each with its own order', async (t) => {
  const { NER_MIX_MEMBERS, mixSeeds } = await import('../../scripts/nlp/train-ner.ts')
  t.equal(NER_MIX_MEMBERS, 1)
  t.same(mixSeeds(20031, 1), [20031])
  const seeds = mixSeeds(20031, 3)
  t.equal(seeds.length, 3)
  t.equal(seeds[0], 20031, 'the first member shuffles with the tagger seed itself')
  t.equal(new Set(seeds).size, 3, 'each member its own shuffle seed')
  t.same(mixSeeds(20031, 0), [20031], 'never fewer than one member')
})

t.test('scoring: a name the corpus labels MISC is no gold name and is set aside, not counted as a false positive', async (t) => {
  const text = 'Apple sells iTunes gift cards; The U.S. Open is in New York.'
  const span = (s: string, type: string) => ({ text: s, type, start: text.indexOf(s), end: text.indexOf(s) + s.length })
  const gold = goldCanon({
    id: 'x',
    text,
    entities: [span('Apple', 'ORG'), span('iTunes', 'MISC'), span('The U.S. Open', 'MISC'), span('New York', 'LOC')],
  })
  t.same([...gold.names].sort(), ['LOC|New York', 'ORG|Apple'])
  t.ok(gold.unscored.has(unscoredKey('iTunes')))
  t.ok(gold.unscored.has(unscoredKey('US Open')), 'case, dots and a leading "the" ignored')
  t.notOk(gold.unscored.has(unscoredKey('New York')))
})
