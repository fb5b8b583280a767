// Entity mentions → canonical entities: merges the mentions of one entity ("Tim Cook" …
// "Cook" → "Tim Cook") and ranks entities by salience.
import { collapseSpaces, type Token } from './tokens.ts'

export type EntityType = 'PER' | 'ORG' | 'LOC' | 'OBJ'

export interface Mention {
  type: EntityType
  /** Token range [first, last). */
  first: number
  last: number
  start: number
  end: number
  text: string
  sent: number
  /** The least tagger margin over the span it came from; absent when a rule made the mention. */
  margin?: number
  /** Its type is stated by its context (a title, an apposition, a bracketed acronym, a model number). */
  stated?: boolean
  /** A title rule made it: a title after a kind of work, in a list after one, or before a year in brackets. */
  titled?: boolean
}

export interface Entity {
  type: EntityType
  name: string
  mentions: Mention[]
  salience: number
  /** Gazetteer classes of the name (bits of GAZ_CLASSES), when known. */
  classes?: number
  /** Calibrated probability that the entity (name and type) is right, 0..1 (./confidence.ts). */
  confidence?: number
}

const TRAILING = /^[\s"'“”‘’«»()[\]{}.,;:!?*_~`-]+|[\s"'“”‘’«»()[\]{},;:!?*_~`-]+$/gu

// Words whose final dot is part of the word, not the end of a sentence that the span ran into.
const ABBREVIATION = new Set(
  (
    'inc corp co ltd bros jr sr st mt ft gov sen rep gen col lt capt dr mr mrs ms prof dept univ assn intl no ' +
    'ala ariz ark calif colo conn del fla ga ill ind kan ky la md mass mich minn miss mo mont neb nev okla ore ' +
    'pa tenn tex vt va wash wis wyo'
  ).split(' '),
)

/**
 * The name a mention contributes: surrounding quotes and punctuation, a possessive 's, and a
 * sentence-final dot swallowed by the span ("Boise.") dropped; abbreviations keep their dot.
 */
export function cleanName(s: string): string {
  let out = collapseSpaces(s).replace(TRAILING, '')
  out = out.replace(/\s*['’]s$/u, '').replace(/\s+\.$/, '')
  const m = /(?:^|\s)([^\s.]+)\.$/u.exec(out)
  if (m && !ABBREVIATION.has(m[1].toLowerCase()) && m[1].length > 1) out = out.slice(0, -1)
  return out.replace(TRAILING, '')
}

const HONORIFIC =
  /^(mr|mrs|ms|miss|dr|prof|sir|dame|lord|lady|president|senator|sen|rep|gov|governor|gen|general|col|capt|judge|justice|king|queen|prince|princess|pope|rev|st|saint|chairman|minister|premier|chancellor|vice|rear|admiral|marshal|colonel|lieutenant|sergeant|commander|commodore|brigadier|ensign|bishop|archbishop|cardinal|reverend|emperor|empress|tsar|czar|sultan|emir|doge|detective|commissioner)\.?$/i

function words(name: string): string[] {
  return name.split(/\s+/).filter(Boolean)
}

/** The words of a cleaned name that make the entity's name: without a leading title or article. */
function nameWords(type: EntityType, name: string): string[] {
  let ws = words(name)
  // A title goes, not the name it is part of ("Princess of Wales").
  if (type === 'PER') while (ws.length > 1 && HONORIFIC.test(ws[0]) && /^\p{Lu}/u.test(ws[1])) ws = ws.slice(1)
  // "The Associated Press" and "Associated Press" are one organization.
  if (type === 'ORG' && ws.length > 1 && /^the$/i.test(ws[0])) ws = ws.slice(1)
  // So are "The Arts Theatre" and "Arts Theatre", places of two words or more after the article
  // (a sentence's first word is written with a capital); "The Hague", "The Gambia" keep theirs.
  else if (type === 'LOC' && ws.length > 2 && ws[0] === 'The') ws = ws.slice(1)
  // A lower-case article is no part of any name ("the United States"; "The Hague" keeps its own).
  else if (ws.length > 1 && ws[0] === 'the') ws = ws.slice(1)
  return ws
}

/** Key used to decide whether two mentions name the same thing: case-, dot- and spacing-insensitive. */
export function nameKey(s: string): string {
  return collapseSpaces(s.toLowerCase().replace(/[.’']/g, '')).trim()
}

/**
 * Groups mentions into entities. Mentions with the same name (ignoring case and dots) form one
 * group whose type is decided by a vote, because a tagger that reads one sentence at a time
 * labels "Somerset" ORG in one and LOC in another while the document means one thing. A
 * shorter group then joins a longer entity whose words contain it as a contiguous run
 * ("Cook" ⊂ "Tim Cook"; "Obama" ⊂ "President Barack Obama"), of its own type (not a place; an
 * organization not into its unit or region, see namedApart) or, for a surname, of a person. The
 * canonical name is the longest form, in its mixed-case spelling when there is one (not the
 * all-caps headline copy), and salience weighs mention count and early first position.
 */
export function buildEntities(mentions: Mention[], textLength: number): Entity[] {
  interface Group {
    words: string[]
    display: string
    mixed: boolean
    mentions: Mention[]
    votes: Map<EntityType, number>
  }
  const groups = new Map<string, Group>()
  for (const m of mentions) {
    const name = cleanName(m.text)
    if (!name || !/[\p{L}\p{N}]/u.test(name)) continue
    const ws = nameWords(m.type, name)
    const display = ws.join(' ')
    const k = nameKey(display)
    let g = groups.get(k)
    const mixed = /\p{Ll}/u.test(display)
    if (!g) groups.set(k, (g = { words: ws, display, mixed, mentions: [], votes: new Map() }))
    else if (mixed && !g.mixed) {
      g.display = display
      g.words = ws
      g.mixed = true
    }
    g.mentions.push(m)
    // All-caps mentions (headlines) are the tagger's least reliable decisions.
    g.votes.set(m.type, (g.votes.get(m.type) ?? 0) + (mixed ? 1 : 0.5))
  }

  const typed = [...groups.values()].map((g) => {
    let type = g.mentions[0].type
    let best = -1
    for (const [t, v] of g.votes)
      if (v > best) {
        best = v
        type = t
      }
    // Spelled out: copying by spread went through a slow generic path of V8 (1% of the engine).
    return { words: g.words, display: g.display, mixed: g.mixed, mentions: g.mentions, votes: g.votes, type }
  })
  // Longest first, so that short forms find the full name they abbreviate.
  typed.sort((a, b) => b.words.length - a.words.length || b.display.length - a.display.length || a.mentions[0].start - b.mentions[0].start)
  const entities: Entity[] = []
  // Multi-word entities by each of their words, so that a short form is compared only with
  // the names that share its first word (a list of thousands of names stays linear).
  const byWord = new Map<string, Entity[]>()
  for (const g of typed) {
    // A place inside a longer place's name is mostly another place ("Vienna" of "Vienna
    // International Airport", "Albany" of "Albany County"; Re-DocRED's clusters: 143 of 179 such
    // joins were two places), so places join by their full name only.
    const e =
      (g.type === 'LOC' ? undefined : findContaining(byWord.get(nameKey(g.words[0])) ?? [], g.type, g.words, g.mentions)) ??
      (g.words.length === 1 ? findSurname(byWord.get(nameKey(g.words[0])) ?? [], g.words[0]) : undefined)
    if (e) {
      e.mentions.push(...g.mentions)
      continue
    }
    const ne: Entity = { type: g.type, name: g.display, mentions: [...g.mentions], salience: 0 }
    entities.push(ne)
    if (g.words.length > 1) {
      for (const w of new Set(g.words.map(nameKey))) {
        const list = byWord.get(w)
        if (list) list.push(ne)
        else byWord.set(w, [ne])
      }
    }
  }
  for (const e of entities) {
    e.mentions.sort((a, b) => a.start - b.start)
    for (const m of e.mentions) m.type = e.type
    const firstPos = e.mentions[0].start / Math.max(1, textLength)
    e.salience = e.mentions.length + 0.5 * (1 - firstPos) + 0.1 * Math.min(3, words(e.name).length)
  }
  entities.sort((a, b) => b.salience - a.salience || a.mentions[0].start - b.mentions[0].start)
  return entities
}

/** A person whose last name is `w`. */
function findSurname(entities: Entity[], w: string): Entity | undefined {
  const k = nameKey(w)
  return entities.find((e) => e.type === 'PER' && words(e.name).length > 1 && nameKey(words(e.name).at(-1)!) === k)
}

function findContaining(entities: Entity[], type: EntityType, ws: string[], mentions: Mention[]): Entity | undefined {
  const kws = ws.map(nameKey)
  for (const e of entities) {
    if (e.type !== type) continue
    const ew = words(e.name).map(nameKey)
    if (ew.length <= kws.length) continue
    if (!containsRun(ew, kws)) continue
    if (type === 'ORG' && kws.every((w, i) => ew[i] === w) && namedApart(e, words(e.name).slice(kws.length), mentions)) continue
    return e
  }
  return undefined
}

// Words that make a longer organization's name a unit or a division of the one it opens with
// ("Sony Pictures", "BBC World News", "Barry University School of …", "Commerce Department").
const UNIT_WORD =
  /^(?:pictures|television|tv|hd|news|entertainment|studios?|interactive|electronics|media|games|films?|productions?|publishing|orchestra|division|group|school|hospitals?|department|association|centre|center|chamber|order|network|channel|records|music|college|institute|academy|faculty|press|magazine|newspaper|radio|council|committee|commission|branch|unit|subsidiary|foundation)$/
// A region or a market after the name ("Square Enix Europe", "GWS China", "GTE Midwest").
const REGION_WORD =
  /^(?:europe|european|america|americas|asia|asian|pacific|africa|african|australia|australasia|canada|china|japan|india|germany|france|uk|britain|ireland|scotland|wales|england|usa|us|midwest|alba|cymru|worldwide|global|zealand|italia|italy|deutschland|españa|spain|korea|russia|brazil|mexico|nordic|benelux|north|south|east|west|northern|southern|eastern|western|latin|middle|central)$/
// The legal form that ends a company's registered name: "Guinness Peat Group Plc" is still "Guinness Peat".
const LEGAL_FORM =
  /^(?:inc|incorporated|corp|corporation|co|company|cos|ltd|limited|plc|ag|sa|nv|bv|ab|oy|oyj|gmbh|llc|llp|lp|spa|srl|asa|as|kk|bhd|pty|se|pte|tbk|holdings)$/

/**
 * Whether an organization's shorter name stays apart from a longer one that opens with it
 * (Re-DocRED's clusters: of 82 such joins, 45 put two bodies together). It does when the longer
 * name's next capitalised words (before any lower-case word such as "of") name a region ("Square
 * Enix Europe"), or a unit ("Sony Pictures") and the text sets the two side by side: the short
 * name is written before the longer one (the parent named first), or both in one sentence ("Sony
 * Pictures, a subsidiary of Sony"). A unit word counts only when the name does not end in a legal
 * form, and an all-capitals copy of a mixed-case name (a headline) is not read for the order.
 */
function namedApart(e: Entity, extra: string[], mentions: Mention[]): boolean {
  let region = false
  let unit = false
  for (const w of extra) {
    if (/^(?:['’]s|and|&|[-/,])$/i.test(w)) continue
    if (!/^[\p{Lu}\p{N}]/u.test(w)) break
    const k = nameKey(w)
    if (REGION_WORD.test(k)) region = true
    else if (UNIT_WORD.test(k)) unit = true
  }
  if (region) return true
  if (!unit || LEGAL_FORM.test(nameKey(words(e.name).at(-1)!).replace(/[,]/g, ''))) return false
  const sents = new Set(e.mentions.map((m) => m.sent))
  if (mentions.some((m) => sents.has(m.sent))) return true
  return firstStart(mentions) < firstStart(e.mentions)
}

/** Where a name is first written, an all-capitals copy (a headline) read only when every mention is one. */
function firstStart(ms: Mention[]): number {
  const mixed = ms.filter((m) => /\p{Ll}/u.test(m.text))
  return Math.min(...(mixed.length ? mixed : ms).map((m) => m.start))
}

function containsRun(hay: string[], needle: string[]): boolean {
  outer: for (let i = 0; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer
    return true
  }
  return false
}

/** Makes a mention from a token range. */
export function mentionFromTokens(text: string, tokens: Token[], first: number, last: number, type: EntityType): Mention {
  const start = tokens[first].start
  const end = tokens[last - 1].end
  return { type, first, last, start, end, text: text.slice(start, end), sent: tokens[first].sent }
}

/**
 * Whether a mention's text spells the entity's canonical name, up to what merges two spellings
 * into one group above (case, dots, spacing, a person's honorific, an organization's leading
 * "the"); a shorter form that joined the entity ("Cook" of "Tim Cook", "Apple" of "Apple Inc.")
 * does not.
 */
export function spellsName(entity: Entity, text: string): boolean {
  return nameKey(nameWords(entity.type, cleanName(text)).join(' ')) === nameKey(entity.name)
}
