// letterFacts answers exactly what the three regular expressions it stands for would; lowerForms
// is computed once per document and is what its readers computed each for themselves before;
// shapeHash is the hash of the shape string the features were trained with; long-name runs join
// capitalised words across connectors and nothing else.
import t from 'tap'
import { fnv } from '../../src/nlp/features/hashing.ts'
import {
  HAS_LETTER_BIT,
  HAS_LOWER_BIT,
  UPPER_START_BIT,
  docInfo,
  letterFacts,
  lowerForms,
  shapeHash,
} from '../../src/nlp/features/document.ts'
import { wordHashes } from '../../src/nlp/relations.ts'
import { featureList, staticFeatures } from '../../src/nlp/features/tagger.ts'
import { tokenize } from '../../src/nlp/tokens.ts'

t.test('letterFacts agrees with \\p{L}, \\p{Ll} and ^\\p{Lu}', async (t) => {
  const words = [
    '',
    'a',
    'A',
    'z',
    'Z',
    '@',
    '[',
    '`',
    '{',
    '0',
    '1996-08-30',
    'McDonald',
    'NATO',
    'iPhone',
    "'s",
    'U.S.',
    '...',
    ':)',
    'Łódź',
    'émile',
    'Émile',
    'straße',
    'ÆON',
    'Δx',
    'δx',
    '東京',
    'ǅemal',
    'ªb',
    '1a',
    '\u00a0',
    'Ⅻ',
    '😀',
    '😀A',
    'A😀',
    '\ud800',
    'x\udc00',
  ]
  for (const w of words) {
    const want =
      (/\p{L}/u.test(w) ? HAS_LETTER_BIT : 0) | (/\p{Ll}/u.test(w) ? HAS_LOWER_BIT : 0) | (/^\p{Lu}/u.test(w) ? UPPER_START_BIT : 0)
    t.equal(letterFacts(w), want, JSON.stringify(w))
  }
  // Every single UTF-16 code unit, alone and after an ASCII capital and small letter.
  let wrong = 0
  for (let c = 0; c < 0x10000; c++) {
    for (const w of [String.fromCharCode(c), 'A' + String.fromCharCode(c), String.fromCharCode(c) + 'a']) {
      const want =
        (/\p{L}/u.test(w) ? HAS_LETTER_BIT : 0) | (/\p{Ll}/u.test(w) ? HAS_LOWER_BIT : 0) | (/^\p{Lu}/u.test(w) ? UPPER_START_BIT : 0)
      if (letterFacts(w) !== want) wrong++
    }
  }
  t.equal(wrong, 0, 'all code units agree')
})

t.test('lowerForms: once per document, the lower-cased tokens and their hashes', async (t) => {
  const doc = tokenize('Tim Cook visited the ÉCOLE in Paris. He met İsmail there.')
  const forms = lowerForms(doc)
  t.equal(lowerForms(doc), forms, 'the same object for the same document')
  t.same(
    forms.lower,
    doc.tokens.map((x) => x.text.toLowerCase()),
  )
  t.same(
    Array.from(forms.hashes),
    doc.tokens.map((x) => fnv(x.text.toLowerCase())),
  )
  t.equal(wordHashes(doc), forms.hashes, 'wordHashes reads the same hashes')
  t.not(lowerForms(tokenize('Tim Cook visited the ÉCOLE in Paris. He met İsmail there.')), forms, 'another document, its own forms')
})

t.test('shapeHash is fnv of the collapsed shape string (at most six classes)', async (t) => {
  const cases: [string, string][] = [
    ['McDonald', 'XxXx'],
    ['1996-08-30', 'd-d-d'],
    ['NATO', 'X'],
    ["'s", "'x"],
    ['U.S.', 'X.X.'],
    ['', ''],
    ['a-b-c-d-e', 'x-x-x-'],
    ['Zürich', 'Xx'],
    ['東京', 'a'],
    ['😀A', 'oX'],
    ['Ⅻ1', 'd'],
    ['x\udc00y', 'xox'],
  ]
  for (const [w, shape] of cases) t.equal(shapeHash(w), fnv(shape), JSON.stringify(w))
})

t.test('nameRun: capitalised words joined across connectors, with the head and first words', async (t) => {
  const doc = tokenize('He studied at the City University of New York and Warp Records in London on Monday.')
  const info = docInfo(doc, new Map())
  const at = (w: string) => doc.tokens.findIndex((x) => x.text === w)
  const [city, of, york, warp, records] = ['City', 'of', 'York', 'Warp', 'Records'].map(at)
  // One run "City University of New York", holding a connector: first, connector inside, last.
  t.equal(info.nameRun[city], 1 + 0 * 4 + 0 + 1)
  t.equal(info.nameRun[of], 1 + 1 * 4 + 2 + 1)
  t.equal(info.nameRun[york], 1 + 2 * 4 + 0 + 1)
  t.equal(info.nameLen[of], 5)
  t.equal(info.nameHead[city], fnv('york'))
  t.equal(info.nameFirst[york], fnv('city'))
  // A plain two-word run has no connector bit.
  t.equal(info.nameRun[warp], 1)
  t.equal(info.nameHead[warp], fnv('records'))
  t.equal(info.nameRun[records], 9)
  // Not fired: "and" or "on" between two names, a single capitalised word, ordinary words.
  t.equal(info.nameLen[warp], 2)
  for (const w of ['London', 'on', 'Monday', 'and', 'the', 'studied']) t.equal(info.nameRun[at(w)], 0, w)
  t.equal(info.nameRun[at('He')], 0, 'a one-word run is no long name')
})

t.test('nameRun: a hyphen written without spaces joins, one with spaces does not', async (t) => {
  const doc = tokenize('Kang Won-yong met Jean-Paul Sartre - and Paris - in a long-term plan.')
  const info = docInfo(doc, new Map())
  const at = (w: string, from = 0) => doc.tokens.findIndex((x, i) => i >= from && x.text === w)
  t.equal(info.nameLen[at('Kang')], 4)
  t.equal(info.nameHead[at('Kang')], fnv('yong'))
  t.equal(info.nameRun[at('yong')], 1 + 2 * 4 + 2 + 1)
  t.equal(info.nameLen[at('Jean')], 4)
  t.equal(info.nameHead[at('Jean')], fnv('sartre'))
  t.equal(info.nameRun[at('-', at('Sartre'))], 0, 'a spaced dash')
  for (const w of ['Paris', 'long', 'term']) t.equal(info.nameRun[at(w)], 0, w)
})

t.test('nameRun: nothing in an all-caps headline', async (t) => {
  const doc = tokenize('BANK OF AMERICA BUYS FLEET BOSTON.\nThe deal closed on Monday.')
  const info = docInfo(doc, new Map())
  for (let i = 0; i < doc.tokens.length; i++) if (info.headline[i]) t.equal(info.nameRun[i], 0, doc.tokens[i].text)
  t.ok(info.headline.some((h) => h === 1))
})

t.test('the tagger reads a long-name run as four features of the token, and nothing outside one', async (t) => {
  const doc = tokenize('He studied at the City University of New York last year.')
  const info = docInfo(doc, new Map())
  const count = (i: number) => {
    const list = featureList()
    staticFeatures(doc, info, i, list)
    return list.n
  }
  const of = doc.tokens.findIndex((x) => x.text === 'of')
  const studied = doc.tokens.findIndex((x) => x.text === 'studied')
  const withRun = count(of)
  const before = count(studied)
  info.nameRun[of] = 0
  info.nameRun[studied] = 0
  t.equal(withRun - count(of), 4)
  t.equal(before - count(studied), 0)
})

t.test('nameRun: a function word first in the sentence starts no long name', async (t) => {
  const doc = tokenize('The European Space Agency hired him. Then Bank of the West hired her. Warp Records signed them.')
  const info = docInfo(doc, new Map())
  const at = (w: string) => doc.tokens.findIndex((x) => x.text === w)
  t.equal(info.nameRun[at('The')], 0)
  t.equal(info.nameFirst[at('Agency')], fnv('european'))
  t.equal(info.nameRun[at('Then')], 0)
  t.equal(info.nameLen[at('Bank')], 4)
  t.equal(info.nameFirst[at('Records')], fnv('warp'), 'a name first in its sentence still starts one')
})
