// Far pairs of a paragraph: a place or an organization and the region (a state, a province) the
// paragraph names sentences away.
import t from 'tap'
import { candidatePairs, inRegion, placeKey, type Anchor } from '../../src/nlp/relations.ts'
import { GAZ_CLASSES } from '../../src/nlp/features/lexicon.ts'
import type { Entity, EntityType } from '../../src/nlp/entities.ts'

const bit = (c: (typeof GAZ_CLASSES)[number]) => 1 << GAZ_CLASSES.indexOf(c)
const ent = (name: string, type: EntityType, classes = 0): Entity => ({ type, name, mentions: [], salience: 1, classes })
// Country 7 (own name: odd), two of its places and a place of country 9.
const places = new Map<number, number>([
  [placeKey('United States'), 7 * 2 + 1],
  [placeKey('Tennessee'), 7 * 2],
  [placeKey('Jacksboro'), 7 * 2],
  [placeKey('Alberta'), 9 * 2],
])
const tennessee = ent('Tennessee', 'LOC', bit('region'))

t.test('a place or an organization and a region', async (t) => {
  t.ok(inRegion(places, ent('Jacksboro', 'LOC', bit('city')), tennessee), 'a town of the region’s country')
  t.ok(inRegion(places, ent('Spring Lake', 'LOC'), tennessee), 'a place the table does not know')
  t.ok(inRegion(places, ent('Campbell County High School', 'ORG'), tennessee), 'an organization')
})

t.test('no region pair', async (t) => {
  t.notOk(inRegion(places, ent('Jacksboro', 'LOC'), ent('Knoxville', 'LOC', bit('city'))), 'the target is no region')
  t.notOk(inRegion(places, ent('United States', 'LOC', bit('country')), tennessee), 'a country is in no region')
  t.notOk(inRegion(places, ent('Jacksboro', 'LOC'), ent('Alberta', 'LOC', bit('region'))), 'another country’s region')
  t.notOk(inRegion(places, ent('John Smith', 'PER'), tennessee), 'a person')
  t.notOk(
    inRegion(places, ent('Jacksboro', 'LOC'), ent('Georgia', 'LOC', bit('region') | bit('country'))),
    'a region that is a country too',
  )
})

t.test('the far pair among the candidates: within a paragraph only', async (t) => {
  const town = ent('Jacksboro', 'LOC', bit('city'))
  const at = (e: Entity, sent: number): Anchor => ({ entity: e, first: sent * 10, last: sent * 10 + 1, sent, pronoun: false })
  const anchors = [[at(town, 0)], [at(ent('John Smith', 'PER'), 1)], [at(tennessee, 2)]]
  const far = (paragraphs: number[]) =>
    candidatePairs(anchors, Int32Array.from(paragraphs), places).filter((c) => c.source.entity === town && c.target.entity === tennessee)
  t.same(
    far([0, 0, 0]).map((c) => [c.sent, c.sent2]),
    [[0, 2]],
    'two sentences apart, one paragraph',
  )
  t.equal(far([0, 0, 1]).length, 0, 'another paragraph')
})
