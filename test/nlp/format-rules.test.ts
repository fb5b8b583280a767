// Each rule of the format-rule registry: fires on the layout it is for, and not on ordinary
// prose that looks like it.
import t from 'tap'
import { FORMAT_RULES, type RuleContext } from '../../src/nlp/format-rules.ts'
import { mentionFromTokens, type EntityType, type Mention } from '../../src/nlp/entities.ts'
import { phraseHash } from '../../src/nlp/features/hashing.ts'
import { loadTagger } from '../../src/nlp/tagger.ts'
import { tokenize } from '../../src/nlp/tokens.ts'

const tagger = loadTagger(new URL('../../models/ner.bin.gz', import.meta.url))
const ctx: RuleContext = { gaz: (words) => tagger.gazetteer.get(phraseHash(words)) ?? 0 }
const rule = (name: string) => {
  const r = FORMAT_RULES.find((x) => x.name === name)
  if (!r) throw new Error(`no rule ${name}`)
  return r
}

/** Mentions given as "TYPE:words" for the first occurrence of the words in the text. */
function given(text: string, names: string[]) {
  const doc = tokenize(text)
  const mentions: Mention[] = names.map((n) => {
    const [type, words] = [n.slice(0, 3) as EntityType, n.slice(4)]
    const start = text.indexOf(words)
    const first = doc.tokens.findIndex((tk) => tk.start === start)
    const last = doc.tokens.findIndex((tk) => tk.end === start + words.length) + 1
    if (first < 0 || last <= first) throw new Error(`no tokens for ${n}`)
    return mentionFromTokens(text, doc.tokens, first, last, type)
  })
  return { doc, mentions }
}
const show = (ms: Mention[]) => ms.map((m) => `${m.type}:${m.text}`)

// The rules tested below, each firing on its layout and not on prose: a rule added to the
// registry without a test of its own fails here.
const TESTED = ['fbis-source-line', 'place-source-line', 'town-dateline', 'agency-dateline', 'dated-agency-dateline']

t.test('the registry names each rule once, describes it, and each has its test here', async (t) => {
  const names = FORMAT_RULES.map((r) => r.name)
  t.same(new Set(names).size, names.length)
  for (const r of FORMAT_RULES) t.ok(r.description.length > 40, r.name)
  t.same([...names].sort(), [...TESTED].sort(), 'every rule of the registry is tested below')
})

t.test('fbis-source-line', async (t) => {
  const text =
    'Radiation Leak Reported at Plant\nAU0202111694 Paris AFP in English 0107 GMT 2 Feb 94\nThe leak was reported by workers at the plant.'
  const { doc, mentions } = given(text, ['ORG:Plant\nAU0202111694 Paris'])
  t.same(
    show(rule('fbis-source-line').apply(doc, mentions, ctx)),
    ['LOC:Paris', 'ORG:AFP'],
    'the place and the source replace the span that ran into the code',
  )
  const prose = 'The shipment left Paris in May, and the buyer in Lyon paid for it in English pounds.'
  const p = given(prose, ['LOC:Paris', 'LOC:Lyon'])
  t.same(show(rule('fbis-source-line').apply(p.doc, p.mentions, ctx)), ['LOC:Paris', 'LOC:Lyon'], 'no document code: nothing changes')
})

t.test('place-source-line', async (t) => {
  const text = 'Tokyo MAINICHI SHIMBUN\nOW1203123494 Tokyo KYODO in English 1150 GMT 12 Mar 94\nThe ministry said the talks would resume.'
  const { doc, mentions } = given(text, ['ORG:Tokyo MAINICHI'])
  const out = show(rule('place-source-line').apply(doc, mentions, ctx))
  t.ok(
    out.includes('LOC:Tokyo') && out.includes('ORG:MAINICHI SHIMBUN'),
    `a line of a place and a source in capitals (got ${out.join(', ')})`,
  )
  const wire = given('Madrid EFE\nThe ministry said the talks would resume.', ['ORG:Madrid EFE'])
  t.same(
    show(rule('place-source-line').apply(wire.doc, wire.mentions, ctx)),
    ['LOC:Madrid', 'ORG:EFE'],
    'without a document code, a source in capitals that is no ordinary word',
  )
  const prose = 'Tokyo NHK said it.\nThe broadcaster said on Monday that its reporters in Tokyo had seen the fire.'
  const q = given(prose, ['ORG:Tokyo NHK', 'LOC:Tokyo'])
  t.same(show(rule('place-source-line').apply(q.doc, q.mentions, ctx)), ['ORG:Tokyo NHK', 'LOC:Tokyo'], 'nor on a short line of prose')
  // Each case: the line, the mentions the tagger gave, what the rule leaves, and why.
  const cases: [string, string[], string[], string][] = [
    [
      'Havana Radio Reloj Network\nThe ministry said the talks would resume.',
      ['ORG:Havana Radio Reloj Network'],
      ['LOC:Havana', 'ORG:Radio Reloj Network'],
      'a broadcaster',
    ],
    [
      'London CALLING\nThe band played the song on Monday.',
      ['LOC:London'],
      ['LOC:London'],
      'outside monitored-press documents, not a heading of ordinary words in capitals',
    ],
    [
      'Moscow ITAR-TASS\nThe ministry said the talks would resume.',
      ['ORG:Moscow ITAR'],
      ['LOC:Moscow', 'ORG:ITAR-TASS'],
      'a hyphen inside the source',
    ],
    [
      'Bangkok THE NATION\nThe ministry said the talks would resume.',
      ['LOC:Bangkok'],
      ['LOC:Bangkok', 'ORG:THE NATION'],
      'a paper named "THE" and a word',
    ],
    [
      'Beijing CHINA DAILY ( SCIENCE MEDICINE )\nThe ministry said the talks would resume.',
      ['LOC:Beijing'],
      ['LOC:Beijing', 'ORG:CHINA DAILY'],
      'a section in brackets after the source is left out',
    ],
    [
      'Athens I KATHIMERINI\nThe ministry said the talks would resume.',
      ['LOC:Athens', 'ORG:KATHIMERINI'],
      ['LOC:Athens', 'ORG:I KATHIMERINI'],
      'a one-letter word opening the source',
    ],
    [
      'Kiev PRAVDA UKRAINY\nThe ministry said the talks would resume.',
      ['LOC:Kiev', 'LOC:UKRAINY'],
      ['LOC:Kiev', 'ORG:PRAVDA UKRAINY'],
      'a place the tagger read as one where the gazetteer does not know it',
    ],
    [
      'Kiev PRAVDA UKRAINY\nThe ministry said the talks would resume.',
      ['ORG:Kiev PRAVDA'],
      ['ORG:Kiev PRAVDA'],
      'nor a place the gazetteer lacks and the tagger did not read as one',
    ],
    [
      'Moscow METEOROLOGIYA I GIDROLOGIYA\nThe ministry said the talks would resume.',
      ['LOC:Moscow'],
      ['LOC:Moscow', 'ORG:METEOROLOGIYA I GIDROLOGIYA'],
      'a one-letter word inside the source',
    ],
    ['Paris - Lyon\nThe train left on Monday.', ['LOC:Paris', 'LOC:Lyon'], ['LOC:Paris', 'LOC:Lyon'], 'a hyphen alone makes no source'],
  ]
  for (const [line, names, expected, why] of cases) {
    const g = given(line, names)
    t.same(show(rule('place-source-line').apply(g.doc, g.mentions, ctx)), expected, why)
  }
})

t.test('agency-dateline', async (t) => {
  const text = 'LOS ANGELES (AP)\nA lobbyist for the city was indicted on Monday.'
  const { doc, mentions } = given(text, ['LOC:LOS ANGELES'])
  t.same(show(rule('agency-dateline').apply(doc, mentions, ctx)), ['LOC:LOS ANGELES', 'ORG:AP'])
  const two = given('BRISBANE, Australia (AP)\nThe state government said the floods had passed.', ['LOC:BRISBANE', 'LOC:Australia'])
  t.same(
    show(rule('agency-dateline').apply(two.doc, two.mentions, ctx)),
    ['LOC:BRISBANE', 'LOC:Australia', 'ORG:AP'],
    'places and a comma before the bracket',
  )
  const prose = given('Our team opened an office near the river in Dortmund (NRW)\nSales grew.', ['LOC:Dortmund'])
  t.same(
    show(rule('agency-dateline').apply(prose.doc, prose.mentions, ctx)),
    ['LOC:Dortmund'],
    'a code in brackets after a place in a sentence is no agency',
  )
})

t.test('dated-agency-dateline', async (t) => {
  const text = '( Text ) Ulaanbaatar , 29 Apr ( XINHUA ) -- The premier signed the agreement on Friday.'
  const { doc, mentions } = given(text, ['ORG:Ulaanbaatar'])
  t.same(show(rule('dated-agency-dateline').apply(doc, mentions, ctx)), ['LOC:Ulaanbaatar', 'ORG:XINHUA'])
  const hyphen = given('Moscow March 5 ( ITAR-TASS ) -- Leading newspapers concentrate on the speech.', ['LOC:Moscow'])
  t.same(
    show(rule('dated-agency-dateline').apply(hyphen.doc, hyphen.mentions, ctx)),
    ['LOC:Moscow', 'ORG:ITAR-TASS'],
    'no comma, a hyphenated agency',
  )
  const prose = given('Sales in Boston rose on May 3 ( EST ) and fell the next day.', ['LOC:Boston'])
  t.same(
    show(rule('dated-agency-dateline').apply(prose.doc, prose.mentions, ctx)),
    ['LOC:Boston'],
    'no dash after the bracket: no dateline',
  )
  const noPlace = given('The plan took effect on May 3 ( UTC ) -- and the markets fell.', [])
  t.same(show(rule('dated-agency-dateline').apply(noPlace.doc, noPlace.mentions, ctx)), [], 'no capitalised place before the date')
})

t.test('town-dateline', async (t) => {
  const text = 'MEMPHIS , Tenn .\nThe newly elected mayor said the budget would pass.'
  const { doc, mentions } = given(text, ['ORG:MEMPHIS'])
  t.same(show(rule('town-dateline').apply(doc, mentions, ctx)), ['LOC:MEMPHIS', 'LOC:Tenn'], 'a town in capitals and a state')
  const agency = given('STOCKTON-ON-TEES , England ( AP ) _ A man won the lottery.', ['LOC:STOCKTON'])
  t.same(
    show(rule('town-dateline').apply(agency.doc, agency.mentions, ctx)),
    ['LOC:STOCKTON-ON-TEES', 'LOC:England'],
    'a country, then an agency',
  )
  const notice = given('WARNING , Texas residents should stay home tonight.', ['LOC:Texas'])
  t.same(show(rule('town-dateline').apply(notice.doc, notice.mentions, ctx)), ['LOC:Texas'], 'the place does not end the line: no dateline')
  const inside = given('The band played in MEMPHIS , Tenn . on Monday.', ['LOC:MEMPHIS', 'LOC:Tenn'])
  t.same(show(rule('town-dateline').apply(inside.doc, inside.mentions, ctx)), ['LOC:MEMPHIS', 'LOC:Tenn'], 'not inside a line')
})
