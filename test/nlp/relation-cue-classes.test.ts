// Cue classes of relation features: the agent after "by", words between two organizations,
// the words of other sentences that name the pair, a person's document profile.
import t from 'tap'
import { createEngine, loadEngineModels } from '../../src/nlp/index.ts'
import {
  anchorsBySentence,
  docContext,
  personProfile,
  pushBagCues,
  relationFeatures,
  wordHashes,
  type Anchor,
} from '../../src/nlp/relations.ts'
import { tokenize } from '../../src/nlp/tokens.ts'
import { firstSentencePairFeatures } from '../helpers/relation-features.ts'
import { feat, fnv } from '../../src/nlp/features/hashing.ts'
import type { Entity, EntityType } from '../../src/nlp/entities.ts'

const engine = createEngine(loadEngineModels())

/** Features of the pair (source named `src`, target of type `tgtType`) in the first sentence of `text`. */
function pairFeatures(text: string, src: string, tgtType: EntityType, tgt?: string): Set<number> {
  return firstSentencePairFeatures(engine, text, src, (a) => a.entity.type === tgtType && (!tgt || a.entity.name === tgt))
}

const any = (fs: Set<number>, template: number, tp: number, n = 1200) => [...Array(n).keys()].some((v) => fs.has(feat(template, v, tp)))
// Type pairs as relationFeatures hashes them: PER 1, ORG 2, LOC 3, OBJ 4 (source * 8 + target).
const PER_ORG = 10
const ORG_ORG = 18

t.test('the agent after "by": the founding verb before it, the organization earlier', async (t) => {
  const fs = pairFeatures('Sappy Records is an independent record label in Canada, started by Julie Doiron in 1990.', 'Julie Doiron', 'ORG')
  t.ok(fs.has(feat(85, 0, PER_ORG)), 'founding class')
  t.ok(fs.has(feat(85, 100 + 0 * 16 + 4, PER_ORG)), 'with a company')
  t.notOk(
    any(
      pairFeatures('Sappy Records is an independent record label in Canada, and Julie Doiron sang there in 1990.', 'Julie Doiron', 'ORG'),
      85,
      PER_ORG,
    ),
    'no "by"',
  )
  t.notOk(
    any(pairFeatures('Julie Doiron founded Sappy Records in Canada in 1990 with help from friends.', 'Julie Doiron', 'ORG'), 85, PER_ORG),
    'the person first: the words between say it',
  )
})

t.test('two organizations: cue classes between and around them, by direction', async (t) => {
  const text = 'Piedmont Airlines is a subsidiary of US Airways Group and flies from Charlotte.'
  const fw = pairFeatures(text, 'Piedmont Airlines', 'ORG', 'US Airways Group')
  const bw = pairFeatures(text, 'US Airways Group', 'ORG', 'Piedmont Airlines')
  // Class 1 (parts), between (near 0): bit 2; forward pair 2 * 2 + 1.
  t.ok(fw.has(feat(86, 2 * 2 + 1, ORG_ORG)), 'a part, forward')
  t.ok(bw.has(feat(86, 2 * 2 + 0, ORG_ORG)), 'a part, backward')
  t.notOk(bw.has(feat(86, 2 * 2 + 1, ORG_ORG)), 'not forward')
  t.notOk(
    any(pairFeatures('Piedmont Airlines and US Airways Group flew from Charlotte that year.', 'Piedmont Airlines', 'ORG'), 86, ORG_ORG),
    'no cue word',
  )
})

t.test('cue classes of the words between the pair in other sentences', async (t) => {
  const per: Entity = { type: 'PER', name: 'Maria Schmidt', mentions: [], salience: 1 }
  const uni: Entity = { type: 'ORG', name: 'University of Tokyo', mentions: [], salience: 1 }
  const a = (e: Entity): Anchor => ({ entity: e, first: 0, last: 1, sent: 0, pronoun: false })
  const c = { source: a(per), target: a(uni), sent: 0, sent2: 0 }
  const f: number[] = []
  pushBagCues(f, c, new Set(['taught', 'at'].map((w) => fnv(w))), PER_ORG)
  t.ok(f.includes(feat(87, 1, PER_ORG)), 'teaching')
  t.ok(f.includes(feat(87, 100 + 1 * 16 + 3, PER_ORG)), 'teaching at a university')
  const none: number[] = []
  pushBagCues(none, c, new Set(['visited', 'the'].map((w) => fnv(w))), PER_ORG)
  t.same(none, [], 'no cue word')
})

t.test("a person's document profile: cue classes of every sentence that names the person", async (t) => {
  const profile = (text: string) => {
    const doc = tokenize(text)
    const ents = engine.extractEntities(doc, { all: true })
    const anchors = anchorsBySentence(doc, ents)
    const p = ents.find((e) => e.name === 'Maria Schmidt')!
    return personProfile(wordHashes(doc), doc, anchors, p)
  }
  t.equal(
    profile('Maria Schmidt was born in Bonn. She taught history for many years. Rain fell in Paris.'),
    1 << 1,
    'teaching, through a pronoun',
  )
  t.equal(profile('Maria Schmidt was born in Bonn. Rain fell in Paris for years and years.'), 0, 'nothing said')
  const fs = pairFeatures('Maria Schmidt visited the University of Tokyo. She taught history for many years.', 'Maria Schmidt', 'ORG')
  t.ok(fs.has(feat(88, 1 * 16 + 3, PER_ORG)), 'teacher and university')
})

t.test('cue classes between a pronoun and an organization', async (t) => {
  const feats = (text: string) => {
    const doc = tokenize(text)
    const ents = engine.extractEntities(doc, { all: true })
    const anchors = anchorsBySentence(doc, ents)
    const s = anchors[1].find((a) => a.pronoun)!
    const o = anchors[1].find((a) => a.entity.type === 'ORG')!
    return new Set(
      relationFeatures(doc, wordHashes(doc), { source: s, target: o, sent: 1, sent2: 1 }, anchors, docContext(anchors, ents), []),
    )
  }
  const worked = feats('Osmund Ueland was born in Stavanger in 1947. He worked for Aker Solutions from 1975 to 1990.')
  // PAIR_CUE class 2 (work), between the pair: bit 2 * 2.
  t.ok(worked.has(feat(89, 4, PER_ORG)), 'work, between')
  t.notOk(
    any(feats('Osmund Ueland was born in Stavanger in 1947. He visited Aker Solutions from 1975 to 1990.'), 89, PER_ORG, 400),
    'no cue word',
  )
  t.notOk(
    any(pairFeatures('Osmund Ueland worked for Aker Solutions from 1975 to 1990.', 'Osmund Ueland', 'ORG'), 89, PER_ORG, 400),
    'a name, not a pronoun',
  )
})
