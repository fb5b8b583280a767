// An office alone ("the Pope", "Bishop of Ely", "3rd Baronet") names no one, nor does a legal form,
// an officer's title, a degree or a medium alone: each rule fires on the shapes it was written for
// and not on a near miss.
import t from 'tap'
import { loneOffice, namesNothing } from '../../src/nlp/mentions.ts'
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

t.test("a legal form, an officer's title, a degree or a medium alone names nothing; inside a name it stays", async (t) => {
  const nothing = (text: string, word: string) => namesNothing(...rangeOf(text, word))
  t.ok(nothing('Notices to Borrower : Vringo , Inc .', 'Inc'))
  t.ok(nothing('He was the former CEO of Norges Statsbaner .', 'CEO'))
  t.ok(nothing('GWS USA , LLC was established in 2004 .', 'LLC'))
  t.ok(nothing('She received various Bollywood and TV offers .', 'TV'))
  t.notOk(nothing('Shares of Apple Inc rose .', 'Apple Inc'), 'the legal form closing a name')
  t.notOk(nothing('The show aired on TV Globo in 1990 .', 'TV Globo'), 'a channel named TV')
  t.notOk(nothing('She joined Vringo in 2012 .', 'Vringo'), 'a name')
})
