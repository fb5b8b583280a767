// The engine's entity detail: spans on code point boundaries, name or alias, salience shares.
import t from 'tap'
import { codePointSpan, entityDetail, salienceTotal } from '../../src/nlp/detail.ts'
import { spellsName, type Entity, type Mention } from '../../src/nlp/entities.ts'
import { createEngine, loadEngineModels } from '../../src/nlp/index.ts'

const { analyze } = createEngine(loadEngineModels())

const mention = (text: string, start: number): Mention => ({
  type: 'PER',
  first: 0,
  last: 1,
  start,
  end: start + text.length,
  text,
  sent: 0,
})

t.test('codePointSpan widens a span that splits a surrogate pair, and only then', async (t) => {
  const text = 'a😀b😀'
  t.same(codePointSpan(text, 0, 1), [0, 1])
  t.same(codePointSpan(text, 2, 4), [1, 4], 'start inside the first emoji')
  t.same(codePointSpan(text, 0, 5), [0, 6], 'end inside the last emoji')
  t.same(codePointSpan(text, 1, 3), [1, 3], 'a whole pair is left alone')
  t.same(codePointSpan('e\u0301x', 1, 3), [1, 3], 'a combining mark is a code point of its own')
})

t.test('spellsName: the canonical name up to case, dots, spacing, an honorific or a leading "the"', async (t) => {
  const person: Entity = { type: 'PER', name: 'Tim Cook', mentions: [], salience: 1 }
  const org: Entity = { type: 'ORG', name: 'Associated Press', mentions: [], salience: 1 }
  const inc: Entity = { type: 'ORG', name: 'Apple Inc.', mentions: [], salience: 1 }
  t.ok(spellsName(person, 'Tim Cook'))
  t.ok(spellsName(person, 'TIM COOK'))
  t.ok(spellsName(person, 'Mr. Tim  Cook'))
  t.notOk(spellsName(person, 'Cook'), 'the surname alone')
  t.notOk(spellsName(person, 'Mr. Cook'), 'a title and the surname')
  t.ok(spellsName(org, 'The Associated Press'))
  t.ok(spellsName(inc, 'Apple Inc'))
  t.notOk(spellsName(inc, 'Apple'), 'part of an organization’s name')
})

t.test('entityDetail: mentions in text order without duplicates, salience as a share', async (t) => {
  const text = 'Cook met Tim Cook. Tim Cook left.'
  const e: Entity = {
    type: 'PER',
    name: 'Tim Cook',
    mentions: [mention('Tim Cook', 19), mention('Cook', 0), mention('Tim Cook', 9), mention('Tim Cook', 19)],
    salience: 3,
    confidence: 0.87654,
  }
  const other: Entity = { type: 'LOC', name: 'Paris', mentions: [], salience: 1 }
  const d = entityDetail(text, e, salienceTotal([e, other]))
  t.same(d.mentions, [
    { start: 0, end: 4, kind: 'alias' },
    { start: 9, end: 17, kind: 'name' },
    { start: 19, end: 27, kind: 'name' },
  ])
  t.equal(d.salience, 0.75)
  t.equal(d.confidence, 0.8765, 'rounded to four decimals')
})

t.test('the salience of a text’s entities sums to 1', async (t) => {
  const text = 'Tim Cook met Angela Merkel in Berlin. Apple and Siemens signed a deal in Munich. Cook and Merkel spoke to Reuters.'
  const a = analyze(text, { language: 'en' })
  const all = Object.values(a.detail!).flat()
  t.ok(all.length >= 5, `${all.length} entities`)
  t.ok(Math.abs(all.reduce((s, d) => s + d.salience, 0) - 1) < 0.001)
  for (const list of Object.keys(a.entities) as (keyof typeof a.entities)[]) {
    t.equal(a.detail![list].length, a.entities[list].length, `${list}: one detail per name`)
    const saliences = a.detail![list].map((d) => d.salience)
    t.same(
      saliences,
      [...saliences].sort((x, y) => y - x),
      `${list}: most salient first`,
    )
  }
})
