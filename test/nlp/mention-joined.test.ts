// What one plays for, signs with, is lent to or is a member of is a club, a band or a body: each
// cue fires on the case it was written for and not on a near miss.
import t from 'tap'
import { joinedBody } from '../../src/nlp/mentions.ts'
import { GAZ_CLASSES } from '../../src/nlp/features/lexicon.ts'
import type { EntityType } from '../../src/nlp/entities.ts'
import { rangeOf } from '../helpers/token-range.ts'

const bit = (c: (typeof GAZ_CLASSES)[number]) => 1 << GAZ_CLASSES.indexOf(c)
const GAZ: Record<string, number> = {
  england: bit('tLOC'),
  brazil: bit('country') | bit('tLOC'),
  berlin: bit('city') | bit('tLOC'),
  jarrow: bit('tORG'),
  'whitley bay': bit('city') | bit('tORG'),
  john: bit('first'),
}
const ctx = { gaz: (words: string[]) => GAZ[words.join(' ')] ?? 0 }
const joined = (text: string, name: string, type: EntityType = 'PER') => joinedBody(...rangeOf(text, name), type, ctx)

t.test('a club one plays for, signs for or is lent to is an organization, and so is the next name of the list', async (t) => {
  t.ok(joined('He previously played for English lower league sides Jarrow and Whitley Bay .', 'Whitley Bay', 'LOC'))
  t.ok(joined('He later played for Jarrow in the northern league .', 'Jarrow'))
  t.ok(joined('He returned to Austria and signed for Red Bull Salzburg , where he stayed .', 'Red Bull Salzburg'))
  t.ok(joined('After loan spells with Metropolitano and Treze during 2008 , he returned .', 'Treze', 'OBJ'))
  t.ok(joined('He spent a season on loan at Rio Ave before 2013 .', 'Rio Ave', 'LOC'))
  t.ok(joined('He was drafted by the Dallas Cowboys in 1990 .', 'Dallas Cowboys'))
  t.ok(joined('She plays as a forward for a Dutch club MHC Laren .', 'MHC Laren'))
  t.ok(joined('He joined Olaria in 2009 and stayed two years .', 'Olaria', 'LOC'))
})

t.test('a band or a body one is a member of is an organization', async (t) => {
  t.ok(joined('He was also a member of Nightrage between 2006 and 2011 .', 'Nightrage'))
})

t.test('a country one plays for, a town one is transferred to and a person one joins or signs with are not', async (t) => {
  t.notOk(joined('He played for England in 1966 and retired .', 'England', 'LOC'), 'a name the data types a place')
  t.notOk(joined('He played for Brazil in 1970 .', 'Brazil', 'LOC'), 'a country')
  t.notOk(joined('The officer was transferred to Berlin in 1970 .', 'Berlin', 'LOC'), 'a town one is sent to')
  t.notOk(joined('She joined Smith at the bank in 1990 .', 'Smith'), 'a person one joins')
  t.notOk(joined('He signed with John Brown , a lawyer , in 1990 .', 'John Brown'), 'a first name')
  t.notOk(joined('He wrote for Rolling Stone in 1990 .', 'Rolling Stone', 'OBJ'), 'no cue')
  t.notOk(joined('He lived in Jarrow for many years .', 'Jarrow'), 'a preposition of place')
  t.notOk(joined('It imagines a member of the Kennedy family as President .', 'Kennedy'), 'a family named after a person')
})

t.test('a player by position, a list of teams and a club one played with are organizations; a person one played with is not', async (t) => {
  t.ok(joined('He played as a right winger for River Plate from 1939 .', 'River Plate', 'LOC'))
  t.ok(joined('He played for teams such as : FC U Craiova , Dinamo București , Politehnica Timișoara .', 'Politehnica Timișoara'))
  t.ok(joined('He played with Olaria until the end of the year .', 'Olaria', 'LOC'))
  t.notOk(joined('He played with Lennon in 1957 .', 'Lennon'), 'a person')
  t.notOk(joined('He was known as such as : Dinamo .', 'Dinamo'), 'no kind of team before "such as"')
})
