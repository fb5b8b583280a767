// Relation feature of an employment phrase right before an organization's name (template 114).
import t from 'tap'
import { createEngine, loadEngineModels } from '../../src/nlp/index.ts'
import { anchorsBySentence, pushEmployedAt, wordHashes } from '../../src/nlp/relations.ts'
import { tokenize } from '../../src/nlp/tokens.ts'
import { feat } from '../../src/nlp/features/hashing.ts'

const engine = createEngine(loadEngineModels())
// Type pair as relationFeatures hashes it (source * 8 + target): PER 1, ORG 2.
const PER_ORG = 10

/** Values of template 114 under 100 (class * 4 + who) for the pair named `src` → `tgt`, anywhere in `text`. */
function values(text: string, src: string, tgt: string): number[] {
  const doc = tokenize(text)
  const ents = engine.extractEntities(doc, { all: true })
  const s = ents.find((e) => e.name === src)
  const o = ents.find((e) => e.name === tgt)
  if (!s || !o) throw new Error(`no pair in "${text}": ${ents.map((e) => e.type + ' ' + e.name).join(', ')}`)
  const f: number[] = []
  pushEmployedAt(f, wordHashes(doc), s, o, anchorsBySentence(doc, ents), PER_ORG)
  const fs = new Set(f)
  return [...Array(20).keys()].filter((v) => fs.has(feat(114, v, PER_ORG)))
}

t.test('a role and a preposition before the organization, said of the person', async (t) => {
  // Class 0 (academic), said of the nearest person before the phrase (1).
  t.same(values('Hugh Davis is a professor at Harvard University .', 'Hugh Davis', 'Harvard University'), [1], '"a professor at"')
  // Class 2 (executive) over "the".
  t.same(
    values('Osmund Ueland was the chief executive of the Norwegian State Railways .', 'Osmund Ueland', 'Norwegian State Railways'),
    [9],
    '"chief executive of the"',
  )
})

t.test('said in a later sentence through a pronoun', async (t) => {
  // Class 3 (a verb of work), the pronoun resolved to the person.
  t.same(
    values('Osmund Ueland is a Norwegian civil servant . He worked for Siemens from 1975 to 1990 .', 'Osmund Ueland', 'Siemens'),
    [13],
    '"He worked for"',
  )
})

t.test('not fired, or said of someone else', async (t) => {
  t.same(values('Hugh Davis visited Harvard University in May .', 'Hugh Davis', 'Harvard University'), [], 'no employment phrase')
  t.same(values('Hugh Davis spoke about Harvard University in May .', 'Hugh Davis', 'Harvard University'), [], '"about" is no role')
  // Another person is the nearest before the phrase: the person is only elsewhere in the sentence (2).
  t.same(
    values('Mary Smith said that Tom Brown is a professor at Harvard University .', 'Mary Smith', 'Harvard University'),
    [2],
    'the professor is Tom Brown',
  )
})
