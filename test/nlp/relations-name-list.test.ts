// Relation feature of two places or two organizations in one run of names (template 101).
import t from 'tap'
import { createEngine, loadEngineModels } from '../../src/nlp/index.ts'
import { namedPairFeatures } from '../helpers/relation-features.ts'
import { feat } from '../../src/nlp/features/hashing.ts'

const engine = createEngine(loadEngineModels())

/** Features of the pair named `src` → `tgt` in the first sentence of `text`. */
const pairFeatures = (text: string, src: string, tgt: string) => namedPairFeatures(engine, text, src, tgt)

const any = (fs: Set<number>, tp: number) => [...Array(16).keys()].some((v) => fs.has(feat(101, v, tp)))
// Type pairs as relationFeatures hashes them (source * 8 + target): LOC 3, PER 1, ORG 2.
const LOC_LOC = 27
const PER_LOC = 11

t.test('two places in one run of names', async (t) => {
  const text = 'Heavy rain fell over Oklahoma , Arizona and eastern Texas on Monday , forecasters said .'
  // A run of three names (3 * 2), the pair next to each other (+ 1) or not.
  t.ok(pairFeatures(text, 'Oklahoma', 'Arizona').has(feat(101, 7, LOC_LOC)), 'next to each other in a list of three')
  t.ok(pairFeatures(text, 'Texas', 'Oklahoma').has(feat(101, 6, LOC_LOC)), "the list's ends, either direction")
  // A town and its state alone: a run of two.
  t.ok(
    pairFeatures('Warner , who now lives in Ocala , Fla. , filed the petition on Monday .', 'Ocala', 'Fla.').has(feat(101, 5, LOC_LOC)),
    'a run of two',
  )
})

t.test('not fired', async (t) => {
  t.notOk(
    any(pairFeatures('The plant in Ocala was moved to Texas last year .', 'Ocala', 'Texas'), LOC_LOC),
    'words between that are no glue',
  )
  t.notOk(
    any(pairFeatures('John Smith , who lives in Ocala , Fla. , filed the petition .', 'John Smith', 'Ocala'), PER_LOC),
    'a pair of two types',
  )
})
