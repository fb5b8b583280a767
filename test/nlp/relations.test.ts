// One written sentence per relation type, pronoun resolution, negation in sentiment.
import t from 'tap'
import { createEngine, loadEngineModels } from '../../src/nlp/index.ts'
import { tokenize } from '../../src/nlp/tokens.ts'
import { calibrate, fitIsotonic } from '../../src/nlp/calibration.ts'
import { loadSentimentModel } from '../../src/nlp/sentiment.ts'
import { fnv } from '../../src/nlp/features/hashing.ts'
import { NEGATION_CASES } from '../../scripts/nlp/negation-cases.ts'
import { RELATION_TYPES, type RelationType } from '../../src/nlp/types.ts'

const { analyze, targetSentiment } = createEngine(loadEngineModels())

const FILLER = ' The rest of this paragraph is ordinary filler prose without any names in it, written so that the text is long enough.'

const CASES: [string, string, RelationType, string][] = [
  ['Satya Nadella is the chief executive of Microsoft.', 'Satya Nadella', 'works_for', 'Microsoft'],
  ['Microsoft is headquartered in Redmond.', 'Microsoft', 'located_in', 'Redmond'],
  ['Paris is located in France.', 'Paris', 'located_in', 'France'],
  ['Angela Merkel moved to Berlin in 1990 and she still lives in Berlin today.', 'Angela Merkel', 'lives_in', 'Berlin'],
  ['Angela Merkel was born in Hamburg.', 'Angela Merkel', 'born_in', 'Hamburg'],
  ['Steve Jobs co-founded Apple in 1976.', 'Steve Jobs', 'founded', 'Apple'],
  ['Microsoft owns LinkedIn.', 'Microsoft', 'owns', 'LinkedIn'],
  ['Microsoft acquired GitHub in 2018 for $7.5 billion.', 'Microsoft', 'acquired', 'GitHub'],
  ['WhatsApp is a division of Facebook.', 'WhatsApp', 'part_of', 'Facebook'],
  ['Germany is a member of NATO.', 'Germany', 'member_of', 'NATO'],
  ['Sony released the PlayStation 5 in 2020.', 'Sony', 'produces', 'PlayStation 5'],
  ['Toyota partnered with Panasonic to build batteries.', 'Toyota', 'partner_of', 'Panasonic'],
  ['Ford competes with General Motors in the truck market.', 'Ford', 'competitor_of', 'General Motors'],
  ['Mary Todd Lincoln was the wife of Abraham Lincoln.', 'Mary Todd Lincoln', 'family_of', 'Abraham Lincoln'],
  ['John Wilkes Booth assassinated Abraham Lincoln.', 'John Wilkes Booth', 'killed', 'Abraham Lincoln'],
]

t.test('"found that" is not a founding', async (t) => {
  const a = analyze('Steve Jobs found that Apple had lost its way in 1996.' + FILLER, { language: 'en' })
  t.notOk(a.relations.some((r) => r.type === 'founded'))
})

t.test('every relation type has a case', async (t) => {
  t.same([...new Set(CASES.map((c) => c[2]))].sort(), [...RELATION_TYPES].sort())
})

for (const [sentence, source, type, target] of CASES) {
  t.test(`${type}: ${sentence}`, async (t) => {
    const a = analyze(sentence + FILLER, { language: 'en' })
    const r = a.relations.find((r) => r.source === source && r.type === type && r.target === target)
    t.ok(r, `found (${source}, ${type}, ${target}) among ${JSON.stringify(a.relations.map((r) => [r.source, r.type, r.target]))}`)
    if (!r) return
    t.equal(r.evidence, sentence, 'evidence is the supporting sentence, verbatim')
    t.ok(r.confidence > 0 && r.confidence <= 1)
  })
}

// Each row: a text whose pair the classifier scores above the threshold in both directions;
// only the likelier direction is reported.
// A `todo` row is a direction the committed relation model gets wrong (a known miss, kept visible).
const ONE_DIRECTION: [string, string, string, string?][] = [
  ["Kenya's capital, Nairobi, is a large city.", 'Nairobi', 'Kenya'],
  [
    "Serbia is the largest of Yugoslavia's six republics.",
    'Serbia',
    'Yugoslavia',
    'the relation model refitted on the entities under the report cut scores the other direction higher',
  ],
]

for (const [sentence, inner, outer, todo] of ONE_DIRECTION) {
  t.test(`located_in one way only: ${sentence}`, async (t) => {
    const a = analyze(sentence + FILLER, { language: 'en' })
    t.ok(
      a.relations.some((r) => r.type === 'located_in' && r.source === inner && r.target === outer),
      `${inner} in ${outer}`,
      { todo },
    )
    t.notOk(
      a.relations.some((r) => r.type === 'located_in' && r.source === outer && r.target === inner),
      `not ${outer} in ${inner}`,
      { todo },
    )
    t.equal(a.relations.filter((r) => r.type === 'located_in').length, 1, 'one direction reported')
  })
}

// A killing stated with a rarer verb, or in the passive with the killer after "by": the kill
// words are read as one class between two persons, with the pair's order. A `todo` row is a
// known miss of the committed model, kept visible.
const KILLINGS: [string, string, string, string?][] = [
  ['Mark Chapman shot dead the musician Paul Rowe outside his apartment in New York.', 'Mark Chapman', 'Paul Rowe'],
  [
    'Ramon Mercader killed Leon Trotsky with an ice axe in Mexico City.',
    'Ramon Mercader',
    'Leon Trotsky',
    'scored the right way round, but under the killed threshold',
  ],
  [
    'Leon Trotsky was murdered by Ramon Mercader in Mexico City.',
    'Ramon Mercader',
    'Leon Trotsky',
    'scored the right way round (before the kill words: the wrong way), but under the killed threshold',
  ],
]

for (const [sentence, killer, victim, todo] of KILLINGS) {
  t.test(`killed, killer first: ${sentence}`, async (t) => {
    const a = analyze(sentence + FILLER, { language: 'en' })
    const killed = a.relations.filter((r) => r.type === 'killed')
    t.ok(
      killed.some((r) => r.source === killer && r.target === victim),
      JSON.stringify(killed.map((r) => [r.source, r.target, r.confidence])),
      { todo },
    )
    t.notOk(
      killed.some((r) => r.source === victim && r.target === killer),
      'not the other way round',
    )
  })
}

// The relation read through the pronoun is a marriage: residence ("she was living in Berlin")
// is now learned from Re-DocRED too, whose articles rarely annotate it, and scores below its
// reporting threshold there.
t.test('a pronoun resolves to the canonical entity', async (t) => {
  const a = analyze('Angela Merkel grew up in Templin. Years later she married Joachim Sauer, a chemist, in Berlin.' + FILLER, {
    language: 'en',
  })
  const r = a.relations.find((r) => r.type === 'family_of' && r.target === 'Joachim Sauer')
  t.ok(r, JSON.stringify(a.relations))
  t.equal(r?.source, 'Angela Merkel')
  t.notOk(a.entities.persons.includes('she'))
})

t.test('short names in relations resolve to the full name', async (t) => {
  const a = analyze('Tim Cook runs Apple. Cook was born in Mobile, Alabama, and joined the company in 1998.' + FILLER, { language: 'en' })
  for (const r of a.relations) {
    t.not(r.source, 'Cook')
    t.not(r.target, 'Cook')
  }
  t.ok(
    a.relations.some((r) => r.source === 'Tim Cook' && r.type === 'born_in'),
    JSON.stringify(a.relations),
  )
})

t.test('no relations in a text without entities', async (t) => {
  const a = analyze('Nothing much happened today. We walked, we talked, and we went home early.' + FILLER + FILLER, { language: 'en' })
  t.same(a.relations, [])
})

t.test('targeted sentiment, with negation', async (t) => {
  for (const [sentence, want] of NEGATION_CASES) {
    const doc = tokenize(sentence)
    const i = doc.tokens.findIndex((x) => x.text === 'John')
    t.equal(targetSentiment(doc, [{ first: i, last: i + 2 }], 0), want, sentence)
  }
})

t.test('sentiment lexicon: AFINN-165 values kept, VADER words AFINN lacks added on its scale', async (t) => {
  const { lexicon } = loadSentimentModel(new URL('../../models/sentiment.bin.gz', import.meta.url))
  const table: [string, number | undefined][] = [
    ['good', 3], // AFINN
    ['corrupt', -3], // AFINN
    ['admirable', 3], // VADER only: mean 2.6 × 1.25
    ['smuggler', -3], // VADER only
    ['convincing', 2], // VADER only
    ['the', undefined],
  ]
  for (const [word, want] of table) t.equal(lexicon.get(fnv(word)), want, word)
})

t.test('isotonic calibration is monotone and within [0, 1]', async (t) => {
  const scores = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95]
  const outcomes = [0, 0, 1, 0, 0, 1, 1, 0, 1, 1]
  const c = fitIsotonic(scores, outcomes, 1)
  let prev = -1
  for (let s = 0; s <= 1; s += 0.05) {
    const p = calibrate(c, s)
    t.ok(p >= prev - 1e-12 && p >= 0 && p <= 1)
    prev = p
  }
  t.equal(calibrate(c, 0), 0)
  t.equal(calibrate(c, 1), 1)
  // With a minimum block size, small steps are pooled into their neighbours.
  const pooled = fitIsotonic(scores, outcomes, 5)
  t.equal(pooled.y.length, 2)
  t.equal(calibrate(pooled, 0.1), 0.2)
  t.equal(calibrate(pooled, 0.95), 0.8)
})

t.test('evidence from an unpunctuated wall of text is the stretch around the pair', async (t) => {
  const filler = 'and then the committee talked about many other things for a long time '.repeat(12)
  const text = filler + 'John Wilkes Booth assassinated Abraham Lincoln ' + filler
  const a = analyze(text, { language: 'en' })
  const r = a.relations.find((r) => r.type === 'killed')
  t.ok(r, JSON.stringify(a.relations))
  if (!r) return
  t.ok(text.includes(r.evidence), 'verbatim')
  t.ok(r.evidence.includes('John Wilkes Booth assassinated Abraham Lincoln'))
  t.ok(r.evidence.length < 200, `short: ${r.evidence.length} characters`)
})
