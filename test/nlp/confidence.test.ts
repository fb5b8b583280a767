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
