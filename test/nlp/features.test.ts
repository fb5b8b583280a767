// letterFacts answers exactly what the three regular expressions it stands for would; lowerForms
// is computed once per document and is what its readers computed each for themselves before;
// shapeHash is the hash of the shape string the features were trained with.
import t from 'tap'
import { fnv } from '../../src/nlp/features/hashing.ts'
import { HAS_LETTER_BIT, HAS_LOWER_BIT, UPPER_START_BIT, letterFacts, lowerForms, shapeHash } from '../../src/nlp/features/document.ts'
import { wordHashes } from '../../src/nlp/relations.ts'
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
