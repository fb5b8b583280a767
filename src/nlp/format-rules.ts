// Rules for the layout of one kind of source text (wire-service datelines, monitored-press
// source lines), run after the tagger and the general rules of mentions.ts. Each is gated on
// what only that layout has, so that it cannot fire on ordinary prose, and each has a test
// of its own (test/nlp/format-rules.test.ts) that shows it firing and not firing.
import { isSpace, type Tokenized } from './tokens.ts'
import { mentionFromTokens, type Mention } from './entities.ts'
import { GAZ_CLASSES } from './features/lexicon.ts'

export interface RuleContext {
  /** Gazetteer classes (bits of GAZ_CLASSES) of a phrase of lower-case words. */
  gaz(words: string[]): number
}

export interface FormatRule {
  name: string
  /** What the layout is and what the rule makes of it. */
  description: string
  /** The mentions after the rule: it may drop, add or retype. */
  apply(doc: Tokenized, mentions: Mention[], ctx: RuleContext): Mention[]
}

const TITLE_CASE = /^\p{Lu}\p{Ll}+$/u
const ALL_CAPS_WORD = /^\p{Lu}[\p{Lu}-]+$/u
const ACRONYM = /^\p{Lu}{2,6}$/u
const FBIS_CODE = /^[A-Z]{2}\d{10}$/
const FBIS_CODE_2 = /^[A-Z]{2}\d{4}[A-Z]$/
const GAZ_PLACE = (1 << GAZ_CLASSES.indexOf('city')) | (1 << GAZ_CLASSES.indexOf('country'))
const GAZ_COMMON = 1 << GAZ_CLASSES.indexOf('common')
// A known place: a city, country or region, or a name the training corpora label a place.
const GAZ_PLACE_OR_REGION = GAZ_PLACE | (1 << GAZ_CLASSES.indexOf('region')) | (1 << GAZ_CLASSES.indexOf('tLOC'))

// AP-style abbreviations of US states, as written after a town.
export const US_STATE_ABBR =
  /^(?:Ala|Ariz|Ark|Calif|Colo|Conn|Del|Fla|Ga|Ill|Ind|Kan|Kans|Ky|La|Md|Mass|Mich|Minn|Miss|Mo|Mont|Neb|Nev|N\.H|N\.J|N\.M|N\.Y|N\.C|N\.D|Okla|Ore|Pa|R\.I|S\.C|S\.D|Tenn|Tex|Vt|Va|Wash|W\.Va|Wis|Wyo)\.$/
// The same without the dot ("Sauk Center , Minn", "Tupelo , Miss ."); several are words too
// ("Miss", "Mass", "Wash"), so each use says where one may stand.
export const US_STATE_ABBR_BARE =
  /^(?:Ala|Ariz|Ark|Calif|Colo|Conn|Del|Fla|Ga|Ill|Ind|Kan|Kans|Ky|La|Md|Mass|Mich|Minn|Miss|Mo|Mont|Neb|Nev|N\.H|N\.J|N\.M|N\.Y|N\.C|N\.D|Okla|Ore|Pa|Penn|R\.I|S\.C|S\.D|Tenn|Tex|Vt|Va|Wash|W\.Va|Wis|Wyo)$/

/** The longest known city or country of one to three words at `from`, ending before `limit`: its end, or -1. */
function placeEnd(doc: Tokenized, from: number, limit: number, ctx: RuleContext): number {
  for (let p = Math.min(from + 3, limit); p > from; p--) {
    const ws: string[] = []
    for (let i = from; i < p; i++) ws.push(doc.tokens[i].text.toLowerCase())
    if (ctx.gaz(ws) & GAZ_PLACE) return p
  }
  return -1
}

/** Index of the first token of an FBIS document code ("AU0202111694", or "94" "AS0286D"), from `k`; -1 if none. */
function fbisCodeAt(doc: Tokenized, k: number): { drop: number } | undefined {
  const w = doc.tokens[k].text
  if (w.length === 12 && FBIS_CODE.test(w)) return { drop: k }
  if (w.length === 7 && k > 0 && FBIS_CODE_2.test(w) && /^\d\d$/.test(doc.tokens[k - 1].text)) return { drop: k - 1 }
  return undefined
}

/** Replaces the mentions in [drop, end) (and one that runs into `drop`) by a place [from, split) and a source [split, end). */
function sourceLine(doc: Tokenized, mentions: Mention[], drop: number, from: number, split: number, end: number): Mention[] {
  const out = mentions.filter((m) => !((m.first >= drop && m.first < end) || (m.first < drop && m.last > drop)))
  // The layout states both types: the tagger's margins there (often slight) are no evidence.
  out.push(
    { ...mentionFromTokens(doc.text, doc.tokens, from, split, 'LOC'), stated: true },
    { ...mentionFromTokens(doc.text, doc.tokens, split, end, 'ORG'), stated: true },
  )
  return out.sort((x, y) => x.first - y.first)
}

const fbisSourceLine: FormatRule = {
  name: 'fbis-source-line',
  description:
    'Source lines of monitored press and broadcasts (FBIS): "[headline] AU0202111694 Paris AFP in English 0107 GMT 2 Feb 94" ' +
    '(or a code such as 94AS0286D). After the document code, the longest known city or country (up to three words; else the ' +
    'title-case words before a source in capitals) is a place and the words up to "in" and a language the source; the ' +
    "tagger's mentions there are dropped, with any that ran from the headline into the code. Gate: the document code.",
  apply(doc, mentions, ctx) {
    const toks = doc.tokens
    for (let k = 0; k + 3 < toks.length; k++) {
      const code = fbisCodeAt(doc, k)
      if (!code) continue
      let end = -1
      for (let m = k + 3; m < Math.min(toks.length - 1, k + 10) && toks[m].sent === toks[k].sent; m++) {
        if (toks[m].text === 'in' && /^\p{Lu}\p{Ll}+/u.test(toks[m + 1].text)) {
          end = m
          break
        }
      }
      if (end < 0) continue
      let split = placeEnd(doc, k + 1, end - 1, ctx)
      // A place the gazetteer does not know ("Madras THE HINDU"): the title-case words before a source in capitals.
      if (split < 0) {
        let p = k + 1
        while (p < end && TITLE_CASE.test(toks[p].text)) p++
        if (p > k + 1 && p - k - 1 <= 3 && p < end && ALL_CAPS_WORD.test(toks[p].text)) split = p
      }
      if (split > 0) mentions = sourceLine(doc, mentions, code.drop, k + 1, split, end)
    }
    return mentions
  },
}

/** A broadcaster's name from `from` to `end`: "Radio" and capitalised words ("Radio Reloj Network"). */
function broadcaster(doc: Tokenized, from: number, end: number): boolean {
  if (end - from < 2 || doc.tokens[from].text !== 'Radio') return false
  for (let i = from + 1; i < end; i++) if (!/^\p{Lu}/u.test(doc.tokens[i].text)) return false
  return true
}

const placeSourceLine: FormatRule = {
  name: 'place-source-line',
  description:
    'A line of a known place and one to four words in capitals alone ("Tokyo MAINICHI SHIMBUN", "Madrid EFE"), or a ' +
    'broadcaster ("Havana Radio Reloj Network"), is a place and a source, as monitored-press and wire copy credit ' +
    'their source; the capitals may hold a hyphen or a one-letter word ("ITAR-TASS", "METEOROLOGIYA I GIDROLOGIYA"), open ' +
    'with "THE" or a one-letter word ("THE NATION", "I KATHIMERINI") and be followed by a section in brackets ("CHINA DAILY ( SCIENCE MEDICINE )"), left out. ' +
    'The place is one the gazetteer knows, or one the tagger read as a place ("Kiev PRAVDA UKRAINY"). ' +
    'Gate: the line alone, and in documents without an FBIS document code a source word in capitals ' +
    'that is no ordinary word ("London CALLING" is a heading), or "Radio" and capitalised words.',
  apply(doc, mentions, ctx) {
    const toks = doc.tokens
    let monitored = false
    for (let k = 0; k < toks.length && !monitored; k++) if (fbisCodeAt(doc, k)) monitored = true
    for (const sl of doc.sentences) {
      const k = sl.first
      if (!TITLE_CASE.test(toks[k].text) || sl.last - k > 9 || sl.last - k < 2) continue
      if (!/\n/.test(doc.text.slice(sl.end, sl.end + 2)) && sl.end !== doc.text.length) continue
      if (k > 0 && !opensLine(doc.text, sl.start)) continue
      // A section in brackets after the source ("CHINA DAILY ( SCIENCE MEDICINE )") is no part of its name.
      let end = sl.last
      if (toks[end - 1].text === ')')
        for (let o = end - 2; o > k + 1; o--)
          if (toks[o].text === '(') {
            end = o
            break
          } else if (!ALL_CAPS_WORD.test(toks[o].text)) break
      if (end - k > 6) continue
      let split = placeEnd(doc, k, end - 1, ctx)
      // A place the gazetteer lacks ("Kiev") that the tagger read as one, opening the line.
      if (split < 0) split = mentions.find((m) => m.first === k && m.type === 'LOC' && m.last - k <= 3 && m.last < end)?.last ?? -1
      if (split < 0) continue
      let caps = true
      // A paper's name opens with "THE" ("THE NATION"), though its words are ordinary ones.
      let named = toks[split].text === 'THE' && end - split > 1
      for (let i = split; i < end; i++) {
        const w = toks[i].text
        // "ITAR - TASS", "METEOROLOGIYA I GIDROLOGIYA", "I KATHIMERINI": a hyphen inside the name, a
        // one-letter word inside it or opening it.
        if (i < end - 1 && ((i > split && w === '-') || /^\p{Lu}$/u.test(w))) continue
        if (!ALL_CAPS_WORD.test(w)) caps = false
        else if (!(ctx.gaz([w.toLowerCase()]) & GAZ_COMMON)) named = true
      }
      if ((caps && (monitored || named)) || broadcaster(doc, split, end)) mentions = sourceLine(doc, mentions, k, k, split, end)
    }
    return mentions
  },
}

const MONTH = /^(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)(?:[a-z]*)\.?$/
const DAY = /^\d{1,2}$/
/** The dash (or underscore) that ends a dateline. */
const DATELINE_END = /^(?:_|--|—|–)$/

/** Whether `offset` opens a line: a line break, maybe with spaces, just before it. */
function opensLine(text: string, offset: number): boolean {
  // As /\n\s*$/ on the three characters before `offset`, without a slice and a match for
  // every token of every text: back from `offset`, white space up to a line break.
  for (let k = offset - 1; k >= Math.max(0, offset - 3); k--) {
    const c = text.charCodeAt(k)
    if (c === 10) return true
    if (!isSpace(c)) return false
  }
  return false
}

/** The agency's name in brackets from `open` ("(" XINHUA ")", "(" ITAR - TASS ")"): the index of ")", or -1. */
function bracketedAgency(doc: Tokenized, open: number): number {
  const toks = doc.tokens
  let i = open + 1
  if (i >= toks.length || !ACRONYM.test(toks[i].text)) return -1
  i++
  while (i + 1 < toks.length && toks[i].text === '-' && toks[i].start === toks[i - 1].end && ACRONYM.test(toks[i + 1].text)) i += 2
  return i < toks.length && toks[i].text === ')' ? i : -1
}

const datedAgencyDateline: FormatRule = {
  name: 'dated-agency-dateline',
  description:
    'A wire dateline with its date: "Seoul , May 3 ( YONHAP ) --", "Moscow March 5 ( ITAR-TASS ) --": a place, a ' +
    'day and a month, then a word in capitals in brackets and a dash; the word is the agency, an organization, and ' +
    'the words before the date a place. Gate: the date, the bracket and the dash right after it.',
  apply(doc, mentions, ctx) {
    const toks = doc.tokens
    let out = mentions
    for (let o = 3; o + 3 < toks.length; o++) {
      if (toks[o].text !== '(') continue
      const close = bracketedAgency(doc, o)
      if (close < 0 || close + 1 >= toks.length || !DATELINE_END.test(toks[close + 1].text)) continue
      // The date: "May 3" or "29 Apr", then an optional comma before it.
      const d1 = toks[o - 2].text
      const d2 = toks[o - 1].text
      if (!((MONTH.test(d1) && DAY.test(d2)) || (DAY.test(d1) && MONTH.test(d2)))) continue
      let e = o - 2
      if (toks[e - 1].text === ',') e--
      let p = e
      while (p > 0 && e - p < 3 && /^\p{Lu}\p{Ll}/u.test(toks[p - 1].text) && toks[p - 1].sent === toks[o].sent) p--
      if (p === e || ctx.gaz(toks.slice(p, e).map((t) => t.text.toLowerCase())) & GAZ_COMMON) continue
      out = out.filter((m) => m.last <= p || m.first >= close)
      out.push({ ...mentionFromTokens(doc.text, toks, p, e, 'LOC'), stated: true })
      out.push({ ...mentionFromTokens(doc.text, toks, o + 1, close, 'ORG'), stated: true })
      out.sort((x, y) => x.first - y.first)
    }
    return out
  },
}

const agencyDateline: FormatRule = {
  name: 'agency-dateline',
  description:
    'A wire dateline: "LOS ANGELES ( AP )", "BRISBANE , Australia ( AP )": at the start of a line, places (and commas) ' +
    'then a word in capitals in brackets that ends the line or sentence; the word is the agency, an organization. Gate: ' +
    'nothing but the places stands before the bracket on its line, and the word is no ordinary word.',
  apply(doc, mentions, ctx) {
    const toks = doc.tokens
    const covered = new Uint8Array(toks.length)
    for (const m of mentions) for (let i = m.first; i < m.last; i++) covered[i] = 1
    const added: Mention[] = []
    for (const m of mentions) {
      const b = m.last
      if (m.type !== 'LOC' || b + 2 >= toks.length || toks[b].text !== '(' || toks[b + 2].text !== ')' || covered[b + 1]) continue
      const s = doc.sentences[toks[m.first].sent]
      if (toks[b + 2].sent !== toks[m.first].sent || b + 3 !== s.last || !ACRONYM.test(toks[b + 1].text)) continue
      if (ctx.gaz([toks[b + 1].text.toLowerCase()]) & GAZ_COMMON) continue
      // The line starts with the dateline: only places and commas from its start to the bracket.
      if (s.start > 0 && !opensLine(doc.text, s.start)) continue
      let placesOnly = true
      for (let i = s.first; i < m.first; i++) {
        if (toks[i].text === ',') continue
        if (!mentions.some((o) => o.type === 'LOC' && o.first <= i && i < o.last)) placesOnly = false
      }
      if (!placesOnly) continue
      added.push({ ...mentionFromTokens(doc.text, toks, b + 1, b + 2, 'ORG'), stated: true })
    }
    return added.length ? [...mentions, ...added].sort((x, y) => x.first - y.first) : mentions
  },
}

/** Words in capitals of a dateline's town: "MEMPHIS", "STOCKTON-ON-TEES", "ST." */
const CAPS_TOWN_WORD = /^\p{Lu}[\p{Lu}.'-]*$/u

const townDateline: FormatRule = {
  name: 'town-dateline',
  description:
    'A dateline of a town in capitals and its state or country: "MEMPHIS , Tenn .", "BELGRADE , Yugoslavia ( AP )": ' +
    'at the start of a line, one to three words in capitals, a comma, then a US state or a known place of one or two ' +
    'words, and the line ends or an agency in brackets or a dash follows. Both are places; the spans the tagger cut ' +
    'there are replaced. Gate: the line starts with the words in capitals, and the place ends the dateline.',
  apply(doc, mentions, ctx) {
    const toks = doc.tokens
    let out = mentions
    for (let k = 0; k + 2 < toks.length; k++) {
      if (k > 0 && !opensLine(doc.text, toks[k].start)) continue
      let c = k
      while (c < toks.length && c - k < 5) {
        // A hyphen written inside the name ("STOCKTON-ON-TEES") joins its words.
        if (c > k && toks[c].text === '-' && c + 1 < toks.length && toks[c].start === toks[c - 1].end && toks[c + 1].start === toks[c].end)
          c++
        else if (CAPS_TOWN_WORD.test(toks[c].text) && /\p{Lu}{2}/u.test(toks[c].text)) c++
        else break
      }
      if (c > k && toks[c - 1].text === '-') continue
      if (c === k || c + 1 >= toks.length || toks[c].text !== ',' || toks[c].sent !== toks[k].sent) continue
      // The state or country: an abbreviation (dotted or not), or a known place of one or two title-case words.
      let e = -1
      const p = c + 1
      if (US_STATE_ABBR.test(toks[p].text) || US_STATE_ABBR_BARE.test(toks[p].text)) e = p + 1
      else
        for (let q = Math.min(p + 2, toks.length); q > p; q--) {
          let titled = true
          for (let i = p; i < q; i++) if (!/^\p{Lu}\p{Ll}/u.test(toks[i].text)) titled = false
          if (titled && ctx.gaz(toks.slice(p, q).map((t) => t.text.toLowerCase())) & GAZ_PLACE_OR_REGION) {
            e = q
            break
          }
        }
      if (e < 0) continue
      // What follows: the end of the line (a lone full stop may close it), an agency in brackets, or a dash.
      let f = e
      if (f < toks.length && toks[f].text === '.') f++
      const lineEnds = f === toks.length || /\n/.test(doc.text.slice(toks[f - 1].end, toks[f].start))
      const agency = f + 2 < toks.length && toks[f].text === '(' && ACRONYM.test(toks[f + 1].text) && toks[f + 2].text === ')'
      if (!lineEnds && !agency && !(f < toks.length && DATELINE_END.test(toks[f].text))) continue
      out = out.filter((m) => m.last <= k || m.first >= e)
      out.push({ ...mentionFromTokens(doc.text, toks, k, c, 'LOC'), stated: true })
      out.push({ ...mentionFromTokens(doc.text, toks, p, e, 'LOC'), stated: true })
      out.sort((x, y) => x.first - y.first)
      k = e
    }
    return out
  },
}

/** The rules, in the order they run (not in informal text). */
export const FORMAT_RULES: readonly FormatRule[] = [fbisSourceLine, placeSourceLine, townDateline, agencyDateline, datedAgencyDateline]
