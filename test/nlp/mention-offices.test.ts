// An office alone ("the Pope", "Bishop of Ely", "3rd Baronet") names no one: the rule fires on the
// shapes it was written for and not on an office before a name, a surname or a headline.
import t from 'tap'
import { loneOffice } from '../../src/nlp/mentions.ts'
import { rangeOf } from '../helpers/token-range.ts'

const lone = (text: string, word: string) => loneOffice(...rangeOf(text, word))

t.test('an office after "the" or an ordinal, or before "of" and a name, is no person', async (t) => {
  t.ok(lone('All were supporters of the Pope , and all were excommunicated .', 'Pope'))
  t.ok(lone('The Queen was also the monarch of the islands .', 'Queen'))
  t.ok(lone('He was the son of Victor Brooke , 3rd Baronet , and the uncle of Sir Basil .', 'Baronet'))
  t.ok(lone('He was Archbishop of Rouen , Bishop of Ely , and Cardinal .', 'Bishop'))
  t.ok(lone('He was crowned King of Sweden in 1907 .', 'King'))
})

t.test('an office before a name, a surname and a headline are left to the tagger', async (t) => {
  t.notOk(lone('Pope Benedict XVI plans on Sunday to visit .', 'Pope'), 'before a name: two words of a span, never one')
  t.notOk(lone('Pope says atheists pick and choose .', 'Pope'), 'a headline without "the"')
  t.notOk(lone('He is serving 99 years for assassinating King in Memphis .', 'King'), 'a surname before "in"')
  t.notOk(lone('Carole King of New York sang .', 'Carole King'), 'two words')
  t.notOk(lone('Duke of Cambridge talks warmly .', 'Duke'), 'an office the list does not hold')
  t.notOk(lone('The King of the Hill is a show , said Prince .', 'Prince'), 'after a comma and a verb')
  t.notOk(lone('Bishop of the county said no .', 'Bishop'), 'no capitalised word after "of"')
})
