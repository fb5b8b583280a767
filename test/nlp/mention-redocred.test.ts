// Mention rules of the sixth Re-DocRED out-of-fold pass (roads by number, …): each fires on the case
// it was written for and not on a near miss.
import t from 'tap'
import { createEngine, loadEngineModels } from '../../src/nlp/index.ts'
import { tokenize } from '../../src/nlp/tokens.ts'
import { buildEntities } from '../../src/nlp/entities.ts'
import { placeEndName, placeNamedBody, placeOpened, releaserName, roadNumberEnd, untaggedRoadEnd } from '../../src/nlp/mentions.ts'
import { rangeOf } from '../helpers/token-range.ts'

const { extractMentions } = createEngine(loadEngineModels())
/** The rules' mentions of a text as `TYPE:text`. */
const typed = (text: string) => extractMentions(tokenize(text)).map((m) => `${m.type}:${m.text.replace(/\s+/g, ' ')}`)

t.test("a road's word and its number end a road's name; a terminal's number does not", async (t) => {
  const end = (text: string, name: string, type: 'LOC' | 'ORG' = 'LOC') => {
    const [doc, a, b] = rangeOf(text, name)
    return roadNumberEnd(doc, a, b, type, new Uint8Array(doc.tokens.length))
  }
  t.equal(end('It lies along Oregon Route 99 near Ashland .', 'Oregon Route 99'), 6)
  t.equal(end('It meets Saint Louis County Road 31 here .', 'Saint Louis County Road 31'), 7)
  // "[U.S.] Route 20": a place, then an untagged road's word and number.
  t.equal(end('U.S. Route 20 bisects the town .', 'U.S.'), 3)
  t.equal(end('It lands at Heathrow Terminal 5 daily .', 'Heathrow Terminal 5'), -1)
  t.equal(end('Acme Route 20 bisects the town .', 'Acme', 'ORG'), -1, 'a body before a road is not the road')
})

t.test('a road named by its number alone is a place; a title or a count is not', async (t) => {
  const end = (text: string, word: string) => {
    const doc = tokenize(text)
    const i = doc.tokens.findIndex((x) => x.text === word)
    // Every token free: none taken.
    return untaggedRoadEnd(doc, i, new Uint8Array(doc.tokens.length), new Uint8Array(doc.tokens.length))
  }
  t.equal(end('Interstate 680 runs through Pleasanton .', 'Interstate'), 2)
  t.equal(end('The town lies on State Highway 82 today .', 'State'), 7)
  t.equal(end('It runs from 41 Avenue SW to the river .', '41'), 6)
  t.equal(end('He sang Highway 61 Revisited twice .', 'Highway'), -1, 'an album named after a road')
  t.equal(end('They recorded at Abbey Road 2 times .', 'Road'), -1, 'Road alone')
  t.equal(end('He lived at Flat 75 Street names were changed .', '75'), -1, 'a number after a capitalised word')
  t.ok(typed('Interstate 680 runs through the valley near the town .').includes('LOC:Interstate 680'))
  t.ok(typed('The trail follows 66 Street to the river .').includes('LOC:66 Street'))
  t.notOk(typed('He sang Highway 61 Revisited for the crowd .').some((m) => m.startsWith('LOC:Highway')))
})

t.test("a place's name ending in a body's word is the body's; a tennis court or a lone word is not", async (t) => {
  t.ok(placeNamedBody(...rangeOf('He sat in the Madhya Pradesh Legislative Assembly .', 'Madhya Pradesh Legislative Assembly')))
  t.ok(placeNamedBody(...rangeOf('He worked for the Pennsylvania Railroad for years .', 'Pennsylvania Railroad')))
  t.ok(placeNamedBody(...rangeOf('The Spokane County District Court ruled .', 'Spokane County District Court')))
  t.notOk(placeNamedBody(...rangeOf('She won on Stadium Court on Monday .', 'Stadium Court')), 'a tennis court')
  t.notOk(placeNamedBody(...rangeOf('The Assembly met .', 'Assembly')), 'one word')
  t.notOk(placeNamedBody(...rangeOf('He left the Kelmora Hospital early .', 'Kelmora Hospital')), 'a hospital is a place as often')
})

t.test('a name ending in Empire, Drive, District or Rivers is a place; a person named Rivers is not', async (t) => {
  t.ok(placeEndName(...rangeOf('It was part of the Holy Roman Empire then .', 'Holy Roman Empire'), 'ORG'))
  t.ok(placeEndName(...rangeOf('It crosses Anthony Henday Drive twice .', 'Anthony Henday Drive'), 'PER'))
  t.ok(placeEndName(...rangeOf('It lies in Ambatofinandrahana District today .', 'Ambatofinandrahana District'), 'ORG'))
  t.notOk(placeEndName(...rangeOf('Joan Rivers hosted the show .', 'Joan Rivers'), 'PER'), 'a person named Rivers')
  t.notOk(placeEndName(...rangeOf('The District voted .', 'District'), 'ORG'), 'one word')
  // A first name before an airport's word: still the airport ("Ricki Lake said" stays a person).
  t.ok(typed('Flights land at Henri Coandă International Airport every day .').includes('LOC:Henri Coandă International Airport'))
  t.notOk(typed('Ricki Lake said she was happy with the show .').includes('LOC:Ricki Lake'))
})

t.test('who releases a record or airs a show is a company; a name after another "by" is not', async (t) => {
  t.ok(releaserName(...rangeOf('It was their first album to be released by Nettwerk in 2008 .', 'Nettwerk')))
  t.ok(releaserName(...rangeOf('He cut the single in 1955 on the Atlantic label .', 'Atlantic')))
  t.ok(releaserName(...rangeOf('It first aired on the Fox network in 2008 .', 'Fox')))
  t.ok(releaserName(...rangeOf('It was released by Avex Trax and Avex Taiwan in 2000 .', 'Avex Taiwan')))
  t.notOk(releaserName(...rangeOf('The song was written by Ray Charles in 1955 .', 'Ray Charles')), 'written by')
  t.notOk(releaserName(...rangeOf('He sang on the Fox show in 2008 .', 'Fox')), 'no label or network word')
})

t.test('a place the tagger found after a place\'s noun and "of" is stated a place; one elsewhere is not', async (t) => {
  const stated = (text: string, name: string) => extractMentions(tokenize(text)).find((m) => m.text === name)?.stated === true
  t.ok(stated('The reef lies north of Rügen and south of Sweden , east of the island .', 'Sweden'))
  t.ok(stated('He was born in the town of Hanmer in Canterbury .', 'Hanmer'))
  t.notOk(stated('Sweden won the match on Sunday in front of a big crowd .', 'Sweden'))
})

t.test("what the sentence says a name is states the tagger's own type too; a name in another sentence is not stated", async (t) => {
  const stated = (text: string, name: string) => extractMentions(tokenize(text)).find((m) => m.text === name)?.stated === true
  t.ok(stated('Mola di Bari is a town in Apulia , on the coast of the Adriatic Sea .', 'Mola di Bari'))
  t.notOk(stated('The ferry left Mola di Bari at dawn and reached the coast by noon .', 'Mola di Bari'))
})

t.test('a state\'s name holding "Republic of" or ending in Republic is a place; a party\'s name is not', async (t) => {
  t.ok(placeEndName(...rangeOf("They backed the newly founded People 's Republic of China then .", "People 's Republic of China"), 'ORG'))
  t.ok(
    placeEndName(...rangeOf('It joined the Ukrainian Soviet Socialist Republic in 1922 .', 'Ukrainian Soviet Socialist Republic'), 'ORG'),
  )
  t.notOk(placeEndName(...rangeOf('He led the Italian Republican Party for years .', 'Italian Republican Party'), 'ORG'))
  t.notOk(placeEndName(...rangeOf('It aired on Tunisian Republic Radio Network today .', 'Tunisian Republic Radio Network'), 'ORG'))
})

t.test('a place\'s name drops a leading "The" before two words or more; "The Hague" keeps it', async (t) => {
  const places = (text: string) =>
    buildEntities(
      extractMentions(tokenize(text)).filter((m) => m.type === 'LOC'),
      text.length,
    ).map((e) => e.name)
  t.ok(places('The Arts Theatre staged the play in London .').includes('Arts Theatre'))
  t.ok(places('The Hague hosted the court for years , and Delft did not .').includes('The Hague'))
})

t.test("a place's first word and title-case words make a place; an accord or a body does not", async (t) => {
  t.ok(placeOpened(...rangeOf('They stayed at Camp Nerimbera that year .', 'Camp Nerimbera')))
  t.ok(placeOpened(...rangeOf('Troops left Fort Snelling in May .', 'Fort Snelling')))
  t.notOk(placeOpened(...rangeOf('They signed the Camp David Accords in 1978 .', 'Camp David Accords')), 'an accord')
  t.notOk(placeOpened(...rangeOf('He taught at the Mount Sinai School in 1950 .', 'Mount Sinai School')), "a body's name")
  t.notOk(placeOpened(...rangeOf('He went to the camp in May .', 'camp')), 'one word')
})
