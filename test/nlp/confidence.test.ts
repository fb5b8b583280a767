// What the entity confidence reads of a text besides the tagger's margins: the register
// (capitalised ordinary words, as in a filing's defined terms) and, per entity, a name of
// ordinary words or one after a determiner. Each fires on a filing and not on news prose.
import t from 'tap'
import { CONFIDENCE_FEATURES, registerOf } from '../../src/nlp/confidence.ts'
import { GAZ_CLASSES } from '../../src/nlp/features/lexicon.ts'
import { entityCandidates, nameClasses } from '../../src/nlp/mentions.ts'
import { loadTagger } from '../../src/nlp/tagger.ts'
import { tokenize } from '../../src/nlp/tokens.ts'

const tagger = loadTagger(new URL('../../models/ner.bin.gz', import.meta.url))
const COMMON = 1 << GAZ_CLASSES.indexOf('common')
const ordinary = (w: string) => (nameClasses(w, tagger) & COMMON) !== 0

const FILING =
  'Payments are due to the Bank under the Security Interest and the Termination Account. All Credit Obligations of the ' +
  'Borrower are secured by the Effective Interest, and any Lien on them is released when the Obligations are paid.'
const PROSE =
  'Maria Santos flew from Lisbon to Berlin on Monday to meet officials of Siemens and the European Commission. ' +
  'She returned to Portugal on Friday with Carlos Mendes.'

/** The entity's features named by a prefix that are on ("determined×PER"). */
function on(text: string, name: string, prefix: string): string[] {
  const found = entityCandidates(tokenize(text), tagger).find((c) => c.entity.name === name)
  if (!found) throw new Error(`${name} not extracted`)
  return CONFIDENCE_FEATURES.filter((f, i) => f.startsWith(prefix) && found.features[i] !== 0)
}

t.test('register: capitalised ordinary words are a filing, names in prose are not', async (t) => {
  const filing = registerOf(tokenize(FILING), ordinary)
  const prose = registerOf(tokenize(PROSE), ordinary)
  t.ok(filing.capitalisedCommon > 0.4, `filing ${filing.capitalisedCommon}`)
  t.ok(prose.capitalisedCommon < 0.15, `prose ${prose.capitalisedCommon}`)
  // With no capitalised word inside a sentence, the prior (one in five) stands.
  t.equal(registerOf(tokenize('nothing here is capitalised, not even one word.'), ordinary).capitalisedCommon, 0.2)
})

t.test('a name of ordinary words: fires on a defined term, not on a person of prose', async (t) => {
  t.same(on(FILING, 'Security Interest', 'ordinaryWords'), ['ordinaryWords×ORG'])
  t.same(on(PROSE, 'Maria Santos', 'ordinaryWords'), [])
  t.same(on(PROSE, 'Siemens', 'ordinaryWords'), [])
})

t.test('a name after a determiner: fires on "any Lien", not on a person of prose nor on an object', async (t) => {
  t.same(on(FILING, 'Lien', 'determined'), ['determined×PER'])
  t.same(on(PROSE, 'Carlos Mendes', 'determined'), [])
  t.same(on(PROSE, 'Maria Santos', 'determined'), [])
  // Not read for objects: "the" before a product is ordinary in a review.
  t.same(
    on('I bought the Bose QuietComfort headphones last month, and the Bose QuietComfort is light.', 'Bose QuietComfort', 'determined'),
    [],
  )
})

t.test('a short name: a fragment unless its context states what it is', async (t) => {
  // "Md." after a town and a comma is a state (stated by the rule); "Al" alone is not.
  t.same(on('The agency moved to Rockville, Md. last year.', 'Md.', 'short'), [])
  t.same(on('Then Al said he would come back on Monday.', 'Al', 'short'), ['short'])
})

t.test('an object that possesses something: fires on "Demon Days\'s single", not on an object alone', async (t) => {
  t.same(on("Gorillaz released the album Demon Days's lead single in 2005.", 'Demon Days', 'possessor'), ['possessor×OBJ'])
  t.same(on('Gorillaz released the album Demon Days in 2005.', 'Demon Days', 'possessor'), [])
  // Read for objects only: a person's possessive is ordinary.
  t.same(on(PROSE.replace('She returned', "Maria Santos's sister returned"), 'Maria Santos', 'possessor'), [])
})

// The words around the mentions (CONTEXT_FEATURES, one feature per type): for each, a text where it
// fires on the entity named and one of ordinary prose where it does not.
const CONTEXT_CASES: { feature: string; fires: [string, string]; not: [string, string] }[] = [
  { feature: 'prevLocPrep', fires: ['She flew to Lisbon on Monday.', 'Lisbon'], not: ['Lisbon is a large city.', 'Lisbon'] },
  { feature: 'prevOf', fires: ['He is the mayor of Lisbon now.', 'Lisbon'], not: ['She flew to Lisbon on Monday.', 'Lisbon'] },
  { feature: 'prevBy', fires: ['The book was written by Carlos Mendes last year.', 'Carlos Mendes'], not: [PROSE, 'Carlos Mendes'] },
  { feature: 'prevHonorific', fires: ['Then President Carlos Mendes spoke to the press.', 'Carlos Mendes'], not: [PROSE, 'Carlos Mendes'] },
  { feature: 'prevLower', fires: ['Yesterday the police arrested Carlos Mendes at home.', 'Carlos Mendes'], not: [PROSE, 'Maria Santos'] },
  { feature: 'prevComma', fires: ['They met Maria Santos, Carlos Mendes and others.', 'Carlos Mendes'], not: [PROSE, 'Maria Santos'] },
  { feature: 'nextSay', fires: ['Carlos Mendes said the talks went well.', 'Carlos Mendes'], not: [PROSE, 'Maria Santos'] },
  { feature: 'nextPoss', fires: ["Carlos Mendes's sister lives here.", 'Carlos Mendes'], not: [PROSE, 'Maria Santos'] },
  { feature: 'nextOrgKind', fires: ['Shares of the Siemens group rose sharply.', 'Siemens'], not: [PROSE, 'Siemens'] },
  { feature: 'nextLocKind', fires: ['The Danube river flooded the valley.', 'Danube'], not: [PROSE, 'Lisbon'] },
  {
    feature: 'nextWork',
    fires: ['Sales of the new Gorillaz album rose in 2005.', 'Gorillaz'],
    not: ['Gorillaz released a new album in 2005.', 'Gorillaz'],
  },
  { feature: 'nextPerVerb', fires: ['Carlos Mendes was born in a small village.', 'Carlos Mendes'], not: [PROSE, 'Maria Santos'] },
  {
    feature: 'nextLower',
    fires: ['Carlos Mendes arrived late in the evening.', 'Carlos Mendes'],
    not: ['They met Carlos Mendes.', 'Carlos Mendes'],
  },
  { feature: 'nextComma', fires: ['They met Maria Santos, Carlos Mendes and others.', 'Maria Santos'], not: [PROSE, 'Carlos Mendes'] },
  { feature: 'capBefore', fires: ['The lawyer and New York Yankees Cortes Mendes spoke.', 'Mendes'], not: [PROSE, 'Siemens'] },
  { feature: 'capAfter', fires: ['They met Carlos Mendes The Younger on Monday.', 'Carlos Mendes'], not: [PROSE, 'Carlos Mendes'] },
  { feature: 'inBrackets', fires: ['The runner Carlos Mendes ( Portugal ) won the race.', 'Portugal'], not: [PROSE, 'Portugal'] },
  { feature: 'quoted', fires: ['The ship was called "Lisbon" by its crew.', 'Lisbon'], not: [PROSE, 'Lisbon'] },
  { feature: 'inList', fires: ['Officials from France, Brazil and Japan met on Monday.', 'Brazil'], not: [PROSE, 'Siemens'] },
]

t.test('a title before a person is an honorific, not a longer name cut short', async (t) => {
  const TITLED = 'The agency said that Director Laercio Vinhas reported by fax.'
  t.same(on(TITLED, 'Laercio Vinhas', 'capBefore×'), [])
  t.same(on(TITLED, 'Laercio Vinhas', 'prevHonorific×'), ['prevHonorific×PER'])
})

t.test('context features: each fires on its context and not on ordinary prose', async (t) => {
  for (const { feature, fires, not } of CONTEXT_CASES) {
    t.ok(on(fires[0], fires[1], `${feature}×`).length === 1, `${feature} fires on "${fires[1]}" in "${fires[0]}"`)
    t.same(on(not[0], not[1], `${feature}×`), [], `${feature} does not fire on "${not[1]}" in "${not[0]}"`)
  }
})

/** The value of a context feature for the entity named (its type's column). */
function value(text: string, name: string, feature: string): number {
  const found = entityCandidates(tokenize(text), tagger).find((c) => c.entity.name === name)
  if (!found) throw new Error(`${name} not extracted`)
  return found.features[CONFIDENCE_FEATURES.indexOf(`${feature}×${found.entity.type}`)]
}

t.test('context features of the mentions and of the name elsewhere in the text', async (t) => {
  const TWO = 'Carlos Mendes arrived in Lisbon on Monday. Later that day Mendes met the press.'
  t.equal(value(TWO, 'Carlos Mendes', 'nameMentionShare'), 0.5, 'one of two mentions spells the name')
  t.equal(value(PROSE, 'Carlos Mendes', 'nameMentionShare'), 1)
  t.equal(value(TWO, 'Carlos Mendes', 'distinctForms'), Math.log(2))
  t.equal(value(PROSE, 'Carlos Mendes', 'distinctForms'), 0)
  t.equal(value(TWO, 'Carlos Mendes', 'sentStartShare'), 0.5)
  t.equal(value(PROSE, 'Carlos Mendes', 'sentStartShare'), 0)
  t.equal(value(PROSE, 'Maria Santos', 'firstPos'), 0)
  t.ok(value(PROSE, 'Carlos Mendes', 'firstPos') > 0.9)
  t.equal(value(PROSE, 'Maria Santos', 'allInitialCap'), 1)
  t.equal(value('He works for the Bank of America in Boston.', 'Bank of America', 'allInitialCap'), 0)
  // "Berlin" again inside a longer capitalised name that is not one of its mentions.
  const LONGER = 'Berlin is a large city. The Berlin Olympics were held there in 1936.'
  t.equal(value(LONGER, 'Berlin', 'partOfLonger'), 1)
  t.equal(value(LONGER, 'Berlin', 'unmentioned'), Math.log(2))
  t.equal(value(PROSE, 'Lisbon', 'partOfLonger'), 0)
  t.equal(value(PROSE, 'Lisbon', 'unmentioned'), 0)
  t.equal(value('Apple said the iPhone sold well in China. He ate an apple there.', 'Apple', 'lowerElsewhere'), 1)
  t.equal(value(PROSE, 'Siemens', 'lowerElsewhere'), 0)
  t.equal(value(LONGER, 'Berlin', 'wordInOtherCap'), 1)
  t.equal(value(PROSE, 'Lisbon', 'wordInOtherCap'), 0)
})

t.test("a name opening another entity's longer name is not an occurrence left unmentioned", async (t) => {
  // "Google Play Music" is an object of its own: "Google" there names its maker, as a mention would.
  const BRAND =
    'The Nexus Q is a media player developed by Google. It streams from Google Play Music and from Google Play Movies , ' +
    'and Google sold it in the United States.'
  const names = entityCandidates(tokenize(BRAND), tagger).map((c) => c.entity.name)
  t.ok(names.includes('Google Play Music'), names.join(', '))
  t.equal(value(BRAND, 'Google', 'unmentioned'), 0)
  // Where the longer name is no entity's mention, the occurrence still counts.
  t.equal(value('Berlin is a large city. The Berlin Olympics were held there in 1936.', 'Berlin', 'unmentioned'), Math.log(2))
})
