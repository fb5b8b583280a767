// tokenize() blanks a run of 200 or more characters without white space (wink slows down
// sharply on one), and leaves every shorter run, and any run that white space breaks, as it is.
import t from 'tap'
import { tokenize } from '../../src/nlp/tokens.ts'

const words = (text: string) => tokenize(text).tokens.map((x) => x.text)

t.test('a run of 200 characters without white space is blanked', async (t) => {
  t.same(words(`Paris ${'x'.repeat(200)}`), ['Paris'])
  // A zero-width space is not white space: it does not break the run.
  t.same(words(`Paris ${'x'.repeat(100)}\u200b${'x'.repeat(99)}`), ['Paris'])
})

t.test('a run of 199, or one broken by white space beyond ASCII, is read as it is', async (t) => {
  t.same(words(`Paris ${'x'.repeat(199)}`), ['Paris', 'x'.repeat(199)])
  for (const space of ['\u00a0', '\u2003', '\u3000', '\ufeff']) {
    t.ok(words(`Paris ${'x'.repeat(150)}${space}${'x'.repeat(150)}`).length > 1, `broken by U+${space.charCodeAt(0).toString(16)}`)
  }
})
