// Relation feature of a name after a preposition or an apposition ending in one (template 111).
import t from 'tap'
import { createEngine, loadEngineModels } from '../../src/nlp/index.ts'
import { namedPairFeatures } from '../helpers/relation-features.ts'
import { feat } from '../../src/nlp/features/hashing.ts'

const engine = createEngine(loadEngineModels())

/** Features of the pair named `src` → `tgt` in the first sentence of `text`. */
const pairFeatures = (text: string, src: string, tgt: string) => namedPairFeatures(engine, text, src, tgt)

const values = (fs: Set<number>, tp: number) => [...Array(24).keys()].filter((v) => fs.has(feat(111, v, tp)))
// Type pairs as relationFeatures hashes them (source * 8 + target): PER 1, LOC 3.
const PER_LOC = 11

t.test('one preposition between the names', async (t) => {
  // "of" (0), one word (shape 0), forward (+1).
  t.same(values(pairFeatures('The prize went to Mary Campbell of Cleveland , Ohio .', 'Mary Campbell', 'Cleveland'), PER_LOC), [1], 'of')
})

t.test('an apposition that ends in a preposition', async (t) => {
  // "from" (1), an apposition (shape 1: 5 + 1), forward (+1).
  t.same(
    values(
      pairFeatures('The session was opened by Aleksandr Kruhlow , a deputy from Sevastopol .', 'Aleksandr Kruhlow', 'Sevastopol'),
      PER_LOC,
    ),
    [13],
    'from',
  )
})

t.test('not fired', async (t) => {
  t.same(
    values(pairFeatures('Mary Campbell said she had never seen Denver so full .', 'Mary Campbell', 'Denver'), PER_LOC),
    [],
    'no comma after the first name',
  )
  t.same(
    values(pairFeatures('Mary Campbell , who met John Smith , moved to Denver .', 'Mary Campbell', 'Denver'), PER_LOC),
    [],
    'another name and a comma inside',
  )
})
