// Relation feature of a person and a place: the place's run of places, read from its side
// (template 101, values 32 and up).
import t from 'tap'
import { createEngine, loadEngineModels } from '../../src/nlp/index.ts'
import { namedPairFeatures } from '../helpers/relation-features.ts'
import { feat } from '../../src/nlp/features/hashing.ts'

const engine = createEngine(loadEngineModels())
const pairFeatures = (text: string, src: string, tgt: string) => namedPairFeatures(engine, text, src, tgt)
const values = (fs: Set<number>, tp: number, from: number, to: number) =>
  [...Array(to - from).keys()].map((v) => v + from).filter((v) => fs.has(feat(101, v, tp)))
// Type pairs as relationFeatures hashes them (source * 8 + target): LOC 3, PER 1, ORG 2.
const PER_LOC = 11
const PER_ORG = 10
const ORG_LOC = 19

t.test("a place's run of places", async (t) => {
  const town = 'John Warner , who now lives in Ocala , Fla. , filed the petition on Monday .'
  // A run of two (32 + 0 * 3), the place first (+ 0) or last (+ 1).
  t.same(values(pairFeatures(town, 'John Warner', 'Ocala'), PER_LOC, 32, 48), [32], 'the first of a run of two')
  t.same(values(pairFeatures(town, 'John Warner', 'Fla.'), PER_LOC, 32, 48), [33], 'the last of a run of two')
  const list = 'Senator John Glenn toured Oklahoma , Arizona and Texas on Monday .'
  // A run of three (32 + 1 * 3): first, last, inside.
  t.same(values(pairFeatures(list, 'John Glenn', 'Oklahoma'), PER_LOC, 32, 48), [35], 'the first of three')
  t.same(values(pairFeatures(list, 'John Glenn', 'Texas'), PER_LOC, 32, 48), [36], 'the last of three')
  t.same(values(pairFeatures(list, 'John Glenn', 'Arizona'), PER_LOC, 32, 48), [37], 'inside a run of three')
})

t.test('not fired', async (t) => {
  t.same(
    values(pairFeatures('John Warner moved from Ocala to Texas last year .', 'John Warner', 'Ocala'), PER_LOC, 32, 64),
    [],
    'a place alone: words between the places that are no glue',
  )
  t.same(
    values(pairFeatures('Engineer John Smith worked for Boeing for ten years .', 'John Smith', 'Boeing'), PER_ORG, 32, 64),
    [],
    'a person and an organization',
  )
  t.same(
    values(
      pairFeatures('Rob Baker , Gord Downie and Johnny Fay of The Tragically Hip played there .', 'Rob Baker', 'Tragically Hip'),
      PER_ORG,
      32,
      64,
    ),
    [],
    'a person and an organization, the person in a run of persons',
  )
  t.same(
    values(pairFeatures('Citibank opened offices in Ocala , Fla. last year .', 'Citibank', 'Ocala'), ORG_LOC, 32, 64),
    [],
    'an organization and a place of a run',
  )
})
