// Mention rules on the shape of bodies' and works' names (CrossNER out of fold, fourth pass):
// each fires on the case it was written for and not on a near miss.
import t from 'tap'
import { mentionFromTokens, type EntityType } from '../../src/nlp/entities.ts'
import { tokenize } from '../../src/nlp/tokens.ts'
import { GAZ_CLASSES } from '../../src/nlp/features/lexicon.ts'
import {
  authoredWork,
  countedMisc,
  foreignPartyName,
  joinForNames,
  ofAndFieldEnd,
  placeAfterIn,
  plainFirstName,
  siblingsName,
  splitBeforeBody,
  splitFirmOfPlace,
  splitPersonOf,
  splitPossessedBody,
  surnameAfter,
} from '../../src/nlp/mentions.ts'
import { rangeOf } from '../helpers/token-range.ts'

type Span = Parameters<typeof splitPossessedBody>[1][number]

/** What a span rule makes of `name`'s span in `text`: each resulting span as "words/TYPE". */
function piecesOf(
  rule: (doc: ReturnType<typeof tokenize>, spans: Span[]) => Span[],
  text: string,
  name: string,
  type: Span['type'] = 'ORG',
) {
  const [doc, a, b] = rangeOf(text, name)
  return rule(doc, [{ type, first: a, last: b }]).map(
    (s) => `${text.slice(doc.tokens[s.first].start, doc.tokens[s.last - 1].end)}/${s.type}`,
  )
}

t.test('a party word of another language, first or last, makes a party; one word alone does not', async (t) => {
  t.ok(foreignPartyName(...rangeOf('Erbakan founded the Refah Partisi in 1983 .', 'Refah Partisi')))
  t.ok(foreignPartyName(...rangeOf('Lévesque led the Parti Québécois to power .', 'Parti Québécois')))
  t.notOk(foreignPartyName(...rangeOf('The Parti won nothing .', 'Parti')))
  t.notOk(foreignPartyName(...rangeOf('The Labour Party won .', 'Labour Party')), "an English party is the tagger's")
})

t.test('siblings by name are a band or a firm; a brother named alone is not', async (t) => {
  t.ok(siblingsName(...rangeOf('They toured with The Everly Brothers in 1960 .', 'The Everly Brothers')))
  t.ok(siblingsName(...rangeOf('The film was released by Warner Bros in May .', 'Warner Bros')))
  t.notOk(siblingsName(...rangeOf('He thanked his brothers and Sisters .', 'Sisters')))
  t.notOk(siblingsName(...rangeOf('They met John Brothers Smith .', 'John Brothers Smith')))
})

t.test('"and" and one field end a body\'s "of" name; not a name of its own, nor two names', async (t) => {
  const ctx = { gaz: (words: string[]) => (words.join(' ') === 'cambridge' ? 1 << GAZ_CLASSES.indexOf('city') : 0) }
  const end = (text: string, name: string) => {
    const [doc, a, b] = rangeOf(text, name)
    const taken = new Uint8Array(doc.tokens.length)
    for (let i = a; i < b; i++) taken[i] = 1
    return ofAndFieldEnd(doc, a, b, taken, ctx)
  }
  t.equal(end('It was founded at the National University of Sciences and Technology ( NUST ) .', 'National University of Sciences'), 11)
  t.equal(end('Colleges such as the Institute of Management and Health and others .', 'Institute of Management'), 9)
  t.equal(end('He studied at the University of Oxford and Cambridge University .', 'University of Oxford'), -1, 'a capital after it')
  t.equal(end('He studied at the University of Oxford and Cambridge .', 'University of Oxford'), -1, 'a place')
  t.equal(end('He taught at Harvard University and Yale .', 'Harvard University'), -1, "after a body's word")
})

t.test('a name of capitals goes on over "and" and one field word; not a place, nor a capital after it', async (t) => {
  const ctx = { gaz: (words: string[]) => (words.join(' ') === 'lyon' ? 1 << GAZ_CLASSES.indexOf('city') : 0) }
  const end = (text: string, name: string) => {
    const [doc, a, b] = rangeOf(text, name)
    const taken = new Uint8Array(doc.tokens.length)
    for (let i = a; i < b; i++) taken[i] = 1
    return ofAndFieldEnd(doc, a, b, taken, ctx)
  }
  t.equal(end('It was founded by the Toulouse Chamber of Commerce and Industry in 1903 .', 'Toulouse Chamber of Commerce'), 11)
  t.equal(end('She was Minister of Public Service and Administration until 2017 .', 'Public Service'), 8)
  t.equal(end('It was founded by the Toulouse Chamber of Commerce and Lyon in 1903 .', 'Toulouse Chamber of Commerce'), -1, 'a place')
  t.equal(end('Shares of Tyndall Australia and Mid-East Minerals rose .', 'Tyndall Australia'), -1, 'a capital after it')
})

t.test('a known place right after "in" / "into" / "near" is a place; not a club before a score, nor a first name', async (t) => {
  const ctx = {
    gaz: (words: string[]) =>
      words.join(' ') === 'yorkshire'
        ? 1 << GAZ_CLASSES.indexOf('region')
        : words.join(' ') === 'florence'
          ? (1 << GAZ_CLASSES.indexOf('city')) | (1 << GAZ_CLASSES.indexOf('first'))
          : 0,
  }
  t.ok(placeAfterIn(...rangeOf('It was incorporated into Yorkshire in 1888 .', 'Yorkshire'), ctx))
  t.notOk(placeAfterIn(...rangeOf('He scored 120 in Yorkshire 250 .', 'Yorkshire'), ctx), 'a number after it')
  t.notOk(placeAfterIn(...rangeOf('It was a draw against Yorkshire .', 'Yorkshire'), ctx), 'no preposition of place')
  t.notOk(placeAfterIn(...rangeOf('He believed in Florence , his wife .', 'Florence'), ctx), 'a first name too')
})

t.test('a seat count and an open bracket leave a miscellaneous span; a year or a closed bracket do not', async (t) => {
  const cut = (text: string, name: string) => {
    const [doc, a, b] = rangeOf(text, name)
    const [x, y] = countedMisc(doc, a, b)
    return text.slice(doc.tokens[x].start, doc.tokens[y - 1].end)
  }
  t.equal(
    cut('Seats : 3 UUP and 2 Social Democratic and Labour Party ( SDLP ) .', '2 Social Democratic and Labour Party ( SDLP'),
    'Social Democratic and Labour Party',
  )
  t.equal(
    cut('Seats : 6 Alliance Party of Northern Ireland .', '6 Alliance Party of Northern Ireland'),
    'Alliance Party of Northern Ireland',
  )
  t.equal(cut('the 1980 Republican Party primaries', '1980 Republican Party primaries'), '1980 Republican Party primaries', 'a year')
  t.equal(cut('Seats : 2 SDLP .', '2 SDLP'), '2 SDLP', 'one word after it')
  t.equal(
    cut('He won 14 Academy of Country Music awards .', '14 Academy of Country Music awards'),
    '14 Academy of Country Music awards',
    'an award',
  )
})

t.test(
  "a first name alone before a person joins them; an ordinary word opening a sentence, a place's opener, a place or a park's name does not",
  async (t) => {
    const first = 1 << GAZ_CLASSES.indexOf('first')
    const common = 1 << GAZ_CLASSES.indexOf('common')
    const country = 1 << GAZ_CLASSES.indexOf('country')
    const gaz: Record<string, number> = {
      ted: first,
      will: first | common,
      west: first,
      elias: first,
      free: first | common,
      'equatorial guinea': country,
    }
    const ctx = { gaz: (words: string[]) => gaz[words.join(' ')] ?? 0 }
    const plain = (text: string, word: string) => {
      const [doc, a] = rangeOf(text, word)
      return plainFirstName(doc, a, ctx)
    }
    t.ok(plain('He lost to Ted Kennedy in 1980 .', 'Ted'))
    t.ok(plain('It is a history by Will Durant .', 'Will'), 'an ordinary word after a lower-case one')
    t.notOk(plain('Will Carling led England .', 'Will'), 'an ordinary word opening the sentence')
    t.notOk(plain('They beat West Ham at home .', 'West'), "a place's opener")
    t.notOk(plain('They camped in Elias National Park .', 'Elias'), "a park's name")
    t.notOk(plain('He called for a Free Equatorial Guinea .', 'Free'), 'a place after it')
  },
)

t.test('a body\'s name, "for" and an organization after it are one organization; a person after "for" is not', async (t) => {
  const joined = (text: string, spans: [number, number, EntityType][]) => {
    const doc = tokenize(text)
    return joinForNames(
      doc,
      spans.map(([a, b, type]) => mentionFromTokens(text, doc.tokens, a, b, type)),
    ).map((m) => `${m.type}:${m.text}`)
  }
  t.same(
    joined('The Oak Ridge Institute for Science and Education is near Knoxville .', [
      [1, 4, 'ORG'],
      [5, 8, 'ORG'],
      [10, 11, 'LOC'],
    ]),
    ['ORG:Oak Ridge Institute for Science and Education', 'LOC:Knoxville'],
  )
  t.same(
    joined('The American Association for the Advancement of Science met .', [
      [1, 3, 'ORG'],
      [5, 8, 'ORG'],
    ]),
    ['ORG:American Association for the Advancement of Science'],
  )
  t.same(
    joined('The Carter Center for Jimmy Carter opened .', [
      [1, 3, 'ORG'],
      [4, 6, 'PER'],
    ]),
    ['ORG:Carter Center', 'PER:Jimmy Carter'],
  )
  t.same(
    joined('Campaigners for Labour for Ireland spoke .', [
      [2, 3, 'ORG'],
      [4, 5, 'ORG'],
    ]),
    ['ORG:Labour', 'ORG:Ireland'],
    'no body\'s head word before "for"',
  )
  t.same(
    joined('He left the Quebec Liberal Party for the Parti Québécois .', [
      [3, 6, 'ORG'],
      [8, 10, 'ORG'],
    ]),
    ['ORG:Quebec Liberal Party', 'ORG:Parti Québécois'],
    'a body\'s name after "for" is another body',
  )
})

t.test('a body\'s name run into the next body\'s head word before "of" is cut before "and"', async (t) => {
  const cut = (text: string, spans: [number, number][]) => {
    const doc = tokenize(text)
    return splitBeforeBody(
      doc,
      spans.map(([first, last]) => ({ first, last, type: 'ORG' as const })),
    ).map((s) =>
      doc.tokens
        .slice(s.first, s.last)
        .map((x) => x.text)
        .join(' '),
    )
  }
  t.same(cut('He worked at the University of Groningen and University of Twente .', [[4, 9]]), ['University of Groningen', 'University'])
  t.same(cut('She led the Department of Health and Human Services of Ohio .', [[3, 9]]), ['Department of Health and Human Services'])
  t.same(
    cut('He joined the College of Arts and University Press .', [[3, 9]]),
    ['College of Arts and University Press'],
    'no "of" after the span',
  )
})

t.test('what is written is a work; a person whose work is named after them is not', async (t) => {
  t.ok(authoredWork(...rangeOf('Magha , author of Shishupala Vadha , was a poet .', 'Shishupala Vadha')))
  t.ok(authoredWork(...rangeOf('It is the house where he wrote Oliver Twist .', 'Oliver Twist')))
  t.ok(authoredWork(...rangeOf('He possibly wrote the Chanson des Chétifs himself .', 'Chanson des Chétifs')))
  t.notOk(authoredWork(...rangeOf("She co-wrote Martina McBride 's 2002 single .", 'Martina McBride')))
  t.notOk(authoredWork(...rangeOf('He wrote to Oliver Twist in May .', 'Oliver Twist')))
  t.notOk(authoredWork(...rangeOf('The author of the report , John Smith , resigned .', 'John Smith')))
})

t.test("a body's possessive before a body's name cuts the span in two; a name with \"'s\" inside it is left whole", async (t) => {
  const split = (text: string, name: string) => {
    const [doc, a, b] = rangeOf(text, name)
    return splitPossessedBody(doc, [{ type: 'ORG', first: a, last: b }]).map((s) =>
      text.slice(doc.tokens[s.first].start, doc.tokens[s.last - 1].end),
    )
  }
  t.same(split("He joined the Laboratory 's InfoLab Group in 2001 .", "Laboratory 's InfoLab Group"), ['Laboratory', 'InfoLab Group'])
  t.same(split("He led Bar-Ilan University 's Center for Strategic Studies .", "Bar-Ilan University 's Center for Strategic Studies"), [
    'Bar-Ilan University',
    'Center for Strategic Studies',
  ])
  t.same(split("She studied at Queen 's University in Kingston .", "Queen 's University"), ["Queen 's University"])
  t.same(split("He voted for the Convention People 's Party .", "Convention People 's Party"), ["Convention People 's Party"])
})

t.test("an untagged surname after a person's two names ends the name; a day, a road, a role or a label does not", async (t) => {
  const after = (text: string, name: string) => {
    const [doc, a, b] = rangeOf(text, name)
    const taken = new Uint8Array(doc.tokens.length)
    for (let i = a; i < b; i++) taken[i] = 1
    return surnameAfter(doc, a, b, taken)
  }
  t.ok(after('She starred with Anika Noni Rose in the film .', 'Anika Noni'))
  t.ok(after('It was led by Lee Kuan Yew , who …', 'Lee Kuan'))
  t.notOk(after('They marked Martin Luther King Day on Monday .', 'Martin Luther'), "a day's name")
  t.notOk(after('He was the Edwin O. Reischauer Professor of History .', 'Edwin O. Reischauer'), 'a role after the name')
  t.notOk(after('Signed : Jonathan Medved Title : CEO', 'Jonathan Medved'), "a form's label")
  t.notOk(after('He met Anika Noni Rose Smith .', 'Anika Noni'), 'a capital after it')
  t.notOk(after('Yauch and activist Erin Potts The events became annual .', 'Erin Potts'), 'an article')
})

t.test(
  'a firm\'s name ending in its legal form, "of" and a town is cut in two; a country after "of" or no firm\'s word is left whole',
  async (t) => {
    const ctx = {
      gaz: (words: string[]) =>
        words.join(' ') === 'canada'
          ? 1 << GAZ_CLASSES.indexOf('country')
          : words.join(' ') === 'cincinnati'
            ? 1 << GAZ_CLASSES.indexOf('city')
            : 0,
    }
    const split = (text: string, name: string, type: EntityType = 'ORG') =>
      piecesOf((doc, spans) => splitFirmOfPlace(doc, spans, ctx), text, name, type)
    t.same(split('The rig was leased from Avis Bourg Co. of Folsom , La.', 'Avis Bourg Co. of Folsom'), [
      'Avis Bourg Co./ORG',
      'Folsom/LOC',
    ])
    t.same(split('The parts came from S.A. Healy Co. of McCook .', 'S.A. Healy Co. of McCook'), ['S.A. Healy Co./ORG', 'McCook/LOC'])
    t.same(split('It sued Eagle-Picher Industries of Cincinnati .', 'Eagle-Picher Industries of Cincinnati', 'OBJ'), [
      'Eagle-Picher Industries/ORG',
      'Cincinnati/LOC',
    ])
    t.same(split("Moody 's rated Power Corp of Canada .", 'Power Corp of Canada'), ['Power Corp of Canada/ORG'], 'a country after "of"')
    t.same(split('The Bank of Finland said so .', 'Bank of Finland'), ['Bank of Finland/ORG'], 'no firm\'s word before "of"')
    t.same(
      split('He joined Acme Inc. of the group .', 'Acme Inc. of the group'),
      ['Acme Inc. of the group/ORG'],
      'no capitalised name after "of"',
    )
  },
)

t.test("a person's name inside an organization's or a place's span before \"of\" is cut out; a body's name is left whole", async (t) => {
  const g: Record<string, number> = {
    alain: 1 << GAZ_CLASSES.indexOf('first'),
    bill: 1 << GAZ_CLASSES.indexOf('first'),
    arkansas: 1 << GAZ_CLASSES.indexOf('region'),
    royal: (1 << GAZ_CLASSES.indexOf('first')) | (1 << GAZ_CLASSES.indexOf('common')),
    george: 1 << GAZ_CLASSES.indexOf('first'),
  }
  const ctx = { gaz: (words: string[]) => g[words.join(' ')] ?? 0 }
  const split = (text: string, name: string, type: EntityType = 'ORG') =>
    piecesOf((doc, spans) => splitPersonOf(doc, spans, ctx), text, name, type)
  t.same(split('said Dr. Alain Farley of McGill University .', 'Dr. Alain Farley of McGill University'), [
    'Alain Farley/PER',
    'McGill University/ORG',
  ])
  t.same(split('a vote for Democrat Bill Clinton of Arkansas .', 'Democrat Bill Clinton of Arkansas'), ['Bill Clinton/PER', 'Arkansas/LOC'])
  t.same(
    split('He joined the Swedish Royal Society of Literature .', 'Swedish Royal Society of Literature'),
    ['Swedish Royal Society of Literature/ORG'],
    'a first name that is also a word',
  )
  t.same(
    split('She studied at Saint George University of Sofia .', 'Saint George University of Sofia'),
    ['Saint George University of Sofia/ORG'],
    "a body's word after the first name",
  )
  t.same(
    split('a vote for Bill Clinton of Arkansas .', 'Bill Clinton of Arkansas', 'PER'),
    ['Bill Clinton of Arkansas/PER'],
    "a person's span is the tagger's",
  )
})
