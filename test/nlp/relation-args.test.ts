// Argument checks, relations across two sentences, and where the pattern-only confidences come from.
import t from 'tap'
import { readFileSync } from 'node:fs'
import { createEngine, loadEngineModels } from '../../src/nlp/index.ts'
import {
  anchorsBySentence,
  argumentFits,
  candidatePairs,
  paragraphsOf,
  patternOnlyMatch,
  PATTERNS,
  RELATION_ENTITY_CUT,
  type Anchor,
} from '../../src/nlp/relations.ts'
import { tokenize } from '../../src/nlp/tokens.ts'
import type { Entity, EntityType } from '../../src/nlp/entities.ts'
import { LABELS_FILE, patternConfidence } from '../../scripts/nlp/train-relations.ts'
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
