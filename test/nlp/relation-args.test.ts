// Argument checks, relations across two sentences, and where the pattern-only confidences come from.
import t from 'tap'
import { readFileSync } from 'node:fs'
import { createEngine, loadEngineModels } from '../../src/nlp/index.ts'
import {
  anchorsBySentence,
  argumentFits,
  calibrateType,
  candidatePairs,
  closePlaces,
  docContext,
  orgKind,
  paragraphsOf,
  personRoles,
  priorFeatures,
  relationFeatures,
  sharedSurname,
  wordHashes,
  matchingPatterns,
  patternOnlyMatch,
  PATTERNS,
  RELATION_ENTITY_CUT,
  tripleKey,
  type Anchor,
  type Scored,
} from '../../src/nlp/relations.ts'
import { GAZ_CLASSES } from '../../src/nlp/features/lexicon.ts'
import type { RelationType } from '../../src/nlp/types.ts'
import { tokenize } from '../../src/nlp/tokens.ts'
import { feat } from '../../src/nlp/features/hashing.ts'
import { mentionFromTokens, type Entity, type EntityType } from '../../src/nlp/entities.ts'
import { LABELS_FILE, patternConfidence } from '../../scripts/nlp/train-relations.ts'
import { buildPlaces } from '../../scripts/nlp/places.ts'
import { matchClusters, type RelDoc } from '../../scripts/nlp/relation-data.ts'

const engine = createEngine(loadEngineModels())
const { analyze } = engine

const FILLER = ' The rest of this paragraph is ordinary filler prose without any names in it, written so that the text is long enough.'
const entity = (type: EntityType, name: string): Entity => ({ type, name, mentions: [], salience: 1 })
const anchor = (e: Entity, first: number): Anchor => ({ entity: e, first, last: first + 1, sent: 0, pronoun: false })

t.test('an argument whose name contradicts its type fills no relation', async (t) => {
  const table: [EntityType, string, boolean][] = [
    ['PER', 'CEO', false], // "<company> works_for CEO"
    ['PER', 'Chief Executive', false],
    ['PER', 'Acme Robotics', false], // a company read as a person
    ['LOC', 'Black Sea Fleet', false], // "Nikolai Yudenich lives_in Black Sea Fleet"
    ['LOC', 'St Petersburg University', false],
    ['ORG', 'CEO Jane', false],
    ['PER', 'Nikolai Yudenich', true],
    ['PER', 'Tim Cook', true],
    ['LOC', 'Black Sea', true],
    ['ORG', 'Head & Shoulders', true],
    ['ORG', 'Black Sea Fleet', true],
  ]
  for (const [type, name, fits] of table) t.equal(argumentFits(entity(type, name)), fits, `${type} ${name}`)
})

t.test('partner_of and competitor_of join two of a kind, never a place', async (t) => {
  const partner = PATTERNS.findIndex((p) => p.type === 'partner_of')
  const rival = PATTERNS.findIndex((p) => p.type === 'competitor_of')
  const pair = (a: EntityType, b: EntityType) => ({
    source: anchor(entity(a, 'A'), 0),
    target: anchor(entity(b, 'B'), 3),
    sent: 0,
    sent2: 0,
  })
  t.notOk(patternOnlyMatch(pair('LOC', 'ORG'), [partner]), '<city> partner_of <organisation>')
  t.notOk(patternOnlyMatch(pair('ORG', 'LOC'), [partner]))
  t.notOk(patternOnlyMatch(pair('PER', 'ORG'), [rival]))
  t.same(patternOnlyMatch(pair('ORG', 'ORG'), [partner]), { type: 'partner_of', pattern: partner })
  t.same(patternOnlyMatch(pair('PER', 'PER'), [rival]), { type: 'competitor_of', pattern: rival })
})

t.test('a press release: no company works for its CEO', async (t) => {
  const a = analyze(
    'Acme Robotics today announced a new warehouse robot. The company said CEO Jane Smith will present it in Boston.' + FILLER,
    { language: 'en' },
  )
  t.notOk(
    a.relations.some(
      (r) => r.type === 'works_for' && (a.entities.organizations.includes(r.source) || /^CEO\b/.test(r.source) || /^CEO\b/.test(r.target)),
    ),
    JSON.stringify(a.relations),
  )
  t.notOk(a.relations.some((r) => r.type === 'partner_of' && a.entities.locations.includes(r.source)))
})

t.test('studying at a university is not working for it with high confidence', async (t) => {
  const a = analyze('Alexander Kolchak, a Russian admiral, graduated from St Petersburg University in 1894.' + FILLER, { language: 'en' })
  for (const r of a.relations) if (r.type === 'works_for') t.ok(r.confidence < 0.5, `${r.source} works_for ${r.target} at ${r.confidence}`)
})

t.test('a relation across two sentences has both as evidence', async (t) => {
  const text = 'Lampedusa is the largest island of the Pelagie Islands. It is the southernmost part of Italy.'
  const a = analyze(text + FILLER, { language: 'en' })
  const r = a.relations.find((r) => r.source === 'Lampedusa' && r.type === 'located_in' && r.target === 'Italy')
  t.ok(r, JSON.stringify(a.relations))
  t.equal(r?.evidence, text, 'the two sentences, verbatim')
})

t.test('pattern-only confidences come from the committed labelled sample', async (t) => {
  const rows = readFileSync(LABELS_FILE, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; correct: boolean; evidence: string })
  t.ok(rows.length >= 100, `${rows.length} labelled predictions`)
  for (const type of ['acquired', 'partner_of', 'competitor_of'])
    t.ok(
      rows.some((r) => r.type === type),
      type,
    )
  const model = JSON.parse(readFileSync(new URL('../../models/relations.json', import.meta.url), 'utf8')) as {
    patternConfidence: Record<string, number>
  }
  t.same(model.patternConfidence, patternConfidence(), 'the committed model holds what the labels give')
  const acquired = rows.filter((r) => r.type === 'acquired')
  const rate = acquired.filter((r) => r.correct).length / acquired.length
  const k = String(PATTERNS.findIndex((p) => p.type === 'acquired'))
  t.ok(
    Math.abs(model.patternConfidence[k] - rate) < 0.05,
    `acquired ${model.patternConfidence[k]} near its labelled precision ${rate.toFixed(3)}`,
  )
})

t.test('an engine entity matches the gold cluster of its canonical name', async (t) => {
  const text = 'Marco Cimatti founded Cimatti in Bologna. Cimatti built mopeds.'
  const rel: RelDoc = {
    id: 'x',
    domain: 'redocred',
    text,
    triples: new Set(),
    annotated: new Set(),
    trained: new Set(),
    clusters: [
      { type: 'PER', mentions: [{ start: 0, end: 13, text: 'Marco Cimatti' }] },
      {
        type: 'ORG',
        mentions: [
          { start: 22, end: 29, text: 'Cimatti' },
          { start: 42, end: 49, text: 'Cimatti' },
        ],
      },
    ],
  }
  // The engine merged the company's mentions into the person (surname join).
  const m = (start: number, end: number) => ({ type: 'PER' as const, first: 0, last: 1, start, end, text: text.slice(start, end), sent: 0 })
  const person: Entity = { type: 'PER', name: 'Marco Cimatti', mentions: [m(0, 13), m(22, 29), m(42, 49)], salience: 3 }
  t.equal(matchClusters(rel, [person]).get(person), 0)
})

t.test('pairs across sentences only within a paragraph: a line break ends one', async (t) => {
  const cross = (text: string) => {
    const doc = tokenize(text)
    const entities = engine.extractEntities(doc, { cut: RELATION_ENTITY_CUT })
    const anchors = anchorsBySentence(doc, entities)
    return candidatePairs(anchors, paragraphsOf(doc), engine.models.relations.places).filter((c) => c.sent !== c.sent2)
  }
  const one = 'Maria Schmidt joined the board last spring. Siemens announced the appointment in Munich.'
  t.ok(cross(one).length > 0, 'two sentences of one paragraph: pairs across them')
  t.same(cross(one.replace('. Siemens', '.\nSiemens')), [], 'the same two sentences on two lines: none')
  t.same([...paragraphsOf(tokenize('One line here.\nAnother line. And more.'))], [0, 1, 1])
})

t.test("a relation's entities are reported, also under the entity report cut", async (t) => {
  const a = analyze('Tim Cook, the chief executive of Apple, lives in Palo Alto. Apple is based in Cupertino, California.', {
    language: 'en',
  })
  const names = new Set(Object.values(a.entities).flat())
  for (const r of a.relations) t.ok(names.has(r.source) && names.has(r.target), `${r.source} ${r.type} ${r.target}`)
})

t.test('a place in a place in a place: A in B and B in C give A in C, scored by the product', async (t) => {
  const [town, county, state, country] = [
    entity('LOC', 'Springfield'),
    entity('LOC', 'Sangamon County'),
    entity('LOC', 'Illinois'),
    entity('LOC', 'United States'),
  ]
  const scored = (s: Entity, o: Entity, score: number, type: RelationType = 'located_in'): Scored => ({
    type,
    score,
    candidate: { source: anchor(s, 0), target: anchor(o, 1), sent: 0, sent2: 0 },
  })
  const mapOf = (...xs: Scored[]) => new Map(xs.map((x) => [tripleKey(x.candidate.source.entity, x.type, x.candidate.target.entity), x]))
  const key = (s: Entity, o: Entity) => tripleKey(s, 'located_in', o)

  const best = mapOf(scored(town, county, 0.8), scored(county, state, 0.5), scored(state, country, 0.9))
  closePlaces(best)
  t.equal(best.get(key(town, state))?.score, 0.8 * 0.5, 'one step: the product of the two scores')
  t.equal(best.get(key(town, state))?.via, true, 'marked as read through another place')
  t.ok(Math.abs((best.get(key(town, country))?.score ?? 0) - 0.36) < 1e-9, 'two steps: the town in its country')

  const own = mapOf(scored(town, county, 0.8), scored(county, state, 0.5), scored(town, state, 0.6))
  closePlaces(own)
  t.equal(own.get(key(town, state))?.score, 0.6, "a pair's own higher score stands")
  t.notOk(own.get(key(town, state))?.via)

  const weak = mapOf(scored(town, county, 0.04), scored(county, state, 0.9))
  closePlaces(weak)
  t.notOk(weak.has(key(town, state)), 'a step scored under 0.05 is no step')

  const people = mapOf(scored(town, county, 0.9, 'works_for'), scored(county, state, 0.9, 'works_for'))
  closePlaces(people)
  t.equal(people.size, 2, 'only located_in chains')

  const loop = mapOf(scored(town, county, 0.9), scored(county, town, 0.9))
  closePlaces(loop)
  t.notOk(loop.has(key(town, town)), 'no place in itself')
})

t.test("a family through other members, two rounds: a sibling's sibling, either direction", async (t) => {
  const [ann, bob, cal, dan] = ['Ann Lee', 'Bob Lee', 'Cal Lee', 'Dan Lee'].map((n) => entity('PER', n))
  const kin = (s: Entity, o: Entity, score: number): Scored => ({
    type: 'family_of',
    score,
    candidate: { source: anchor(s, 0), target: anchor(o, 1), sent: 0, sent2: 0 },
  })
  const mapOf = (...xs: Scored[]) => new Map(xs.map((x) => [tripleKey(x.candidate.source.entity, x.type, x.candidate.target.entity), x]))
  const key = (s: Entity, o: Entity) => tripleKey(s, 'family_of', o)

  const best = mapOf(kin(ann, bob, 0.8), kin(cal, bob, 0.5))
  closePlaces(best)
  t.equal(best.get(key(ann, cal))?.score, 0.8 * 0.5, 'Ann ~ Bob and Cal ~ Bob: Ann ~ Cal, by the product')
  t.equal(best.get(key(ann, cal))?.via, true)
  t.equal(best.get(key(cal, ann))?.score, 0.8 * 0.5, 'and Cal ~ Ann')

  const [eve, fay] = [entity('PER', 'Eve Lee'), entity('PER', 'Fay Lee')]
  const chain = mapOf(kin(ann, bob, 0.9), kin(bob, cal, 0.9), kin(cal, dan, 0.9), kin(dan, eve, 0.9), kin(eve, fay, 0.9))
  closePlaces(chain)
  t.ok(Math.abs((chain.get(key(ann, cal))?.score ?? 0) - 0.9 ** 2) < 1e-9, 'first round: two ties')
  t.ok(Math.abs((chain.get(key(ann, eve))?.score ?? 0) - 0.9 ** 4) < 1e-9, 'second round: up to four')
  t.notOk(chain.has(key(ann, fay)), 'not five')

  const own = mapOf(kin(ann, bob, 0.8), kin(bob, cal, 0.5), kin(cal, ann, 0.6))
  closePlaces(own)
  t.notOk(own.has(key(ann, cal)), 'the reverse pair scored higher stands for the tie')

  const weak = mapOf(kin(ann, bob, 0.04), kin(bob, cal, 0.9))
  closePlaces(weak)
  t.notOk(weak.has(key(ann, cal)), 'a tie scored under 0.05 is no step')
})

t.test('what an organization is, from the words of its name', async (t) => {
  const table: [EntityType, string, number][] = [
    ['ORG', 'Democratic Party of Japan', 1],
    ['ORG', 'Chicago White Sox', 2],
    ['ORG', 'University of Tokyo', 3],
    ['ORG', 'American Airlines Group', 4],
    ['ORG', 'Ministry of Defence', 5],
    ['ORG', 'The New York Times', 6],
    ['ORG', 'Boston Symphony Orchestra', 7],
    ['ORG', 'Radiohead', 0],
    ['ORG', 'Microsoft', 0],
    ['PER', 'Party Animal', 0],
  ]
  for (const [type, name, kind] of table) t.equal(orgKind(entity(type, name)), kind, name)
})

t.test("a person's role words near the name: 4 words before, 10 after, in its sentence", async (t) => {
  const roles = (text: string, name: string, type: EntityType = 'PER') => {
    const doc = tokenize(text)
    const first = doc.tokens.findIndex((x) => x.text === name.split(' ')[0])
    const m = mentionFromTokens(doc.text, doc.tokens, first, first + name.split(' ').length, type)
    const e: Entity = { type, name, mentions: [m], salience: 1 }
    return personRoles(doc, wordHashes(doc), e, docContext([], [e]))
  }
  t.equal(roles('The singer Maria Schmidt joined Radiohead in 1990.', 'Maria Schmidt'), 1 << 0, 'a singer')
  t.equal(roles('Maria Schmidt is a German footballer who plays for Bayern.', 'Maria Schmidt'), 1 << 1, 'a footballer')
  t.equal(roles('Maria Schmidt , professor and former CEO of Acme , spoke.', 'Maria Schmidt'), (1 << 3) | (1 << 4), 'two roles')
  t.equal(roles('Maria Schmidt joined Radiohead in 1990.', 'Maria Schmidt'), 0, 'no role word')
  t.equal(roles('Maria Schmidt went home . The singer was tired .', 'Maria Schmidt'), 0, 'not in another sentence')
  t.equal(
    roles('Maria Schmidt went to many towns and cities and villages for years , the singer said.', 'Maria Schmidt'),
    0,
    'not more than 10 words after',
  )
  t.equal(roles('The singer Acme Records signed.', 'Acme Records', 'ORG'), 0, 'persons only')
})

t.test('two persons of one family name', async (t) => {
  t.equal(sharedSurname(entity('PER', 'John Smith'), entity('PER', 'Mary Smith')), 1)
  t.equal(sharedSurname(entity('PER', 'John Smith'), entity('PER', 'Mary Jones')), 0)
  t.equal(sharedSurname(entity('PER', 'Smith'), entity('PER', 'Mary Smith')), 0, 'a bare surname is the same person more often')
  t.equal(sharedSurname(entity('PER', 'John Smith'), entity('ORG', 'Smith & Smith')), 0, 'persons only')
})

t.test("a pair's features: the text's length, the organization's kind and the person's role", async (t) => {
  const feats = (text: string, roles?: number) => {
    const doc = tokenize(text)
    const ents = engine.extract(doc).entities
    const anchors = anchorsBySentence(doc, ents)
    const s = anchors[0].find((a) => a.entity.name === 'Maria Schmidt')!
    const o = anchors[0].find((a) => a.entity.type === 'ORG')!
    const ctx = docContext(anchors, ents)
    if (roles !== undefined) ctx.roles.set(s.entity, roles)
    return new Set(relationFeatures(doc, wordHashes(doc), { source: s, target: o, sent: 0, sent2: 0 }, anchors, ctx, []))
  }
  const diff = (a: Set<number>, b: Set<number>) => [...a].filter((x) => !b.has(x)).length
  const one = 'Maria Schmidt works at the University of Tokyo.'
  const rain = (n: number) => ' It rained on Monday.'.repeat(n)
  const base = feats(one + rain(2))
  t.equal(diff(feats(one + rain(3)), base), 0, 'three sentences and four: one bucket')
  t.ok(diff(feats(one + rain(8)), base) > 0, 'nine sentences: another')
  t.ok(diff(feats(one + rain(2), 1 << 3), base) > 0, 'a role read')
  t.equal(diff(feats(one + rain(2), 0), base), 0, 'none')
  // Template 53 (the organization's kind) of a PER>ORG pair (type pair 1 * 8 + 2).
  t.ok(base.has(feat(53, 3, 10)), 'a university')
  t.ok(feats('Maria Schmidt works at the Democratic Party of Japan.' + rain(2)).has(feat(53, 1, 10)), 'a party')
})

t.test('a person and an organization: classes of cue words between and around the pair', async (t) => {
  const feats = (text: string) => {
    const doc = tokenize(text)
    const ents = engine.extractEntities(doc, { all: true })
    const anchors = anchorsBySentence(doc, ents)
    const s = anchors[0].find((a) => a.entity.name === 'Maria Schmidt')!
    const o = anchors[0].find((a) => a.entity.type === 'ORG')!
    return new Set(
      relationFeatures(doc, wordHashes(doc), { source: s, target: o, sent: 0, sent2: 0 }, anchors, docContext(anchors, ents), []),
    )
  }
  const anyCue = (fs: Set<number>) =>
    [...Array(14).keys()].some(
      (k) => fs.has(feat(57, k, 10)) || [...Array(8).keys()].some((kind) => fs.has(feat(57, 100 + k * 16 + kind, 10))),
    )
  // Template 57 (cue classes) of a PER>ORG pair (type pair 1 * 8 + 2): class 1 (teaching) between the pair.
  const taught = feats('Maria Schmidt taught history at the University of Tokyo for years.')
  t.ok(taught.has(feat(57, 1 * 2, 10)), 'teaching, between')
  t.ok(taught.has(feat(57, 100 + 2 * 16 + 3, 10)), 'teaching, with a university')
  const studied = feats('Maria Schmidt studied history at the University of Tokyo.')
  t.ok(studied.has(feat(57, 0, 10)), 'study, between')
  t.notOk(studied.has(feat(57, 2, 10)), 'not teaching')
  t.notOk(anyCue(feats('Maria Schmidt visited the University of Tokyo on a rainy Monday.')), 'no cue word in plain prose')
  // Template 60: the same classes between a pair farther apart than 12 words (an encyclopaedia's first sentence).
  const far = feats(
    'Maria Schmidt ( born 3 May 1950 in a small town near the sea ) was for many years a professor of history at the University of Tokyo.',
  )
  t.ok(far.has(feat(60, 1 * 2, 10)), 'teaching, far between')
  t.ok(far.has(feat(60, 100 + 2 * 16 + 3, 10)), 'teaching, far, with a university')
  t.notOk(anyCue(far), 'not read as a near pair')
  t.notOk(taught.has(feat(60, 1 * 2, 10)), 'a near pair has no far cue')
})

t.test('calibration maps: a place read through another, a cue phrase, a pair across sentences, else the type', async (t) => {
  const step = (y: number) => ({ x: [1], y: [y] })
  const model = {
    calibration: {
      located_in: step(0.1),
      'located_in+': step(0.2),
      'located_in*': step(0.3),
      'located_in~': step(0.4),
      works_for: step(0.5),
    },
  }
  t.equal(calibrateType(model, 'located_in', 0.7), 0.1)
  t.equal(calibrateType(model, 'located_in', 0.7, false, true), 0.2, 'through another place')
  t.equal(calibrateType(model, 'located_in', 0.7, true), 0.3, 'a cue phrase matched')
  t.equal(calibrateType(model, 'located_in', 0.7, false, false, true), 0.4, 'across sentences')
  t.equal(calibrateType(model, 'located_in', 0.7, true, true, true), 0.2, 'the chained map first')
  t.equal(calibrateType(model, 'works_for', 0.7, true, true, true), 0.5, 'a type without those maps takes its own')
  t.equal(calibrateType(model, 'founded', 0.7), 0.7, 'a type without any map keeps its score')
})

t.test('a country the paragraph names is paired with its places and organizations at any distance', async (t) => {
  const country = { ...entity('LOC', 'Freedonia'), classes: 1 << GAZ_CLASSES.indexOf('country') }
  const org = entity('ORG', 'Acme Robotics')
  const person = entity('PER', 'Maria Schmidt')
  const at = (e: Entity, sent: number): Anchor => ({ entity: e, first: sent * 10, last: sent * 10 + 1, sent, pronoun: false })
  const anchors: Anchor[][] = [[at(org, 0), at(person, 0)], [], [], [at(country, 3)]]
  const pairs = (paragraphs: number[]) =>
    candidatePairs(anchors, Int32Array.from(paragraphs), engine.models.relations.places)
      .filter((c) => c.sent !== c.sent2)
      .map((c) => `${c.source.entity.name} > ${c.target.entity.name}`)
  t.same(pairs([0, 0, 0, 0]), ['Acme Robotics > Freedonia'], 'the organization with the country, not the person')
  t.same(pairs([0, 0, 1, 1]), [], 'not across paragraphs')
})

t.test('a person in a town is in its region and country too: the product of the two scores', async (t) => {
  const [ann, town, state, acme] = [entity('PER', 'Ann Lee'), entity('LOC', 'Albuquerque'), entity('LOC', 'N.M.'), entity('ORG', 'Acme')]
  const scored = (s: Entity, o: Entity, score: number, type: RelationType): Scored => ({
    type,
    score,
    candidate: { source: anchor(s, 0), target: anchor(o, 1), sent: 0, sent2: 0 },
  })
  const mapOf = (...xs: Scored[]) => new Map(xs.map((x) => [tripleKey(x.candidate.source.entity, x.type, x.candidate.target.entity), x]))
  const key = (s: Entity, o: Entity) => tripleKey(s, 'lives_in', o)

  const best = mapOf(scored(ann, town, 0.8, 'lives_in'), scored(town, state, 0.5, 'located_in'))
  closePlaces(best)
  t.equal(best.get(key(ann, state))?.score, 0.8 * 0.5, 'Ann in Albuquerque, Albuquerque in N.M.: Ann in N.M.')
  t.equal(best.get(key(ann, state))?.via, true)

  const own = mapOf(scored(ann, town, 0.8, 'lives_in'), scored(town, state, 0.5, 'located_in'), scored(ann, state, 0.6, 'lives_in'))
  closePlaces(own)
  t.equal(own.get(key(ann, state))?.score, 0.6, "a pair's own higher score stands")

  const born = mapOf(scored(ann, town, 0.8, 'born_in'), scored(town, state, 0.9, 'located_in'))
  closePlaces(born)
  t.equal(born.size, 2, 'a birthplace is not carried')

  const org = mapOf(scored(ann, town, 0.8, 'lives_in'), scored(acme, state, 0.9, 'located_in'), scored(town, acme, 0.9, 'located_in'))
  closePlaces(org)
  t.notOk(org.has(key(ann, acme)), 'a place in an organization is no step: only places contain places')

  const weak = mapOf(scored(ann, town, 0.04, 'lives_in'), scored(town, state, 0.9, 'located_in'))
  closePlaces(weak)
  t.notOk(weak.has(key(ann, state)), 'a residence scored under 0.05 is no step')
})

t.test('a pronoun opening a later sentence of a paragraph that opens with a person: that person', async (t) => {
  // Persons made by hand on the tokens (the tagger's reading is not under test here).
  const resolved = (text: string, names: string[]) => {
    const doc = tokenize(text)
    const ents: Entity[] = names.map((name) => {
      const ws = name.split(' ')
      const first = doc.tokens.findIndex((x, i) => ws.every((w, k) => doc.tokens[i + k]?.text === w))
      return { type: 'PER', name, mentions: [mentionFromTokens(doc.text, doc.tokens, first, first + ws.length, 'PER')], salience: 1 }
    })
    return anchorsBySentence(doc, ents)
      .flat()
      .filter((a) => a.pronoun)
      .map((a) => `${doc.tokens[a.first].text}=${a.entity.name}`)
  }
  const bio = 'Lehmann Bernheimer was an antique dealer in Munich. Peter Weber sold him a shop in 1880.'
  t.same(resolved(bio + ' His son took over the business.', ['Lehmann Bernheimer', 'Peter Weber']), [
    'him=Peter Weber',
    'His=Lehmann Bernheimer',
  ])
  t.same(
    resolved(bio + ' The shop grew. The firm moved. It was sold in 1950, after his death.', ['Lehmann Bernheimer', 'Peter Weber']),
    ['him=Peter Weber', 'his=Lehmann Bernheimer'],
    'no person in the two sentences before: the subject',
  )
  t.same(
    resolved('The firm was founded in Munich. Peter Weber sold it a shop in 1880. His son took over the business.', ['Peter Weber']),
    ['His=Peter Weber'],
    'a paragraph that does not open with a person: the most recent one',
  )
  t.same(
    resolved(bio + '\nHis son took over the business.', ['Lehmann Bernheimer', 'Peter Weber']),
    ['him=Peter Weber'],
    'a new paragraph: neither the subject nor a person of the paragraph before',
  )
})

t.test('positives-only training data: the features of how often a text relates a pair are left out, what it says is kept', async (t) => {
  const text = 'Maria Schmidt is the guitarist of the band Radiohead.'
  const doc = tokenize(text)
  const ents = engine.extractEntities(doc, { all: true })
  const anchors = anchorsBySentence(doc, ents)
  const s = anchors[0].find((a) => a.entity.name === 'Maria Schmidt')!
  const o = anchors[0].find((a) => a.entity.type === 'ORG')!
  const words = wordHashes(doc)
  const c = { source: s, target: o, sent: 0, sent2: 0 }
  const fs = relationFeatures(doc, words, c, anchors, docContext(anchors, ents), [])
  const prior = priorFeatures(c)
  t.ok(prior.has(fs[0]) && prior.has(fs[1]), 'the bias and the type pair')
  // Template 55: the text's length (one sentence) of a PER>ORG pair (type pair 1 * 8 + 2).
  t.ok(fs.includes(feat(55, 1, 10)) && prior.has(feat(55, 1, 10)), "the text's length")
  // Template 5: a word between the pair.
  const guitarist = feat(5, words[doc.tokens.findIndex((x) => x.text === 'guitarist')], 10)
  t.ok(fs.includes(guitarist) && !prior.has(guitarist), 'a word between the pair is kept')
  t.ok(fs.filter((f) => !prior.has(f)).length > fs.length / 2, 'most features are kept')
})

t.test('cue patterns: the matches of a text between two mentions are the same when it is met again, each way round', async (t) => {
  // Tokens: Steve(0) Jobs(1) founded(2) Apple(3) .(4) Apple(5) was(6) founded(7) by(8) Steve(9) Jobs(10) .(11)
  const doc = tokenize('Steve Jobs founded Apple. Apple was founded by Steve Jobs.')
  const jobs = entity('PER', 'Steve Jobs')
  const apple = entity('ORG', 'Apple')
  const at = (e: Entity, first: number, last: number, sent: number): Anchor => ({ entity: e, first, last, sent, pronoun: false })
  const direct = (between: string, forward: boolean) =>
    PATTERNS.flatMap((p, k) => (!!p.reversed !== forward && p.between.test(between) ? [k] : []))
  const founded = PATTERNS.findIndex((p) => p.type === 'founded' && !p.reversed)
  for (let round = 0; round < 2; round++) {
    const forward = matchingPatterns(doc, { source: at(jobs, 0, 2, 0), target: at(apple, 3, 4, 0), sent: 0, sent2: 0 })
    t.same(forward, direct('founded', true), `forward, round ${round}`)
    t.ok(forward.includes(founded), 'the founding cue matches forward')
    // The same words read from the other side: only reversed patterns may match, and here none does.
    const backward = matchingPatterns(doc, { source: at(apple, 3, 4, 0), target: at(jobs, 0, 2, 0), sent: 0, sent2: 0 })
    t.same(backward, direct('founded', false), `backward, round ${round}`)
    t.notOk(backward.includes(founded), 'a forward cue does not match backward')
    const passive = matchingPatterns(doc, { source: at(jobs, 9, 11, 1), target: at(apple, 5, 6, 1), sent: 1, sent2: 1 })
    t.same(passive, direct('was founded by', false), `passive, round ${round}`)
  }
})

t.test("a place or nationality in the organization's name or next to the source, against the target place", async (t) => {
  const places = buildPlaces()
  // Template 80 over hand-made anchors (names as given, in the one sentence), the type pair's id as relationFeatures keys it.
  const feats = (text: string, src: [EntityType, string], tgt: string) => {
    const doc = tokenize(text)
    const at = (name: string) => {
      const ws = name.split(' ')
      const k = doc.tokens.findIndex((_, i) => ws.every((w, j) => doc.tokens[i + j]?.text === w))
      return k
    }
    const mk = (type: EntityType, name: string): Anchor => {
      const first = at(name)
      return { entity: entity(type, name), first, last: first + name.split(' ').length, sent: 0, pronoun: false }
    }
    const s = mk(src[0], src[1])
    const o = mk('LOC', tgt)
    const anchors = [[s, o].sort((a, b) => a.first - b.first)]
    const fs = relationFeatures(
      doc,
      wordHashes(doc),
      { source: s, target: o, sent: 0, sent2: 0 },
      anchors,
      docContext(anchors, [s.entity, o.entity]),
      [],
      places,
    )
    const tp = (src[0] === 'PER' ? 1 : 2) * 8 + 3
    return [1, 2, 3, 4, 5, 6, 7].filter((v) => fs.includes(feat(80, v, tp)))
  }
  t.same(
    feats('He taught at the University of Tokyo , in Tokyo , for years .', ['ORG', 'University of Tokyo'], 'Tokyo'),
    [1],
    'the place in the name',
  )
  t.same(
    feats('The Bulgarian Socialist Party won the vote in Bulgaria .', ['ORG', 'Bulgarian Socialist Party'], 'Bulgaria'),
    [2],
    'its nationality, the country',
  )
  t.same(
    feats('The Russian Defence Ministry sent a team from Moscow .', ['ORG', 'Russian Defence Ministry'], 'Moscow'),
    [3],
    'its nationality, a town of the country',
  )
  t.same(feats('The American Red Cross sent aid to Haiti .', ['ORG', 'American Red Cross'], 'Haiti'), [4], 'another nationality')
  t.same(feats('Zhelyu Zhelev , the Bulgarian president , spoke in Sofia .', ['PER', 'Zhelyu Zhelev'], 'Sofia'), [6], 'an apposition')
  t.same(
    feats('Mongolian Prime Minister P. Jasray signed the treaty with China .', ['PER', 'P. Jasray'], 'China'),
    [7],
    'another nationality before the person',
  )
  t.same(feats('The Red Cross sent aid to Haiti on Monday .', ['ORG', 'Red Cross'], 'Haiti'), [], 'nothing named')
  t.same(
    feats('George Washington slept in Washington .', ['PER', 'George Washington'], 'Washington'),
    [],
    "a person's own name is not read",
  )
  t.same(
    feats('The Union of Democratic Forces won in Sofia .', ['ORG', 'Union of Democratic Forces'], 'Sofia'),
    [],
    'a town named like a word is not read in a name',
  )
  t.same(
    feats('The Tokyo Stock Exchange rose , said analysts in Tokyo .', ['ORG', 'Tokyo Stock Exchange'], 'Tokyo'),
    [1],
    'the place in the name, before it',
  )
})
