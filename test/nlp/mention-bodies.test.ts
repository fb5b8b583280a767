// Mention rules on bodies' names the tagger cut or ran together (CrossNER out of fold, sixth pass):
// each fires on the case it was written for and not on a near miss.
import t from 'tap'
import { mentionFromTokens, type EntityType } from '../../src/nlp/entities.ts'
import { tokenize } from '../../src/nlp/tokens.ts'
import { GAZ_CLASSES } from '../../src/nlp/features/lexicon.ts'
import { authoredListed, genrePlace, joinCampus, placePossessor, possessedHouse, splitJoined } from '../../src/nlp/mentions.ts'

const CLASSES: Record<string, (typeof GAZ_CLASSES)[number]> = {
  california: 'region',
  paris: 'city',
  manchester: 'city',
  leeds: 'city',
  liverpool: 'city',
  paramount: 'city',
  robbie: 'first',
}
const ctx = { gaz: (words: string[]) => (CLASSES[words.join(' ')] ? 1 << GAZ_CLASSES.indexOf(CLASSES[words.join(' ')]) : 0) }

t.test(
  "a state university's name, a comma and its campus's town are one name; a city's university or a person after it are not",
  async (t) => {
    const joined = (text: string, spans: [string, EntityType][]) => {
      const doc = tokenize(text)
      const ms = spans.map(([name, type]) => {
        const at = text.indexOf(name)
        const a = doc.tokens.findIndex((x) => x.start === at)
        const b = doc.tokens.findIndex((x) => x.end === at + name.length) + 1
        return mentionFromTokens(text, doc.tokens, a, b, type)
      })
      return joinCampus(doc, ms, ctx).map((m) => `${m.type}:${m.text}`)
    }
    t.same(
      joined('She taught at the University of California , San Diego until 2001 .', [
        ['University of California', 'ORG'],
        ['San Diego', 'LOC'],
      ]),
      ['ORG:University of California , San Diego'],
    )
    t.same(
      joined('He was a University of California , Berkeley physicist .', [
        ['University of California', 'ORG'],
        ['Berkeley', 'LOC'],
      ]),
      ['ORG:University of California , Berkeley'],
    )
    t.same(
      joined('Degrees from Oxford , the University of Paris , Manchester and Leeds .', [
        ['University of Paris', 'ORG'],
        ['Manchester', 'LOC'],
      ]),
      ['ORG:University of Paris', 'LOC:Manchester'],
      "a city's university in a list of towns",
    )
    t.same(
      joined('A forward from the University of California , McNamara played eight seasons .', [
        ['University of California', 'ORG'],
        ['McNamara', 'PER'],
      ]),
      ['ORG:University of California', 'PER:McNamara'],
      'a person after the comma',
    )
  },
)

t.test('an organization\'s span is cut at "and" after a body\'s word before a name; not before a field', async (t) => {
  const cut = (text: string, name: string) => {
    const doc = tokenize(text)
    const at = text.indexOf(name)
    const first = doc.tokens.findIndex((x) => x.start === at)
    const last = doc.tokens.findIndex((x) => x.end === at + name.length) + 1
    return splitJoined(doc, [{ type: 'ORG', first, last }]).map((s) => text.slice(doc.tokens[s.first].start, doc.tokens[s.last - 1].end))
  }
  t.same(cut('It funds the African Conservation Foundation and Greenpeace .', 'African Conservation Foundation and Greenpeace'), [
    'African Conservation Foundation',
    'Greenpeace',
  ])
  t.same(
    cut(
      'It is owned by Shanghai Automobile Corporation and Ek Chor China Motorcycle .',
      'Shanghai Automobile Corporation and Ek Chor China Motorcycle',
    ),
    ['Shanghai Automobile Corporation', 'Ek Chor China Motorcycle'],
  )
  t.same(
    cut('He led the Bank of Commerce and Industry .', 'Bank of Commerce and Industry'),
    ['Bank of Commerce and Industry'],
    'no body\'s word before "and"',
  )
  t.same(
    cut('He studied at Western Bible College and Seminary .', 'Western Bible College and Seminary'),
    ['Western Bible College and Seminary'],
    'a house of the college after "and"',
  )
})

t.test('a place before a style of music is a word of the style; before a house, a country or a capital it is a place', async (t) => {
  const before = (text: string, name: string) => {
    const doc = tokenize(text)
    const at = text.indexOf(name)
    return genrePlace(doc, doc.tokens.findIndex((x) => x.end === at + name.length) + 1)
  }
  t.ok(before('urban styles such as Chicago blues and West Coast blues .', 'Chicago'))
  t.ok(before('the appeal of the Nashville sound grew .', 'Nashville'))
  t.ok(before('West Coast hip hop rose in the 1990s .', 'West Coast'))
  t.notOk(before('He played at the Chicago Blues Festival .', 'Chicago'), 'a name of its own')
  t.notOk(before('A Gaza house was hit .', 'Gaza'))
  t.notOk(before('It is a Balkan country .', 'Balkan'))
  t.notOk(before('They reached Seattle hip deep in snow .', 'Seattle'))
})

t.test('a name listed after what is written is written too; a name after the list, or a possessor, is not', async (t) => {
  const listed = (text: string, name: string) => {
    const doc = tokenize(text)
    const at = text.indexOf(name)
    const a = doc.tokens.findIndex((x) => x.start === at)
    const b = doc.tokens.findIndex((x) => x.end === at + name.length) + 1
    return authoredListed(doc, a, b)
  }
  const text = 'He wrote Oliver Twist , The Pickwick Papers and Nicholas Nickleby in that house .'
  t.ok(listed(text, 'Nicholas Nickleby'))
  t.ok(listed(text, 'The Pickwick Papers'))
  t.notOk(listed('He met Oliver Twist , Charles Dickens and Nicholas Nickleby .', 'Nicholas Nickleby'), 'no work before')
  t.notOk(listed("He wrote Oliver Twist and Dickens 's friends came .", 'Dickens'), 'a possessor')
})

t.test("a town before a possessive and a district's or a venue's name is the town; before a person or a title it is not", async (t) => {
  const owns = (text: string, name: string, spans: [string, 'PER' | 'ORG' | 'LOC' | 'OBJ' | 'MISC'][] = []) => {
    const doc = tokenize(text)
    const range = (n: string) => {
      const at = text.indexOf(n)
      return [doc.tokens.findIndex((x) => x.start === at), doc.tokens.findIndex((x) => x.end === at + n.length) + 1]
    }
    const [a, b] = range(name)
    const tagged = spans.map(([n, type]) => {
      const [first, last] = range(n)
      return { first, last, type }
    })
    return placePossessor(doc, a, b, tagged, ctx)
  }
  t.ok(owns("riots in Leeds ' Chapeltown and elsewhere .", 'Leeds', [['Chapeltown', 'LOC']]))
  t.ok(owns("riots in Manchester ' s Moss Side .", 'Manchester'))
  t.ok(owns("gigs at Liverpool 's The Cavern Club and more .", 'Liverpool'))
  t.notOk(owns("Liverpool 's Robbie Fowler scored .", 'Liverpool'), 'a person after it')
  t.notOk(owns("Liverpool 's Jamie Redknapp scored .", 'Liverpool', [['Jamie Redknapp', 'PER']]), "the tagger's person")
  t.notOk(owns("and Paramount 's Money From Home with Dean Martin .", 'Paramount'), "a work's title")
})

t.test(
  "a saint's or a royal's possessive and a college's or a church's word are its name; a name going on, or no title, are not",
  async (t) => {
    const house = (text: string, name: string) => {
      const doc = tokenize(text)
      const at = text.indexOf(name)
      const a = doc.tokens.findIndex((x) => x.start === at)
      const b = doc.tokens.findIndex((x) => x.end === at + name.length) + 1
      const taken = new Uint8Array(doc.tokens.length)
      for (let i = a; i < b; i++) taken[i] = 1
      const h = possessedHouse(doc, a, b, taken)
      return h && `${h.type}:${text.slice(doc.tokens[h.start].start, doc.tokens[h.end - 1].end)}`
    }
    t.equal(house("He studied at St. Martin 's College in Lancaster .", 'Martin'), "ORG:St. Martin 's College")
    t.equal(house("He taught at Queen Mary 's College , London .", 'Mary'), "ORG:Queen Mary 's College")
    t.equal(house("They wed in St Matthew 's Church .", 'St Matthew'), "LOC:St Matthew 's Church")
    t.equal(house("He went to St. Mary 's College of Art .", 'Mary'), undefined, 'the name goes on')
    t.equal(house("Smith 's College years were happy .", 'Smith'), undefined, 'no title')
  },
)
