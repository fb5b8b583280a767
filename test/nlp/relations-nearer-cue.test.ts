// Relation feature of the name nearer to the pair's cue word than the pair's own (template 104).
import t from 'tap'
import { createEngine, loadEngineModels } from '../../src/nlp/index.ts'
import { namedPairFeatures } from '../helpers/relation-features.ts'
import { feat } from '../../src/nlp/features/hashing.ts'

const engine = createEngine(loadEngineModels())

/** Features of the pair named `src` → `tgt` in the first sentence of `text`. */
const pairFeatures = (text: string, src: string, tgt: string) => namedPairFeatures(engine, text, src, tgt)

const values = (fs: Set<number>, tp: number) => [...Array(16).keys()].filter((v) => fs.has(feat(104, v, tp)))
// Type pairs as relationFeatures hashes them (source * 8 + target): PER 1, LOC 3.
const PER_PER = 9
const PER_LOC = 11

t.test('another person stands nearer to the kill word', async (t) => {
  const text = 'Boris Yeltsin gave Bill Clinton the papers on Lee Harvey Oswald , who killed John Kennedy in Dallas .'
  // Another person between the source and "killed" (2), none on the victim's side, forward (4).
  t.same(values(pairFeatures(text, 'Boris Yeltsin', 'John Kennedy'), PER_PER), [6], 'Yeltsin is not the one next to the kill word')
  t.same(values(pairFeatures(text, 'Lee Harvey Oswald', 'John Kennedy'), PER_PER), [4], 'the killer next to the kill word')
})

t.test('another person stands nearer to the residence word', async (t) => {
  const text = 'Tom Campbell said his sister Mary Campbell lives in Rock Hill and works at a bank .'
  t.same(values(pairFeatures(text, 'Tom Campbell', 'Rock Hill'), PER_LOC), [6], 'the sister lives there')
  t.same(values(pairFeatures(text, 'Mary Campbell', 'Rock Hill'), PER_LOC), [4], 'the person next to "lives"')
})

t.test('the passive: "by" after the kill word', async (t) => {
  const text = 'John Kennedy was shot by Lee Harvey Oswald in Dallas .'
  t.same(values(pairFeatures(text, 'Lee Harvey Oswald', 'John Kennedy'), PER_PER), [8], 'backward, "by" after the word')
})

t.test('not fired', async (t) => {
  t.same(
    values(pairFeatures('Lee Harvey Oswald met John Kennedy in Dallas .', 'Lee Harvey Oswald', 'John Kennedy'), PER_PER),
    [],
    'no kill word between',
  )
  t.same(
    values(pairFeatures('Mary Campbell works for a bank in Rock Hill .', 'Mary Campbell', 'Rock Hill'), PER_LOC),
    [],
    'no residence word between',
  )
})
