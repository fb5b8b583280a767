// collapseSpaces is `replace(/\s+/g, ' ')` with the expression skipped when there is nothing to
// collapse: the same result on every input, whichever way it is reached.
import t from 'tap'
import { collapseSpaces } from '../../src/nlp/tokens.ts'

const byExpression = (s: string) => s.replace(/\s+/g, ' ')

t.test('words joined by single spaces are returned as they are', async (t) => {
  for (const s of ['', 'Tim Cook', 'University of California', ' lead', 'trail ', 'a b c']) t.equal(collapseSpaces(s), byExpression(s), s)
})

t.test('runs of spaces, tabs, line breaks and other white space are collapsed to one space', async (t) => {
  const cases = ['Tim  Cook', 'Tim\tCook', 'Tim\nCook', 'Tim\u00a0Cook', 'Tim \u3000 Cook', '  ', '\ufeffTim', 'Tim\r\n']
  for (const s of cases) t.equal(collapseSpaces(s), byExpression(s), JSON.stringify(s))
  t.equal(collapseSpaces('Tim \t\n Cook'), 'Tim Cook')
})

t.test('every UTF-16 code unit between two letters, alone and doubled, as the expression reads it', async (t) => {
  let differ = 0
  for (let c = 0; c < 0x10000; c++) {
    const u = String.fromCharCode(c)
    for (const s of [`a${u}b`, `a${u}${u}b`, `a ${u}b`]) if (collapseSpaces(s) !== byExpression(s)) differ++
  }
  t.equal(differ, 0)
})
