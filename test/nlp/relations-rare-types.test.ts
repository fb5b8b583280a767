// Relation features for the rarer person–organization and organization–organization facts:
// the agent after "by" past role words or a farther verb (template 95), organizations whose
// names open alike (96).
import t from 'tap'
import { createEngine, loadEngineModels } from '../../src/nlp/index.ts'
import { orgNameShare } from '../../src/nlp/relations.ts'
import { namedPairFeatures } from '../helpers/relation-features.ts'
import { feat } from '../../src/nlp/features/hashing.ts'
import type { Entity } from '../../src/nlp/entities.ts'

const engine = createEngine(loadEngineModels())

/** Features of the pair named `src` → `tgt` in the first sentence of `text`. */
const pairFeatures = (text: string, src: string, tgt: string) => namedPairFeatures(engine, text, src, tgt)

const any = (fs: Set<number>, template: number, tp: number, n = 400) => [...Array(n).keys()].some((v) => fs.has(feat(template, v, tp)))
// Type pairs as relationFeatures hashes them: PER 1, ORG 2 (source * 8 + target).
const PER_ORG = 10
const ORG_ORG = 18

t.test('the agent after "by" past role words, or with the verb farther before it', async (t) => {
  // Founding class 0; role words between "by" and the name: 0 * 2 + 1.
  const sumner = pairFeatures('Joy Division was formed in 1976 by guitarist Bernard Sumner in Salford.', 'Bernard Sumner', 'Joy Division')
  t.ok(sumner.has(feat(95, 1, PER_ORG)), 'founding, past a role word')
  t.notOk(any(sumner, 85, PER_ORG), 'template 85 does not reach it')
  // The verb five or more words before a "by" right before the name: 0 * 2 + 0.
  const far = pairFeatures(
    'The Association of Australian Artistes was established in London in the year 1975 by James Hunt.',
    'James Hunt',
    'Association of Australian Artistes',
  )
  t.ok(far.has(feat(95, 0, PER_ORG)), 'founding, verb farther back')
  const doiron = pairFeatures(
    'Sappy Records is a record label in Canada, started by Julie Doiron in 1990.',
    'Julie Doiron',
    'Sappy Records',
  )
  t.ok(doiron.has(feat(85, 0, PER_ORG)), 'template 85 reads the near case')
  t.notOk(any(doiron, 95, PER_ORG), 'not read twice')
  t.notOk(
    any(
      pairFeatures('Joy Division played in Salford in 1976 with guitarist Bernard Sumner on stage.', 'Bernard Sumner', 'Joy Division'),
      95,
      PER_ORG,
    ),
    'no "by"',
  )
  t.notOk(
    any(
      pairFeatures('Joy Division was praised in 1976 by guitarist Bernard Sumner in Salford.', 'Bernard Sumner', 'Joy Division'),
      95,
      PER_ORG,
    ),
    'no verb of a class',
  )
})

t.test('organizations whose names open alike', async (t) => {
  const org = (name: string): Entity => ({ type: 'ORG', name, mentions: [], salience: 1 })
  t.equal(orgNameShare(org('BBC Alba'), org('BBC')), 1, 'the source is named after the target')
  t.equal(orgNameShare(org('Sony'), org('Sony Pictures')), 2, 'the other way round')
  t.equal(orgNameShare(org('Johns Hopkins Carey Business School'), org('Johns Hopkins University')), 5, 'two opening words')
  t.equal(orgNameShare(org('Philippine Senate'), org('Philippine Legislature')), 4, 'one opening word')
  t.equal(orgNameShare(org('Microsoft'), org('Nokia')), 0, 'nothing shared')
  t.equal(orgNameShare(org('Acme Corp.'), org('Acme Corp')), 0, 'one name')
  t.equal(orgNameShare({ ...org('Sony'), type: 'PER' }, org('Sony Pictures')), 0, 'organizations only')
  const fs = pairFeatures(
    'America West Airlines was sold to America West Holdings Corporation in 1996.',
    'America West Airlines',
    'America West Holdings Corporation',
  )
  t.ok(fs.has(feat(96, 5, ORG_ORG)), 'a feature of the pair')
  t.notOk(
    any(pairFeatures('Piedmont Airlines was sold to US Airways Group in 1996.', 'Piedmont Airlines', 'US Airways Group'), 96, ORG_ORG),
    'not fired',
  )
})
