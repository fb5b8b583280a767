// Entity mentions → canonical entities: merges the mentions of one entity ("Tim Cook" …
// "Cook" → "Tim Cook") and ranks entities by salience.
import type { Token } from './tokens.ts'

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
  let out = s.replace(/\s+/g, ' ').replace(TRAILING, '')
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
  // A lower-case article is no part of any name ("the United States"; "The Hague" keeps its own).
  else if (ws.length > 1 && ws[0] === 'the') ws = ws.slice(1)
  return ws
}

/** Key used to decide whether two mentions name the same thing: case- and punctuation-insensitive. */
function key(s: string): string {
  return s.toLowerCase().replace(/[.’']/g, '').replace(/\s+/g, ' ').trim()
}

/**
 * Groups mentions into entities. Mentions with the same name (ignoring case and dots) form one
 * group whose type is decided by a vote, because a tagger that reads one sentence at a time
 * labels "Somerset" ORG in one and LOC in another while the document means one thing. A
 * shorter group then joins a longer entity whose words contain it as a contiguous run
 * ("Cook" ⊂ "Tim Cook"; "Obama" ⊂ "President Barack Obama"), of its own type (not a place)
 * or, for a surname, of a person. The canonical name is the longest form, in its mixed-case spelling
 * when there is one (not the all-caps headline copy), and salience weighs mention count and
 * early first position.
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
    const k = key(display)
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
      (g.type === 'LOC' ? undefined : findContaining(byWord.get(key(g.words[0])) ?? [], g.type, g.words)) ??
      (g.words.length === 1 ? findSurname(byWord.get(key(g.words[0])) ?? [], g.words[0]) : undefined)
    if (e) {
      e.mentions.push(...g.mentions)
      continue
    }
    const ne: Entity = { type: g.type, name: g.display, mentions: [...g.mentions], salience: 0 }
    entities.push(ne)
    if (g.words.length > 1) {
      for (const w of new Set(g.words.map(key))) {
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
  const k = key(w)
  return entities.find((e) => e.type === 'PER' && words(e.name).length > 1 && key(words(e.name).at(-1)!) === k)
}

function findContaining(entities: Entity[], type: EntityType, ws: string[]): Entity | undefined {
  const kws = ws.map(key)
  for (const e of entities) {
    if (e.type !== type) continue
    const ew = words(e.name).map(key)
    if (ew.length <= kws.length) continue
    if (containsRun(ew, kws)) return e
  }
  return undefined
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
  return key(nameWords(entity.type, cleanName(text)).join(' ')) === key(entity.name)
}
