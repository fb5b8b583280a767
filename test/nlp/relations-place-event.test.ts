// Relation feature of an event word between a person and a place (template 110).
import t from 'tap'
import { createEngine, loadEngineModels } from '../../src/nlp/index.ts'
import { namedPairFeatures } from '../helpers/relation-features.ts'
import { feat } from '../../src/nlp/features/hashing.ts'

const engine = createEngine(loadEngineModels())

/** Features of the pair named `src` → `tgt` in the first sentence of `text`. */
const pairFeatures = (text: string, src: string, tgt: string) => namedPairFeatures(engine, text, src, tgt)

const values = (fs: Set<number>, tp: number) => [...Array(16).keys()].filter((v) => fs.has(feat(110, v, tp)))
// Type pairs as relationFeatures hashes them (source * 8 + target): PER 1, LOC 3.
const PER_LOC = 11

t.test('a kill word or an event word between the person and the place', async (t) => {
  // A kill word between (1 * 2), the person first (+1).
  t.same(
    values(pairFeatures('Sirhan Sirhan shot Robert Kennedy in Los Angeles .', 'Sirhan Sirhan', 'Los Angeles'), PER_LOC),
    [3],
    'a kill word',
  )
  // An event word between (2 * 2), the person first (+1).
  t.same(
    values(pairFeatures('Wolfgang Amadeus Mozart died in Vienna at the age of 35 .', 'Wolfgang Amadeus Mozart', 'Vienna'), PER_LOC),
    [5],
    'died in',
  )
})

t.test('a kill word just before the pair', async (t) => {
  // Before the first of the pair (8 + 1 * 2), the person first (+1).
  t.same(
    values(pairFeatures('Mark Chapman shot John Lennon in New York .', 'John Lennon', 'New York'), PER_LOC),
    [11],
    'the victim and the place',
  )
})

t.test('not fired', async (t) => {
  t.same(
    values(pairFeatures('Mary Campbell lives in Rock Hill with her sister .', 'Mary Campbell', 'Rock Hill'), PER_LOC),
    [],
    'a residence word',
  )
  t.same(values(pairFeatures('Mary Campbell of Rock Hill won the race .', 'Mary Campbell', 'Rock Hill'), PER_LOC), [], 'no word between')
})
