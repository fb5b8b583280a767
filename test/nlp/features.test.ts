// letterFacts answers exactly what the three regular expressions it stands for would.
import t from 'tap'
import { HAS_LETTER_BIT, HAS_LOWER_BIT, UPPER_START_BIT, letterFacts } from '../../src/nlp/features.ts'

t.test('letterFacts agrees with \\p{L}, \\p{Ll} and ^\\p{Lu}', async (t) => {
  const words = [
    '', 'a', 'A', 'z', 'Z', '@', '[', '`', '{', '0', '1996-08-30', 'McDonald', 'NATO', 'iPhone', "'s", 'U.S.', '...', ':)',
    'Łódź', 'émile', 'Émile', 'straße', 'ÆON', 'Δx', 'δx', '東京', 'ǅemal', 'ªb', '1a', '\u00a0', 'Ⅻ', '😀', '😀A', 'A😀', '\ud800', 'x\udc00',
  ]
  for (const w of words) {
    const want = (/\p{L}/u.test(w) ? HAS_LETTER_BIT : 0) | (/\p{Ll}/u.test(w) ? HAS_LOWER_BIT : 0) | (/^\p{Lu}/u.test(w) ? UPPER_START_BIT : 0)
    t.equal(letterFacts(w), want, JSON.stringify(w))
  }
  // Every single UTF-16 code unit, alone and after an ASCII capital and small letter.
  let wrong = 0
  for (let c = 0; c < 0x10000; c++) {
    for (const w of [String.fromCharCode(c), 'A' + String.fromCharCode(c), String.fromCharCode(c) + 'a']) {
      const want = (/\p{L}/u.test(w) ? HAS_LETTER_BIT : 0) | (/\p{Ll}/u.test(w) ? HAS_LOWER_BIT : 0) | (/^\p{Lu}/u.test(w) ? UPPER_START_BIT : 0)
      if (letterFacts(w) !== want) wrong++
    }
  }
  t.equal(wrong, 0, 'all code units agree')
})
