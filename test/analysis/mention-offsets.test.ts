// The engine's mentions and evidence through the caller's view, over random Unicode texts: in
// every offset encoding, slicing the input at a mention's offsets gives its text, and at a
// relation's evidence offsets its evidence.
import t from 'tap'
import fc from 'fast-check'
import { createEngine, loadEngineModels } from '../../src/nlp/index.ts'
import { applyOptions } from '../../src/analysis/service.ts'
import { ENCODINGS, sliceIn, trickyPiece } from '../helpers/unicode.ts'

const { analyze } = createEngine(loadEngineModels())

const names = fc.constantFrom(
  'Tim Cook',
  'Cook',
  'Apple',
  'Apple Inc.',
  'Angela Merkel',
  'Merkel',
  'Microsoft',
  'GitHub',
  'Berlin',
  'Hamburg',
  'Cupertino, California',
  'Renée Zellweger',
  'Zoë',
  'São Paulo',
  'Zürich',
)
const glue = fc.constantFrom(
  ' ',
  ' works for ',
  ' acquired ',
  ' was born in ',
  ' lives in ',
  ' said ',
  '. ',
  ', ',
  ' and ',
  ' the company ',
  ' is based in ',
)
const text = fc
  .array(fc.oneof({ arbitrary: names, weight: 3 }, { arbitrary: glue, weight: 3 }, { arbitrary: trickyPiece, weight: 2 }), {
    minLength: 5,
    maxLength: 60,
  })
  .map((p) => p.join(''))

t.test('property: mention and evidence offsets slice the input to their text, in every encoding', async (t) => {
  let mentions = 0
  let evidence = 0
  fc.assert(
    fc.property(text, (input) => {
      const analysis = analyze(input, { language: 'en' })
      for (const offsetEncoding of ENCODINGS) {
        const view = applyOptions(analysis, { include: ['mentions'], offsetEncoding }, input)
        for (const e of view.entityDetails!) {
          for (const m of e.mentions) {
            mentions++
            if (sliceIn(input, offsetEncoding, m.start, m.end) !== m.text)
              throw new Error(`${offsetEncoding}: mention ${JSON.stringify(m)} of ${JSON.stringify(input)}`)
          }
        }
        for (const r of view.relations) {
          evidence++
          if (sliceIn(input, offsetEncoding, r.evidenceStart!, r.evidenceEnd!) !== r.evidence)
            throw new Error(`${offsetEncoding}: evidence of ${JSON.stringify(r)} in ${JSON.stringify(input)}`)
        }
      }
    }),
    { numRuns: 150 },
  )
  // Not vacuous: the random texts did have entities and relations.
  t.ok(mentions > 300, `${mentions} mentions checked`)
  t.ok(evidence > 30, `${evidence} evidence spans checked`)
})

t.test('the detail of one text', async (t) => {
  const input =
    '👋🏽 Tim Cook, the chief executive of Apple Inc., spoke in Cupertino. Cook said Apple would grow.\r\nAngela Merkel lives in Berlin.'
  const analysis = analyze(input, { language: 'en' })
  const view = applyOptions(analysis, { include: ['mentions'] }, input)
  const details = view.entityDetails!
  t.same(
    details.map((d) => d.name),
    Object.values(view.entities).flat(),
    'one detail per listed entity, in list order',
  )
  const cook = details.find((d) => d.name === 'Tim Cook')!
  t.same(
    cook.mentions.map((m) => [m.text, m.kind]),
    [
      ['Tim Cook', 'name'],
      ['Cook', 'alias'],
    ],
    'the surname alone is an alias',
  )
  t.equal(cook.mentions[0].start, 3, 'code points: the emoji with its skin tone is two')
  const sum =
    analysis.detail &&
    Object.values(analysis.detail)
      .flat()
      .reduce((s, d) => s + d.salience, 0)
  t.ok(Math.abs(sum! - 1) < 0.001, `salience sums to 1 (${sum})`)
  for (const d of details) {
    t.ok(d.confidence >= 0 && d.confidence <= 1, `${d.name}: confidence ${d.confidence}`)
    t.ok(d.salience > 0 && d.salience <= 1, `${d.name}: salience ${d.salience}`)
    t.ok(
      d.mentions.some((m) => m.kind === 'name'),
      `${d.name}: named at least once`,
    )
  }
  for (const r of view.relations) {
    t.equal(details[r.sourceIndex!].name, r.source, 'sourceIndex points at the source')
    t.equal(details[r.targetIndex!].name, r.target, 'targetIndex points at the target')
  }
})

t.test('maxEntitiesPerType cuts the detail as it cuts the lists', async (t) => {
  const input = 'Tim Cook met Angela Merkel and Satya Nadella in Berlin, Paris and London. Apple, Microsoft and Siemens signed.'
  const analysis = analyze(input, { language: 'en' })
  const view = applyOptions(analysis, { include: ['mentions'], maxEntitiesPerType: 1 }, input)
  t.same(
    view.entityDetails!.map((d) => d.name),
    Object.values(view.entities).flat(),
  )
  for (const list of Object.values(view.entities)) t.ok(list.length <= 1)
  t.ok(view.entityDetails!.length >= 2, 'several types kept')
  for (const r of view.relations) {
    t.equal(view.entityDetails![r.sourceIndex!].name, r.source)
    t.equal(view.entityDetails![r.targetIndex!].name, r.target)
  }
})
