// Relation feature of two persons: one list of persons and the kin word before it, by the kin
// word's number (template 73, values 8 and up).
import t from 'tap'
import { createEngine, loadEngineModels } from '../../src/nlp/index.ts'
import { namedPairFeatures } from '../helpers/relation-features.ts'
import { feat } from '../../src/nlp/features/hashing.ts'

const engine = createEngine(loadEngineModels())
const pairFeatures = (text: string, src: string, tgt: string) => namedPairFeatures(engine, text, src, tgt)
const values = (fs: Set<number>, tp: number) => [...Array(32).keys()].filter((v) => fs.has(feat(73, v, tp)))
// Type pairs as relationFeatures hashes them (source * 8 + target): PER 1, ORG 2, LOC 3.
const PER_PER = 9
const PER_ORG = 10

t.test('two persons of one list, by the kin word before it', async (t) => {
  // 8 + one list (3) + the kin word: plural 1, singular 2.
  t.same(
    values(
      pairFeatures('His siblings Leila Piccard , Ian Piccard and Jeff Piccard competed as skiers .', 'Leila Piccard', 'Ian Piccard'),
      PER_PER,
    ),
    [12],
    'a plural kin word: every name of the list is kin',
  )
  t.same(
    values(
      pairFeatures(
        'He joined Frederick Nell and his brother Louis Nell , Charles Lorensz , John Prins and Peter Daniel in Colombo .',
        'Charles Lorensz',
        'John Prins',
      ),
      PER_PER,
    ),
    [13],
    'a singular kin word: it names one person, the list goes on with others',
  )
  t.same(
    values(pairFeatures('Her sister said that her children Louis Nell and Anna Nell live in Vienna .', 'Louis Nell', 'Anna Nell'), PER_PER),
    [12],
    'the nearest kin word before the list is the one read',
  )
  t.same(
    values(
      pairFeatures('The singers Anna Weber , Thomas Keller and Peter Daniel performed in Vienna .', 'Anna Weber', 'Thomas Keller'),
      PER_PER,
    ),
    [11],
    'a list and no kin word',
  )
  t.same(
    values(pairFeatures('His brother Louis Nell met Thomas Keller in Vienna on Monday .', 'Louis Nell', 'Thomas Keller'), PER_PER),
    [10],
    'a singular kin word and no list',
  )
  t.same(
    values(pairFeatures('The children of Louis Nell met Thomas Keller in Vienna on Monday .', 'Louis Nell', 'Thomas Keller'), PER_PER),
    [9],
    'a plural kin word and no list',
  )
})

t.test('not fired', async (t) => {
  t.same(
    values(pairFeatures('Anna Weber met the lawyers of Thomas Keller in Vienna on Monday .', 'Anna Weber', 'Thomas Keller'), PER_PER),
    [],
    'two persons, no list and no kin word',
  )
  t.same(
    values(pairFeatures('His brother John Smith worked for Boeing for ten years .', 'John Smith', 'Boeing'), PER_ORG),
    [],
    'a person and an organization',
  )
})
