// Entities of a document: the trained tagger's mentions merged into canonical entities.
import { collapseSpaces, type Token, type Tokenized } from './tokens.ts'
import { buildEntities, mentionFromTokens, type Entity, type EntityType, type Mention } from './entities.ts'
import { tagDocument, type TaggerModel } from './tagger.ts'
import { MAX_ENTITIES_PER_TYPE } from './types.ts'
import { phraseHash } from './features/hashing.ts'
import { GAZ_CLASSES, GAZ_PREFIX, MAX_GAZ_WORDS } from './features/lexicon.ts'
import { FORMAT_RULES, US_STATE_ABBR, US_STATE_ABBR_BARE, type RuleContext } from './format-rules.ts'
import {
  DETERMINER,
  REPORT_CUT,
  confidenceFeatures,
  confidenceOf,
  registerOf,
  type ConfidenceModel,
  type EntityEvidence,
  type Register,
} from './confidence.ts'

/** The models entity extraction reads: the tagger (with its gazetteer) and the entity confidence. */
export interface EntityModels {
  tagger: TaggerModel
  confidence: ConfidenceModel
}

// Lower-case name particles that do belong to a name ("Vincent van Gogh", "de Silva").
const PARTICLE = new Set([
  'de',
  'van',
  'von',
  'der',
  'den',
  'da',
  'di',
  'du',
  'dos',
  'del',
  'della',
  'la',
  'le',
  'al',
  'el',
  'bin',
  'ibn',
  'of',
  'and',
  'for',
  'the',
  '&',
  "'s",
  '’s',
])
const MONTH_OR_DAY =
  /^(january|february|march|april|may|june|july|august|september|october|november|december|monday|tuesday|wednesday|thursday|friday|saturday|sunday)$/i
const CAPITALISED = /^[\p{Lu}\p{N}]/u
const EDGE_CONNECTIVE = /^(?:and|or|of|for|&|the|in|at|on|to)$/i
const PLACE_DESIGNATOR = /^(?:District|Parish|County|Counties|Province|Prefecture|Oblast|Township|Borough)$/
const SUFFIX = /^(?:Jr\.?|Sr\.?|II|III|IV)$/
const GREETING = /^(?:hi|hey|hello|dear|rip)$/i
/** One capital, then lower case: "Walter", "General". */
const TITLE_CASE = /^\p{Lu}\p{Ll}+$/u

/**
 * Trims a span's edges of words that are not part of a name: lower-case words ("wildcard
 * Alex", "Fed 's decision") and a leading month or weekday ("August National Association…").
 * Only when a capitalised word remains, so all-lower-case names of informal text stay whole;
 * and in informal text lower-case words are kept ("Donald trump", "Galaxy s 8").
 */
function trimSpan(doc: Tokenized, first: number, last: number, noisy: boolean, person: boolean): [number, number] {
  const toks = doc.tokens
  let a = first
  let b = last
  // A greeting is not part of the name ("Hi Fleur"), nor are trailing "!", "?" or a lone
  // apostrophe ("Paul ' s", tokenized apart). No annotated name of the corpora has them.
  if (b - a > 1 && GREETING.test(toks[a].text)) a++
  while (b - a > 1 && /^(?:[!?]+|['’])$/.test(toks[b - 1].text)) b--
  let capitalised = 0
  for (let i = a; i < b; i++) if (CAPITALISED.test(toks[i].text) && !MONTH_OR_DAY.test(toks[i].text)) capitalised++
  if (capitalised === 0) return [a, b]
  while (b - a > 1 && (notName(toks, a, noisy, person) || MONTH_OR_DAY.test(toks[a].text))) a++
  while (b - a > 1 && notName(toks, b - 1, noisy, person)) b--
  // Connectives join the words of a name, never end or start one: "City University of New
  // York and" (the tagger ran into a coordination), "and Roger K. Crouch".
  while (b - a > 1 && EDGE_CONNECTIVE.test(toks[b - 1].text)) b--
  while (b - a > 1 && EDGE_CONNECTIVE.test(toks[a].text) && !/^the$/i.test(toks[a].text)) a++
  // A trailing "'s" belongs to the sentence, not the name.
  if (b - a > 1 && /^['’]s$/.test(toks[b - 1].text)) b--
  // Nor does punctuation at its edges: "Douglas & Lomason ,", "Kecskemet (", "- Bulgaria"; a
  // closed bracket inside stays ("Mladost ( L )").
  while (b - a > 1 && (/^[,;:(\-–—]$/.test(toks[b - 1].text) || (toks[b - 1].text === ')' && opens(toks, a, b) < 0))) b--
  while (b - a > 1 && (/^[,;:)\-–—]$/.test(toks[a].text) || (toks[a].text === '(' && opens(toks, a, b) > 0))) a++
  return [a, b]
}

// trimSpan's helpers, at module level: closures inside it would be made anew for every span.

/** Token i is a lower-case word that is not part of a name (see trimSpan). */
function notName(toks: Token[], i: number, noisy: boolean, person: boolean): boolean {
  const w = toks[i].text
  return !noisy && !CAPITALISED.test(w) && !PARTICLE.has(w.toLowerCase()) && /\p{L}/u.test(w) && !hyphened(toks, i, person)
}

/**
 * Token i is the lower-case half of a hyphenated personal name, written without spaces ("Kang
 * Young-hoon"; not "House-passed").
 */
function hyphened(toks: Token[], i: number, person: boolean): boolean {
  return (
    person &&
    i > 1 &&
    toks[i - 1].text === '-' &&
    toks[i - 1].end === toks[i].start &&
    toks[i - 2].end === toks[i - 1].start &&
    CAPITALISED.test(toks[i - 2].text)
  )
}

const NAME_PARTICLE = /^(?:von|van|de|da|di|du|del|della|der|den|dos|das|ten|ter|zu)$/

/**
 * After a person's name [a, b) of a first name or more: one or two untagged particles and an
 * untagged capitalised word ("Carl Friedrich von Weizsäcker", "Ludwig van Beethoven"): the end of the
 * name over them, else b.
 */
export function particleSurnameEnd(doc: Tokenized, a: number, b: number, taken: Uint8Array): number {
  const t = doc.tokens
  let e = b
  while (e < t.length && e - b < 2 && !taken[e] && t[e].sent === t[a].sent && NAME_PARTICLE.test(t[e].text)) e++
  if (e === b || e >= t.length || taken[e] || t[e].sent !== t[a].sent || !/^\p{Lu}\p{Ll}/u.test(t[e].text)) return b
  return e + 1
}

/**
 * A person's span, one or two particles and a one- or two-word span of another kind that the
 * tagger read as a place, a person or a miscellaneous name ("Leonardo da [Vinci]", "Guido Novello da
 * [Polenta]", "Manfred Freiherr von [Killinger]"): one person's name. A surname taken from a place
 * is still a surname after a particle.
 */
export function joinParticleNames(doc: Tokenized, spans: TaggedSpan[]): TaggedSpan[] {
  const t = doc.tokens
  let out: TaggedSpan[] | undefined
  for (let i = 0; i + 1 < spans.length; i++) {
    const s = (out ?? spans)[i]
    // A span an earlier join took in is empty: nothing to join to it.
    if (s.last <= s.first) continue
    const y = spans[i + 1]
    if (s.type !== 'PER' || y.type === 'ORG' || y.type === 'OBJ' || y.last - y.first > 2) continue
    let k = s.last
    while (k < y.first && k - s.last < 2 && NAME_PARTICLE.test(t[k].text)) k++
    if (k === s.last || k !== y.first || t[y.first].sent !== t[s.first].sent) continue
    let names = true
    for (let j = y.first; j < y.last; j++)
      if ((j === y.first || /\p{L}/u.test(t[j].text)) && !/^\p{Lu}\p{Ll}/u.test(t[j].text)) names = false
    if (!names) continue
    out ??= spans.slice()
    out[i] = { ...s, last: y.last }
    out[i + 1] = { ...y, first: y.last }
  }
  return out ? out.filter((s) => s.last > s.first) : spans
}

const EPITHET =
  /^(?:Great|Elder|Younger|Baptist|Terrible|Conqueror|Bold|Pious|Confessor|Apostle|Evangelist|Magnificent|Wise|Lionheart|Unready|Venerable|Martyr|Navigator|Lawgiver|Liberator|Fearless)$/

/**
 * A person's span of one or two words, "the" and an epithet ("Ivan the Terrible", "John the
 * Baptist", "Pliny the Elder", "Alfred the Great"): one person's name, which the tagger ends before
 * "the". The epithet is untagged or a one-word span of its own.
 */
export function joinEpithets(doc: Tokenized, spans: TaggedSpan[]): TaggedSpan[] {
  const t = doc.tokens
  let out: TaggedSpan[] | undefined
  for (let i = 0; i < spans.length; i++) {
    const s = (out ?? spans)[i]
    // A span an earlier join took in is empty: nothing to join to it.
    if (s.last <= s.first) continue
    const k = s.last
    if (s.type !== 'PER' || s.last - s.first > 2 || k + 1 >= t.length || t[k].text !== 'the' || !EPITHET.test(t[k + 1].text)) continue
    if (t[k + 1].sent !== t[s.first].sent) continue
    const y = spans[i + 1]
    const next = y && y.first <= k + 1 ? y : undefined
    if (next && (next.first !== k + 1 || next.last !== k + 2)) continue
    out ??= spans.slice()
    out[i] = { ...s, last: k + 2 }
    if (next) out[i + 1] = { ...next, first: next.last }
  }
  return out ? out.filter((s) => s.last > s.first) : spans
}

const BODY_ON =
  /^(?:Committee|Subcommittee|Commission|Authority|Council|Board|Panel|Institute|Center|Centre|Agency|Office|Bureau|Foundation|Fund|Coalition|Alliance|Association|Society)$/
const BODY_ON_LINK = /^(?:on|for|against)$/

/**
 * An organization's span ending in a body's word, then "on", "for" or "against" and the title-case
 * words of what it is about, untagged or an organization's or a miscellaneous span ("[Advisory
 * Committee] on [Antarctic Names]", "[Intergovernmental Authority] on Development", "[Commission]
 * on [Judicial Conduct]"): one organization's name, which the tagger cut at the preposition. Not a
 * date ("the Security Council on Friday"), a place or a person ("Special Commission on
 * [Afghanistan]").
 */
export function joinBodyTopics(doc: Tokenized, spans: TaggedSpan[]): TaggedSpan[] {
  const t = doc.tokens
  let out: TaggedSpan[] | undefined
  for (let i = 0; i < spans.length; i++) {
    const s = (out ?? spans)[i]
    // A span an earlier join took in is empty: nothing to join to it.
    if (s.last <= s.first) continue
    const p = s.last
    if (s.type !== 'ORG' || !BODY_ON.test(t[s.last - 1].text) || p + 1 >= t.length || !BODY_ON_LINK.test(t[p].text)) continue
    if (t[p + 1].sent !== t[s.first].sent) continue
    let k = p + 1
    if (t[k].text === 'the' && k + 1 < t.length && t[k + 1].sent === t[k].sent) k++
    if (!TITLE_CASE.test(t[k].text) || MONTH_OR_DAY.test(t[k].text)) continue
    const y = spans[i + 1]
    let e: number
    if (y && y.first === k) {
      if (y.type !== 'ORG' && y.type !== 'MISC') continue
      e = y.last
    } else {
      if (y && y.first < k) continue
      e = k
      const stop = y ? y.first : t.length
      while (
        e < stop &&
        t[e].sent === t[k].sent &&
        (TITLE_CASE.test(t[e].text) || (/^(?:and|of|&)$/.test(t[e].text) && e + 1 < stop && TITLE_CASE.test(t[e + 1].text)))
      )
        e++
      if (e < t.length && t[e].sent === t[k].sent && /^\p{Lu}/u.test(t[e].text)) continue
    }
    if (e - p > 7) continue
    out ??= spans.slice()
    out[i] = { ...s, last: e }
    if (y && y.first === k) out[i + 1] = { ...y, first: y.last }
  }
  return out ? out.filter((s) => s.last > s.first) : spans
}

/** Brackets opened and not closed in tokens [from, to). */
function opens(toks: Token[], from: number, to: number): number {
  let n = 0
  for (let i = from; i < to; i++) n += toks[i].text === '(' ? 1 : toks[i].text === ')' ? -1 : 0
  return n
}

// Titles that stand right before a person's name ("President Lincoln", "Ms. Calico").
const PERSON_TITLE =
  /^(?:mr|mrs|ms|dr|sen|senator|rep|gov|governor|president|judge|justice|pope|rev|prof|professor|actress|actor|cosmonaut|astronaut)\.?$/i

/**
 * A span the tagger typed as a place or an organization that reads as a person's name: right
 * after a personal title, or first name, middle initial, surname ("Walter R. Mears").
 */
function personShaped(doc: Tokenized, a: number, b: number): boolean {
  const toks = doc.tokens
  if (a > 0 && toks[a - 1].sent === toks[a].sent && PERSON_TITLE.test(toks[a - 1].text) && /^\p{Lu}\p{Ll}/u.test(toks[a - 1].text))
    return true
  return b - a === 3 && TITLE_CASE.test(toks[a].text) && /^\p{Lu}\.$/u.test(toks[a + 1].text) && TITLE_CASE.test(toks[a + 2].text)
}

const NOT_NAME_START = /^(?:the|a|an|this|that|these|those|its|his|her|their|our|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)$/i

/** Token i, just before an organization's name, belongs to it. */
function joinsOrgName(doc: Tokenized, i: number, taken: Uint8Array): boolean {
  const t = doc.tokens[i]
  return (
    !taken[i] &&
    t.sent === doc.tokens[i + 1].sent &&
    i > doc.sentences[t.sent].first &&
    TITLE_CASE.test(t.text) &&
    !NOT_NAME_START.test(t.text) &&
    !PERSON_TITLE.test(t.text) &&
    !MONTH_OR_DAY.test(t.text)
  )
}

/** Typed mentions found by the tagger; MISC (nationalities, events…) has no service type. */
export function extractMentions(doc: Tokenized, tagger: TaggerModel): Mention[] {
  return tagMentions(doc, tagger).mentions
}

/** What the rules read of the tagger's model: its gazetteer. */
function ruleContext(tagger: TaggerModel): RuleContext {
  let ctx = RULE_CONTEXTS.get(tagger)
  if (!ctx) RULE_CONTEXTS.set(tagger, (ctx = { gaz: (words) => tagger.gazetteer.get(phraseHash(words)) ?? 0 }))
  return ctx
}
/** Made once per model, not per document. */
const RULE_CONTEXTS = new WeakMap<TaggerModel, RuleContext>()

function tagMentions(doc: Tokenized, tagger: TaggerModel): { mentions: Mention[]; noisy: boolean } {
  const { spans, noisy, margins } = tagDocument(tagger, doc)
  const mentions = ruledMentions(doc, spans, noisy, ruleContext(tagger))
  // Each mention's margin: the least of the tagger's span it overlaps (rules make the others).
  // A miscellaneous span is no evidence for any type of ours: a mention over it is a rule's. A
  // mention whose type the context stated is a rule's too, whatever the tagger's span there: one
  // of another type is no evidence for it ("Kecskemet ( a town in… )" tagged an organization), and
  // one of the same type, often of slight margin, would score it below the rule alone
  // ("headquartered in Redmond" tagged a place).
  const spanMin = spanMargins(spans, margins)
  for (const m of mentions) {
    if (m.stated) continue
    let best = NaN
    for (let i = m.first; i < m.last; i++) if (!Number.isNaN(spanMin[i]) && !(spanMin[i] <= best)) best = spanMin[i]
    if (!Number.isNaN(best)) m.margin = best
  }
  // An acronym the rules read off the name before it has that name's evidence, not the tagger's
  // own (often slight) guess at the acronym.
  for (const m of mentions) {
    const name = ACRONYM_OF.get(m)
    if (name) m.margin = name.margin
  }
  return { mentions, noisy }
}

/**
 * Per token, the least margin of the tagger's span of ours over it (NaN outside them). A decision
 * with one tag allowed (a sentence's last token inside an open span must end it) has a margin of
 * 0 and says nothing of the name: "[Donald Trump .]" at a text's end scored as a guess.
 */
export function spanMargins(spans: TaggedSpan[], margins: Float32Array): Float32Array {
  const spanMin = new Float32Array(margins.length).fill(NaN)
  for (const s of spans) {
    if (s.type === 'MISC') continue
    let m = Infinity
    for (let i = s.first; i < s.last; i++) if (margins[i] > 0) m = Math.min(m, margins[i])
    if (m === Infinity) m = 0
    for (let i = s.first; i < s.last; i++) spanMin[i] = m
  }
  return spanMin
}

/** The name each bracketed acronym mention spells (set by ruledMentions, read by tagMentions). */
const ACRONYM_OF = new WeakMap<Mention, Mention>()

function ruledMentions(doc: Tokenized, tagged: ReturnType<typeof tagDocument>['spans'], noisy: boolean, ctx: RuleContext): Mention[] {
  const out: Mention[] = []
  const taken = new Uint8Array(doc.tokens.length)
  // "Faith No More , Rage Against the Machine", "Clubland and New Lace Sleeves": names run together.
  tagged = splitJoined(doc, tagged)
  // "[University of Groningen and University] of Twente": two bodies' names run together.
  if (!noisy) tagged = splitBeforeBody(doc, tagged)
  // "[Laboratory 's InfoLab Group]": a body's possessive opens the name of a body of its own.
  if (!noisy) tagged = splitPossessedBody(doc, tagged)
  // "[Avis Bourg Co. of Folsom]": a firm's name ends at its legal form; the town after "of" is a place.
  if (!noisy) tagged = splitFirmOfPlace(doc, tagged, ctx)
  // "[Dr. Alain Farley of McGill University]": a person's name, "of" and where the person is from.
  if (!noisy) tagged = splitPersonOf(doc, tagged, ctx)
  // "Emerson , [Lake & Palmer]": a name, a comma and two names joined by "&" are one name.
  if (!noisy) tagged = joinAmpersandNames(doc, tagged)
  // "James Llewellyn " Jimmy " Frise": a nickname in quotes inside a person's name.
  if (!noisy) tagged = joinNicknames(doc, tagged)
  // "Leonardo da [Vinci]": a particle and a surname the tagger read as a place are the person's.
  if (!noisy) tagged = joinParticleNames(doc, tagged)
  // "Ivan the Terrible", "John the Baptist": an epithet after "the" is part of the person's name.
  if (!noisy) tagged = joinEpithets(doc, tagged)
  // "[Advisory Committee] on [Antarctic Names]": what a body is on or for is part of its name.
  if (!noisy) tagged = joinBodyTopics(doc, tagged)
  // "Tom Petty and the Heartbreakers", "KC and the Sunshine Band": a person and a group, one band.
  if (!noisy) tagged = joinBackingBands(doc, tagged, ctx)
  // A title after a kind of work ("the album Demon Days") is an object, whatever spans the tagger
  // cut there (it often splits a title at its lower-case words or runs on past it).
  const titles = noisy ? [] : workTitles(doc, tagged)
  // A name before a kind of software ("the SYSTRAN system"), that a definition calls one
  // ("DeepFace is a … recognition system") or that one is called by ("a project called …") is a product.
  if (!noisy)
    for (const m of [
      ...systemNames(doc, tagged, ctx),
      ...definedSoftware(doc, tagged, ctx),
      ...calledProducts(doc, tagged),
      ...knownObjects(doc, tagged, ctx),
    ])
      if (!titles.some((x) => m.first < x.last && m.last > x.first)) titles.push(m)
  // Names listed after a plural kind of product ("assistants such as Siri , Amazon Alexa") are objects.
  if (!noisy) for (const m of productLists(doc, tagged)) if (!titles.some((x) => m.first < x.last && m.last > x.first)) titles.push(m)
  // So is a name the tagger found (of any type, a miscellaneous one too) right before a year in
  // brackets ("The Turn of the Screw ( 1898 )"), run back over the title's words.
  if (!noisy) for (const m of yearTitles(doc, tagged)) if (!titles.some((x) => m.first < x.last && m.last > x.first)) titles.push(m)
  // A miscellaneous name that the text says an organization or a person made ("the Lumia 920 ,
  // developed by Nokia", "Roketsan produces the Cirit"), or that opens with an organization's
  // name found in the text ("Toyota Aurion" where "Toyota" is one), is a product or a work.
  if (!noisy) for (const m of madeProducts(doc, tagged, ctx)) if (!titles.some((x) => m.first < x.last && m.last > x.first)) titles.push(m)
  // Names listed after "bands such as" or "groups including" are organizations, whatever type
  // the tagger gave them (bands read as persons, places or titles).
  if (!noisy) for (const m of groupLists(doc, tagged, ctx)) if (!titles.some((x) => m.first < x.last && m.last > x.first)) titles.push(m)
  titles.sort((x, y) => x.first - y.first)
  // The tagger often starts a title late, at a word it reads better ("Just a [Souvenir]", "Stop
  // the [Dominoes]"): an object's span is run back over the title's words.
  if (!noisy) tagged = tagged.map((s) => (s.type === 'OBJ' ? { ...s, first: titleStart(doc, s, tagged) } : s))
  const spans = titles.length ? tagged.filter((s) => !titles.some((m) => s.first < m.last && s.last > m.first)) : tagged
  for (const m of titles) for (let i = m.first; i < m.last; i++) taken[i] = 1
  for (const s of spans) for (let i = s.first; i < s.last; i++) taken[i] = 1
  // Tokens the tagger read as a miscellaneous name (none of ours), which a place's context can claim.
  const misc = new Uint8Array(doc.tokens.length)
  for (const s of spans) if (s.type === 'MISC') for (let i = s.first; i < s.last; i++) misc[i] = 1
  // Tokens the tagger gave a span of their own, which a rule on the name before may type (an
  // acronym in brackets, a state abbreviation: the tagger often tags them, with little margin or
  // the wrong type); and the spans such a rule has taken over.
  const lone = new Uint8Array(doc.tokens.length)
  for (const s of spans) if (s.last - s.first === 1) lone[s.first] = 1
  const claimed = new Set<number>()
  for (const s of spans) {
    if (claimed.has(s.first)) continue
    if (s.type === 'MISC') {
      // "the French Government", "the Chinese Foreign Ministry": a nationality and an
      // untagged capitalised institution are an organization's name.
      const e = noisy ? -1 : institutionEnd(doc, s.first, s.last, taken, ctx)
      // "the Philippine Senate", "the Romanian Air Force": a nationality, then untagged
      // capitalised words ending in a body's word.
      const nb = noisy || e > 0 ? -1 : nationalBodyEnd(doc, s.first, s.last, taken, ctx)
      if (e > 0) {
        out.push(mentionFromTokens(doc.text, doc.tokens, s.first, e, 'ORG'))
        for (let k = s.last; k < e; k++) taken[k] = 1
      } else if (nb > 0) {
        out.push({ ...mentionFromTokens(doc.text, doc.tokens, s.first, nb, 'ORG'), stated: true })
        for (let k = s.last; k < nb; k++) taken[k] = 1
      } else if (!noisy && recordLabel(doc, s.first, s.last)) {
        // A record label the tagger read as miscellaneous (a work's or an event's name).
        out.push({ ...mentionFromTokens(doc.text, doc.tokens, s.first, s.last, 'ORG'), stated: true })
      } else if (!noisy && placeApposition(doc, s.first, s.last, ctx)) {
        // "Kecskemet (site of the printing house)", "Lutsk, a city in Ukraine": what the name is
        // described as is a place.
        out.push({ ...mentionFromTokens(doc.text, doc.tokens, s.first, s.last, 'LOC'), stated: true })
      } else if (!noisy) {
        // "Romanian Air Force", "Philippine Senate", "Griggs Dam" read as miscellaneous names: the
        // last word says what the name is (a nationality before it does not make it one).
        // "2 Social Democratic and Labour Party ( SDLP": a count of seats before the name and a
        // bracket left open after it are no part of it.
        const [first, b] = trimSpan(doc, ...countedMisc(doc, s.first, s.last), noisy, false)
        const a = b - first > 2 && doc.tokens[first].text === 'the' ? first + 1 : first
        // A body's word before "of" / "for" and a name ("Latin American School of Medicine",
        // "Hospital for Tropical Diseases") says so too.
        // "Camp Nerimbera", "Fort Snelling" read as miscellaneous: a place's first word says so.
        const head =
          miscHead(doc, a, b, ctx) ?? (miscBodyOf(doc, a, b) ? 'ORG' : placeOpened(doc, a, b) ? 'LOC' : copulaType(doc, a, b, ctx))
        if (head) out.push({ ...mentionFromTokens(doc.text, doc.tokens, a, b, head), stated: true })
      }
      continue
    }
    const first = s.first
    const last = s.last
    let [a, b] = trimSpan(doc, first, last, noisy, s.type === 'PER')
    let end: number
    let cop: EntityType | undefined
    // "Guinea-[Bissau]", "Kim Dae-[jung]", "[T-]Bone Walker": a word written with a hyphen is one
    // word, and so in the name whole.
    if (!noisy && s.type !== 'OBJ') [a, b] = hyphenedEdges(doc, a, b, taken, s.type === 'PER', ctx)
    // The tagger often starts an organization's name one word late when that word is also an
    // ordinary one ("[General] Accounting Office", "[Progressive] Conservative Party"): a
    // capitalised word right before it, inside the sentence and in no other name, is taken in.
    if (s.type === 'ORG' && !noisy) while (a > 0 && joinsOrgName(doc, a - 1, taken)) a--
    // "the [Palace of] Fine Arts", "the [Sea of] Japan": a head noun and "of" left out of a name;
    // the head gives the type.
    let headType: EntityType | undefined
    if (s.type !== 'PER' && !noisy && (headType = ofHead(doc, a, taken))) a -= 2
    // "Guy M. Struve": a first name right before a person's name that starts with an initial;
    // "Ted [Kennedy]", "Arthur [Miller]", "William [Gibbs McAdoo]": a first name the tagger left
    // out, one that is no ordinary word and opens no place's or body's name (not "Will", "May",
    // "West [Ham]", "Elias [National Park]").
    if (
      s.type === 'PER' &&
      !noisy &&
      a > 0 &&
      a === s.first &&
      ((/^\p{Lu}\.$/u.test(doc.tokens[a].text) && b - a >= 2) || plainFirstName(doc, a - 1, ctx)) &&
      !taken[a - 1] &&
      doc.tokens[a - 1].sent === doc.tokens[a].sent &&
      TITLE_CASE.test(doc.tokens[a - 1].text) &&
      !PERSON_TITLE.test(doc.tokens[a - 1].text) &&
      wordGaz(ctx, doc.tokens[a - 1].text) & GAZ_FIRST
    )
      a--
    // "NYPD Detective [Nick] Falco", "European Champion [Howard] Staunton": a known first name left
    // untagged right before a surname the tagger read alone (often after a title or a label).
    if (s.type === 'PER' && !noisy && b - a === 1 && a === s.first && a > 0 && firstNameBefore(doc, a, taken, ctx)) a--
    // "[T. S. Eliot]", "[J. Michael Straczynski]": initials right before a person's name belong to
    // it (the tagger often starts the name at its second initial or at the first full word).
    if (s.type === 'PER' && !noisy) a = initialsStart(doc, a, s.first, taken)
    // "Carl Friedrich [von Weizsäcker]": a particle and a surname after a person's name belong to it.
    if (s.type === 'PER' && !noisy) b = particleSurnameEnd(doc, a, b, taken)
    // "Anika Noni [Rose]", "Lee Kuan [Yew]", "Johann Sebastian [Bach]": a surname the tagger left
    // out (an ordinary word too, often) ends the person's name.
    if (s.type === 'PER' && !noisy && b === s.last && surnameAfter(doc, a, b, taken)) taken[b++] = 1
    // A generational suffix is part of a person's name ("Martin Luther King Jr."), and so is a
    // capitalised word the tagger left between the name and the suffix ("Martin Luther [King] Jr.":
    // "king" is an ordinary word too).
    if (
      s.type === 'PER' &&
      !noisy &&
      b + 1 < doc.tokens.length &&
      !taken[b] &&
      doc.tokens[b + 1].sent === doc.tokens[a].sent &&
      TITLE_CASE.test(doc.tokens[b].text) &&
      SUFFIX.test(doc.tokens[b + 1].text)
    )
      b++
    if (s.type === 'PER' && b < doc.tokens.length && doc.tokens[b].sent === doc.tokens[a].sent && SUFFIX.test(doc.tokens[b].text)) b++
    // No person's name ends in "District" or "Parish": the tagger read a place as a name
    // ("Dan Sai District", "Cameron Parish"). Organizations keep theirs ("Derby County").
    let type: EntityType = headType ?? s.type
    // The context states the type (for the confidence model: evidence besides the tagger's).
    let stated = false
    if (type === 'PER' && b - a > 1 && PLACE_DESIGNATOR.test(doc.tokens[b - 1].text)) type = 'LOC'
    else if (type !== 'PER' && !noisy && personShaped(doc, a, b)) {
      type = 'PER'
      stated = true
    }
    // "Ms. Carpenter" read as an organization: Mr, Mrs and Ms only stand before people.
    if (type !== 'PER' && !noisy && b - a > 1 && HONORIFIC.test(doc.tokens[a].text)) {
      type = 'PER'
      stated = true
      // "Ms. Ferraro Carpenter of the Treasury": the person's name ends before "of".
      for (let k = a + 2; k < b - 1; k++)
        if (doc.tokens[k].text === 'of') {
          b = k
          break
        }
    }
    // "Democrat John Glenn", "Congressman Phil Crane", "Major General Charles Lee" (read as an
    // organization): a party member's label or an office before a first name is a person's, and
    // no part of the name (the corpora annotate a party label apart, as miscellaneous).
    if (type !== 'OBJ' && !noisy) {
      const k = labelledPerson(doc, a, b, ctx)
      if (k > 0) {
        a = k
        if (type !== 'PER') stated = true
        type = 'PER'
      }
    }
    // "King Louis XIV", "Pope Paul VI", "Lord Palmerston" read as an organization or a place: a
    // ruler's, a peer's or an officer's title before names is a person's.
    if (type !== 'PER' && !noisy && titledPerson(doc, a, b, ctx)) {
      type = 'PER'
      stated = true
    }
    // A lone month abbreviation is a date, not a name ("Feb").
    if (!noisy && b - a === 1 && MONTH_ABBR.test(doc.tokens[a].text)) continue
    // "the Pope", "Bishop of Ely", "3rd Baronet": an office alone names no one.
    if (type === 'PER' && !noisy && loneOffice(doc, a, b)) continue
    // "Vringo , [Inc] .", "former [CEO] of NSB", "a [BA] in history": a legal form, an officer's
    // title, a degree or a medium alone names nothing.
    if (!noisy && namesNothing(doc, a, b)) continue
    // "the 2011 Berlin state election": the place is a word of the event's name, none of ours.
    if (type === 'LOC' && !noisy && electionPlace(doc, a, b)) continue
    // "Chicago blues", "the Nashville sound": the place is a word of the style's name, none of ours.
    if (type === 'LOC' && !noisy && genrePlace(doc, b)) continue
    // "the Academy of Country Music Awards", "the Pulitzer Prize": an award is none of our types
    // (every corpus annotates it miscellaneous).
    if (!noisy && b - a > 1 && AWARD_END.test(doc.tokens[b - 1].text)) continue
    // "Warp Records", "Interscope Records": a record label is an organization (the "Guinness Book
    // of Records" is not one).
    if (type !== 'ORG' && !noisy && recordLabel(doc, a, b)) {
      type = 'ORG'
      stated = true
    }
    // "the Guinness Book of Records", "the Book of Kells": a name that holds "Book of" is a book,
    // an object, whatever its last word says ("Records" ends a label's name too); not a club.
    if (type !== 'OBJ' && !noisy && bookOfName(doc, a, b)) {
      type = 'OBJ'
      stated = true
    }
    // "European Space Agency and Roger K. Crouch of NASA": two names and a person between, run together.
    if (type !== 'PER' && !noisy) {
      const k = coordinatedPerson(doc, a, b)
      if (k > 0) {
        out.push(mentionFromTokens(doc.text, doc.tokens, a, k, type))
        let e = k + 1
        while (e < b && !/^of$/i.test(doc.tokens[e].text)) e++
        out.push(mentionFromTokens(doc.text, doc.tokens, k + 1, e, 'PER'))
        if (e + 1 < b) out.push(mentionFromTokens(doc.text, doc.tokens, e + 1, b, 'ORG'))
        continue
      }
    }
    // "Lazutkin , former first deputy general director of…", "Radovan Karadzic , leader of…": a
    // name followed by an apposition that gives a person's role is a person's.
    if (type !== 'PER' && !noisy && appositiveRole(doc, a, b, ctx)) {
      type = 'PER'
      stated = true
    }
    // "Lumora , a provider of payroll software", "chief executive officer of Lumora": what a
    // business is described as, or what an officer heads, is an organization.
    if ((type === 'PER' || type === 'OBJ') && !noisy && b - a === 1 && (companyApposition(doc, a, b) || officerOf(doc, a))) {
      type = 'ORG'
      stated = true
    }
    // "the band Sepultura", "the rock band Coroner": a band is an organization.
    if (type !== 'ORG' && !noisy && a > 0 && doc.tokens[a - 1].sent === doc.tokens[a].sent && GROUP_KIND.test(doc.tokens[a - 1].text)) {
      type = 'ORG'
      stated = true
    }
    // "Eli Young Band", "Jon Spencer Blues Explosion": a name ending in a band's word is the band's.
    if (type === 'PER' && !noisy && bandName(doc, a, b)) {
      type = 'ORG'
      stated = true
    }
    // "played for Jarrow and Whitley Bay", "signed for Red Bull Salzburg", "a member of Nightrage":
    // what one plays for, signs with or is a member of is a club, a band or a body.
    // The tagger's own organization there is stated too (a band's or a club's name is often read
    // at a low confidence: "Bad Religion", "Orlando Magic").
    if (!noisy && joinedBody(doc, a, b, type, ctx)) [type, stated] = ['ORG', true]
    // "Refah Partisi", "Parti Québécois": a party's word in another language makes a party.
    if (type !== 'ORG' && !noisy && foreignPartyName(doc, a, b)) [type, stated] = ['ORG', true]
    // "The Everly Brothers", "Scissor Sisters": siblings by name are a band or a firm.
    if ((type === 'PER' || type === 'OBJ') && !noisy && siblingsName(doc, a, b)) [type, stated] = ['ORG', true]
    // "[National University of Sciences] and Technology": a field after "and" ends the name.
    if (type === 'ORG' && !noisy && (end = ofAndFieldEnd(doc, a, b, taken, ctx)) > 0) b = takeTo(taken, b, end)
    // "author of Shishupala Vadha", "he wrote Oliver Twist": what is written is a work.
    if (type !== 'OBJ' && !noisy && (authoredWork(doc, a, b) || authoredListed(doc, a, b))) [type, stated] = ['OBJ', true]
    // "Walt Disney Pictures", "Warner Bros.", "Pluribus Ventures": a name ending in a firm's word is the firm's.
    if (type === 'PER' && !noisy && firmName(doc, a, b)) {
      type = 'ORG'
      stated = true
    }
    // "10,000 Enterprise Cloud customers": capitalised words between a number and a plural of
    // who buys or uses something describe the customers; they name no one.
    if (!noisy && customerDescriptor(doc, a, b, ctx)) continue
    // Only people are assassinated or murdered ("the assassination of Lincoln", "assassinated Lincoln").
    if (type !== 'PER' && !noisy && victimName(doc, a, b)) {
      type = 'PER'
      stated = true
    }
    // "Richardson 's hometown", "Dole 's wife": only people have kin, a hometown or an assassin.
    if (type !== 'PER' && !noisy && kinPossessor(doc, a, b)) {
      type = 'PER'
      stated = true
    }
    // "headquartered in Redmond", "based in Lyon": no person or company is where something is
    // based; a place the tagger found there is stated by the context too.
    if ((type === 'PER' || type === 'LOC' || (type === 'ORG' && b - a === 1)) && !noisy && seatName(doc, a, b)) {
      type = 'LOC'
      stated = true
    }
    // "in Cambridge", "into Yorkshire", "near Verona": a town, a country or a region the gazetteer
    // knows, right after a preposition of place, is the place, not a club or a person of its name.
    // Not stated: one lives or plays in a place as well (the confidence reads the preposition).
    if ((type === 'PER' || type === 'ORG') && !stated && !noisy && placeAfterIn(doc, a, b, ctx)) type = 'LOC'
    // "Leeds ' Chapeltown", "Liverpool 's The Cavern Club": a town whose district or venue is named
    // after it is the town, not a club or a person of its name.
    if ((type === 'PER' || type === 'ORG') && !stated && !noisy && placePossessor(doc, a, b, spans, ctx)) type = 'LOC'
    // "Kecskemet ( a town in Hungary )", "Lutsk , a city in Ukraine": what the name is described
    // as is a place, whatever type the tagger gave it.
    if (type !== 'LOC' && !stated && !noisy && placeApposition(doc, a, b, ctx)) {
      type = 'LOC'
      stated = true
    }
    // "Boltenhagen is a village in…", "Kungliga Hovkapellet is a Swedish orchestra", "Trinity Fatu
    // is an American wrestler": what the sentence says the name is gives its type, and states the
    // tagger's own type when it is the same (its margin is often slight: "Mola is a town in…").
    if (!stated && !noisy && (cop = copulaType(doc, a, b, ctx))) {
      type = cop
      stated = true
    }
    // "the town of McCarthy", "the duchy of Lorraine", "north of Romney": what stands after a
    // place's noun and "of" is a place, whatever the tagger's person or organization says; the
    // tagger's own place there is stated too (its margin is often slight: "south of Skåne").
    if (type !== 'OBJ' && !stated && !noisy && placeNounOf(doc, a, b)) {
      type = 'LOC'
      stated = true
    }
    // "the Manchester Arena", "Royal Lyceum Theatre", "Carnegie Hall": a venue is a place.
    if (type !== 'LOC' && !stated && !noisy && venueName(doc, a, b, type)) {
      type = 'LOC'
      stated = true
    }
    // "Clark Lake", "O'Shaughnessy Dam", "Rohn Glacier": a name ending in a word for a natural
    // feature or a place built for travel is a place, whatever the tagger's person or
    // organization says.
    if ((type === 'PER' || type === 'ORG') && !stated && !noisy && geoName(doc, a, b, type, ctx)) {
      type = 'LOC'
      stated = true
    }
    // "Madhya Pradesh Legislative Assembly", "Pennsylvania Railroad", "Westminster School": a place's
    // name ending in a body's word is the body's (the tagger reads the place's words).
    if (type === 'LOC' && !stated && !noisy && placeNamedBody(doc, a, b)) [type, stated] = ['ORG', true]
    // "released by Nettwerk", "on the Atlantic label", "aired on the Fox network": who releases or
    // airs a record or a show is a company (a person's name is left to the tagger).
    if (type !== 'PER' && !noisy && releaserName(doc, a, b)) [type, stated] = ['ORG', true]
    // "Holy Roman Empire", "Anthony Henday Drive": a name ending in a place's word is a place.
    if ((type === 'PER' || type === 'ORG') && !stated && !noisy && placeEndName(doc, a, b, type)) [type, stated] = ['LOC', true]
    // "Kunene Province", "Province of Rieti", "City of Edmonton": a name of an administrative unit
    // of land is a place, not its government.
    if (type === 'ORG' && !stated && !noisy && placeUnitName(doc, a, b)) {
      type = 'LOC'
      stated = true
    }
    // "Smart Museum of Art", "National Gallery", "J. Paul Getty Museum": a museum is a place.
    if ((type === 'ORG' || type === 'PER') && !stated && !noisy && museumName(doc, a, b)) {
      type = 'LOC'
      stated = true
    }
    // "Pudu Prison", "Angel Site", "Onaway State Park": a landmark's name is a place.
    if (type === 'ORG' && !stated && !noisy && landmarkName(doc, a, b)) {
      type = 'LOC'
      stated = true
    }
    // "Kirkus Reviews", "Tatler magazine", "the magazine Playboy": a periodical is a work (an
    // object), not its publisher.
    if (type !== 'OBJ' && !stated && !noisy && periodicalName(doc, a, b, type)) {
      type = 'OBJ'
      stated = true
    }
    // "[Fred Hutchinson] Cancer Research Center", "[John Simon Guggenheim] Memorial Foundation": a
    // person, then untagged words ending in a body's word, is the body's name (named after them);
    // "[Daniel K. Inouye] International Airport", "[Martha] 's River": ending in a word for a place,
    // that place's name.
    // "[Queen Mary] 's College", "St. [Paul] 's Church": a saint's or a royal's possessive, then a
    // college's or a church's word, is the college's or the church's name.
    const house = type === 'PER' && !noisy ? possessedHouse(doc, a, b, taken) : undefined
    if (house) {
      for (let k = b; k < house.end; k++) taken[k] = 1
      if (house.start < a) for (let k = house.start; k < a; k++) taken[k] = 1
      ;[a, b, type, stated] = [Math.min(a, house.start), house.end, house.type, true]
    }
    if (type === 'PER' && !noisy) {
      const body = personBodyEnd(doc, a, b, taken)
      const e = body > 0 ? body : personPlaceEnd(doc, a, b, taken)
      if (e > 0) {
        for (let k = b; k < e; k++) taken[k] = 1
        b = e
        type = body > 0 ? 'ORG' : 'LOC'
        stated = true
      }
    }
    // "[United States] Census Bureau", "[Mauritius] Parliament": a place, then untagged words
    // ending in a body's word, is the body's name.
    if (type === 'LOC' && !noisy) {
      const e = placeBodyEnd(doc, a, b, taken)
      if (e > 0) {
        for (let k = b; k < e; k++) taken[k] = 1
        b = e
        type = 'ORG'
        stated = true
      }
    }
    // "[West Virginia Route] 28", "[U.S. Highway] 2": a road's number belongs to its name.
    if (!noisy && routeNumbered(doc, b, taken)) {
      taken[b] = 1
      b++
      type = 'LOC'
      stated = true
    }
    // "Oregon Route 99", "[U.S.] Route 20": a road's word and its number end a road's name.
    if (!noisy && (end = roadNumberEnd(doc, a, b, type, taken)) > 0) {
      b = takeTo(taken, b, end)
      type = 'LOC'
      stated = true
    }
    // "the [12th] Brigade": an ordinal before a military unit's name belongs to it.
    if (
      type === 'ORG' &&
      !noisy &&
      a > 0 &&
      !taken[a - 1] &&
      a === s.first &&
      ORDINAL.test(doc.tokens[a - 1].text) &&
      UNIT.test(doc.tokens[a].text) &&
      doc.tokens[a - 1].sent === doc.tokens[a].sent
    )
      a--
    // "the PlayStation 5", "the Boeing 747": a name after an article, then a model number, names a
    // product; so does a name of two or more words before a kind of product ("the Bose
    // QuietComfort headphones").
    if ((type === 'ORG' || type === 'OBJ' || type === 'PER') && !noisy) {
      const e = type === 'PER' ? -1 : modelNumberEnd(doc, a, b, taken)
      if (e > 0) {
        b = e
        type = 'OBJ'
        stated = true
      } else if (productNamed(doc, a, b)) {
        type = 'OBJ'
        stated = true
      }
    }
    // A title inside a place's or organization's name, then a person's name up to its end: the
    // tagger ran two names together ("CNEN Radioprotection Director Laercio Vinhas").
    if (type !== 'PER' && !noisy) {
      const j = titleSplit(doc, a, b)
      if (j > 0) {
        out.push(mentionFromTokens(doc.text, doc.tokens, a, j, type))
        a = j + 1
        type = 'PER'
      }
    }
    // A town, a comma and a US state read as one span is a place, whatever the tagger's type and
    // however slight its margin over the comma ("Tuscumbia , Ala.").
    if (!noisy && townState(doc, a, b)) {
      type = 'LOC'
      stated = true
    }
    // A US state abbreviation after a place and a comma is a place too ("Gunnison , Colo."),
    // untagged or tagged alone, whatever its type; a one-word "person" or "organization" right
    // before one is a place ("Jackson , Wyo.").
    const st = b + 1
    if (
      !noisy &&
      st < doc.tokens.length &&
      (!taken[st] || lone[st]) &&
      doc.tokens[b].text === ',' &&
      doc.tokens[st].sent === doc.tokens[a].sent &&
      stateAbbrAt(doc, st) &&
      (type === 'LOC' || ((type === 'PER' || type === 'ORG') && b - a === 1))
    ) {
      out.push({ ...mentionFromTokens(doc.text, doc.tokens, a, b, 'LOC'), stated: true })
      out.push({ ...mentionFromTokens(doc.text, doc.tokens, st, st + 1, 'LOC'), stated: true })
      if (taken[st]) claimed.add(st)
      continue
    }
    // "the General Accounting Office ( GAO )": an acronym in brackets right after an
    // organization's name, untagged or tagged alone, is an organization too, and confirms the name.
    const acronym =
      type === 'ORG' &&
      !noisy &&
      b + 2 < doc.tokens.length &&
      doc.tokens[b].text === '(' &&
      doc.tokens[b + 2].text === ')' &&
      (!taken[b + 1] || lone[b + 1]) &&
      doc.tokens[b + 1].sent === doc.tokens[a].sent &&
      (isAcronymOf(doc, a, b, doc.tokens[b + 1].text, ctx) || translatedAcronym(doc, a, b, doc.tokens[b + 1].text, ctx))
    const m = mentionFromTokens(doc.text, doc.tokens, a, b, type)
    if (stated || acronym) m.stated = true
    out.push(m)
    if (acronym) {
      const short: Mention = { ...mentionFromTokens(doc.text, doc.tokens, b + 1, b + 2, 'ORG'), stated: true }
      ACRONYM_OF.set(short, m)
      out.push(short)
      if (taken[b + 1]) claimed.add(b + 1)
    }
  }
  const added = noisy ? [] : untaggedNames(doc, taken, misc, ctx)
  for (const m of titles) added.push(m)
  for (const m of added) out.push(m)
  if (added.length) out.sort((x, y) => x.first - y.first)
  // The layouts of particular sources (datelines, source lines): format-rules.ts.
  if (noisy) return out
  let ruled = joinOfNames(doc, out)
  ruled = joinForNames(doc, ruled)
  ruled = joinCampus(doc, ruled, ctx)
  for (const rule of FORMAT_RULES) ruled = rule.apply(doc, ruled, ctx)
  placeLists(doc, ruled, ctx)
  placeNounLists(doc, ruled)
  spreadStated(ruled)
  return ruled
}

const spacedLower = (s: string) => collapseSpaces(s.toLowerCase())

/**
 * "Paris , London and Oxford", "Liverpool , Southampton and Plymouth": a person or an organization
 * the gazetteer knows as a city, a country or a region, listed among places (a list of three names
 * or more, joined by commas and "and" only, two of the others places and none of another type of
 * ours), is a place. The tagger learnt clubs named after towns from sports pages.
 */
export function placeLists(doc: Tokenized, mentions: Mention[], ctx: RuleContext): void {
  const t = doc.tokens
  for (let i = 0; i < mentions.length;) {
    let j = i + 1
    while (j < mentions.length && listJoined(t, mentions[j - 1], mentions[j])) j++
    if (j - i >= 3) {
      const list = mentions.slice(i, j)
      const places = list.filter((m) => m.type === 'LOC').length
      const odd = list.filter((m) => m.type !== 'LOC')
      if (places >= 2 && odd.every((m) => m.type === 'PER' || m.type === 'ORG'))
        for (const m of odd) {
          if (m.stated || m.last - m.first > 3) continue
          const words: string[] = []
          for (let k = m.first; k < m.last; k++) words.push(t[k].text.toLowerCase())
          if (ctx.gaz(words) & (GAZ_PLACE | GAZ_REGION)) m.type = 'LOC'
        }
    }
    i = j
  }
}

/** Two mentions of one sentence with only commas and "and" between them (one or two tokens). */
function listJoined(t: Token[], x: Mention, y: Mention): boolean {
  if (x.sent !== y.sent || y.first <= x.last || y.first - x.last > 2) return false
  for (let i = x.last; i < y.first; i++) if (t[i].text !== ',' && t[i].text !== 'and') return false
  return true
}

// A plural of a place's noun, and what may stand between it and the names it lists.
const PLACE_NOUNS =
  /^(?:towns|cities|villages|hamlets|municipalities|communes|suburbs|neighbourhoods|neighborhoods|areas|communities|settlements|districts|counties|provinces|regions|islands|parishes|boroughs|townships|localities)$/
const LIST_LEAD = /^(?:of|are|were|include|included|including|such|as|like)$/

/**
 * "the towns Durán , Samborondón , and Guayaquil", "the unincorporated areas of Chocolate Bayou ,
 * Lochridge , Otey , and Sandy Point", "regions such as Transcarpathia , Pokuttia": names listed
 * right after a plural of a place's noun are places. The tagger's persons and organizations of
 * one to three words among them become places, stated; the list is the names joined by commas,
 * "and" and "or" only.
 */
export function placeNounLists(doc: Tokenized, mentions: Mention[]): void {
  const t = doc.tokens
  for (let i = 0; i < mentions.length; i++) {
    const m = mentions[i]
    let k = m.first - 1
    let lead = 0
    while (k >= 0 && lead < 2 && LIST_LEAD.test(t[k].text) && t[k].sent === m.sent) {
      k--
      lead++
    }
    if (k < 0 || t[k].sent !== m.sent || !PLACE_NOUNS.test(t[k].text)) continue
    let j = i
    for (;;) {
      const x = mentions[j]
      if ((x.type === 'PER' || x.type === 'ORG') && !x.stated && x.last - x.first <= 3) {
        x.type = 'LOC'
        x.stated = true
      }
      const y = mentions[j + 1]
      if (!y || y.sent !== x.sent || y.first <= x.last || y.first - x.last > 2) break
      let joined = true
      for (let q = x.last; q < y.first; q++) if (!/^(?:,|and|or)$/.test(t[q].text)) joined = false
      if (!joined) break
      j++
    }
    i = j
  }
}

/**
 * One name, one type in a document: where the context stated a name's type ("the Bose
 * QuietComfort headphones", "headquartered in Redmond"), the tagger's other mentions of the same
 * name take that type, stated too (the tagger reads each sentence alone and may type the bare
 * name otherwise). Not when the contexts stated different types.
 */
export function spreadStated(mentions: Mention[]): void {
  const stated = new Map<string, EntityType | null>()
  for (const m of mentions) {
    if (!m.stated) continue
    const k = spacedLower(m.text)
    const seen = stated.get(k)
    stated.set(k, seen === undefined || seen === m.type ? m.type : null)
  }
  if (!stated.size) return
  for (const m of mentions) {
    if (m.stated) continue
    const type = stated.get(spacedLower(m.text))
    if (type && type !== m.type) {
      m.type = type
      m.stated = true
    }
  }
}

const FIRM_END =
  /^(?:Pictures|Ventures|Films|Productions|Entertainment|Holdings|Partners|Motors|Airlines|Airways|Bros\.?|Communications|Technologies|Industries|Enterprises|Publishing|Publishers|Pharmaceuticals|Investments|Associates|Inc\.?|Ltd\.?|Corp\.?|LLC|plc|PLC|AG|GmbH|Oy|AB|SpA|S\.A\.?|Bankası|Fotball)$/

/**
 * A person's span [a, b) of two words or more ending in a firm's word, a company's legal form or a
 * bank's or a club's word in another language ("Walt Disney Pictures", "Warner Bros.", "Kekkila Oy",
 * "Vakıflar Bankası"); a party's is `foreignPartyName`'s.
 */
export function firmName(doc: Tokenized, a: number, b: number): boolean {
  return b - a >= 2 && FIRM_END.test(doc.tokens[b - 1].text)
}

// Last words of a band's or an orchestra's name: in the gold of the train splits, mentions of two
// words or more ending so are organizations (30; WNUT-17 has 2 groups and a product), never persons.
const BAND_END = /^(?:Band|Orchestra|Ensemble|Quartet|Quintet|Philharmonic|Explosion)$/

/** [a, b) is a name of two words or more ending in a band's word ("Eli Young Band"). */
export function bandName(doc: Tokenized, a: number, b: number): boolean {
  return b - a > 1 && BAND_END.test(doc.tokens[b - 1].text)
}

/**
 * The start of a person's name [a, …) run back over up to two untagged initials right before it
 * in the sentence ("[T. S.] Eliot", "[J.] Michael Straczynski"), no further back than two tokens
 * before the tagger's span, which starts at `first`.
 */
export function initialsStart(doc: Tokenized, a: number, first: number, taken: Uint8Array): number {
  const t = doc.tokens
  while (a > 0 && a > first - 2 && !taken[a - 1] && t[a - 1].sent === t[a].sent && /^\p{Lu}\.$/u.test(t[a - 1].text)) a--
  return a
}

/**
 * Token a - 1, right before a person's one-word span at a, is an untagged title-case word of the
 * sentence that the gazetteer knows as a first name and not as an ordinary word; not a title, a
 * month, a greeting nor a point of the compass.
 */
export function firstNameBefore(doc: Tokenized, a: number, taken: Uint8Array, ctx: RuleContext): boolean {
  const t = doc.tokens
  const w = t[a - 1].text
  if (taken[a - 1] || t[a - 1].sent !== t[a].sent || !TITLE_CASE.test(w) || PERSON_TITLE.test(w)) return false
  // "April Fools", "Hi Nelson", "West Ham": a month, a greeting, a point of the compass.
  if (MONTH_OR_DAY.test(w) || GREETING.test(w) || /^(?:North|South|East|West)$/.test(w)) return false
  const g = wordGaz(ctx, w)
  return (g & GAZ_FIRST) !== 0 && (g & GAZ_COMMON) === 0
}

/** Marks tokens [b, e) taken by a name that a rule ran on over them; returns e. */
function takeTo(taken: Uint8Array, b: number, e: number): number {
  for (let k = b; k < e; k++) taken[k] = 1
  return e
}

// A party's word in other languages, first or last in its name ("Refah Partisi", "Parti Québécois").
const FOREIGN_PARTY_END = /^(?:Partisi|Partei|Parti|Partido|Partito|Partij|Partiet|Partia|Partija|Stranka|Strana)$/
const FOREIGN_PARTY_START = /^(?:Parti|Partido|Partito|Partij|Partia|Partija|Stranka|Strana)$/

/** [a, b) is a name of two words or more that a party's word in another language opens or ends. */
export function foreignPartyName(doc: Tokenized, a: number, b: number): boolean {
  const t = doc.tokens
  return b - a > 1 && (FOREIGN_PARTY_END.test(t[b - 1].text) || FOREIGN_PARTY_START.test(t[a].text)) && /^\p{Lu}/u.test(t[a].text)
}

// "The Everly Brothers", "Warner Bros.", "Scissor Sisters": a group of siblings by name is a band
// or a firm (gold of the training files: 13 such mentions, 10 organizations and 3 of a TV show's
// name, no person).
const SIBLINGS_END = /^(?:Brothers|Bros\.?|Sisters)$/

/** [a, b) is a name of two words or more, capitalised, ending in Brothers, Bros or Sisters. */
export function siblingsName(doc: Tokenized, a: number, b: number): boolean {
  const t = doc.tokens
  return b - a > 1 && SIBLINGS_END.test(t[b - 1].text) && /^\p{Lu}/u.test(t[a].text)
}

// The heads of an organization's name that "of", a field and "and" another field complete
// ("National University of Sciences and Technology", "Institute of Management and Health").
const OF_AND_HEAD =
  /^(?:University|Universities|Academy|College|Institute|School|Society|Department|Ministry|Council|Commission|Committee|Board|Bureau|Office|Agency|Faculty|Centre|Center|Laboratory|Foundation|Association|Federation|Union|League)$/

/**
 * An organization's name [a, b) ending in a head word, "of" and capitalised words, or of two
 * capitalised words or more (and the joiners of, for, the), then "and" and one untagged title-case
 * word of the sentence that no capitalised word follows and that the gazetteer knows as no place,
 * first name or other name: that word ends the name ("[National University of Sciences] and
 * Technology ( NUST )", "[Toulouse Chamber of Commerce] and Industry", "[Public Service] and
 * Administration"); its end, else -1. Not "the University of Oxford and Cambridge University", nor
 * "the Bank of England and Barclays" (a name of its own).
 */
export function ofAndFieldEnd(doc: Tokenized, a: number, b: number, taken: Uint8Array, ctx: RuleContext): number {
  const t = doc.tokens
  const w = b + 1
  if (w >= t.length || t[b].text !== 'and' || taken[w] || t[w].sent !== t[a].sent || !TITLE_CASE.test(t[w].text)) return -1
  if (w + 1 < t.length && t[w + 1].sent === t[w].sent && /^\p{Lu}/u.test(t[w + 1].text)) return -1
  if (wordGaz(ctx, t[w].text) & (GAZ_PLACE | GAZ_REGION | GAZ_FIRST | GAZ_DEMONYM | GAZ_KNOWN_NAME)) return -1
  // "Toulouse Chamber of Commerce and Industry", "Nippon Telegraph and Telephone": a name of two
  // capitalised words or more (and joiners) goes on over "and" and such a word too; not after a
  // body's word ("Harvard University and Yale": another name).
  if (b - a >= 2 && allCapitalised(t, a, b) && !BODY_WORD.test(t[b - 1].text)) return w + 1
  let k = b - 1
  while (k > a && /^\p{Lu}/u.test(t[k].text)) k--
  if (k === b - 1 || k - 1 < a || t[k].text !== 'of' || !OF_AND_HEAD.test(t[k - 1].text)) return -1
  return w + 1
}

// Heads of an organization's name that "for" and a field complete ("Oak Ridge Institute for
// Science and Education", "American Association for the Advancement of Science").
const FOR_HEAD =
  /^(?:Institute|Center|Centre|Association|Society|Council|Committee|Commission|Foundation|Fund|Agency|Office|Bureau|League|Alliance|Coalition|Campaign|Union|Federation|Organi[sz]ation|Laboratory|School|Academy|College|Movement|Party)$/

/**
 * Names the tagger cut in two at "for": an organization's mention ending in a body's head word,
 * "for" (and "the"), and an organization's mention right after it in the sentence, all of its
 * words capitalised or joiners, are one organization ("[Oak Ridge Institute] for [Science and
 * Education]"). Not a person or a place after "for", nor a body's name ("leave the [Quebec Liberal
 * Party] for the [Parti Québécois]").
 */
export function joinForNames(doc: Tokenized, mentions: Mention[]): Mention[] {
  return joinAdjacent(doc, mentions, (_, m, n) => (forJoins(doc, m, n) ? 'ORG' : undefined))
}

/** Whether `m`, "for" (and "the") and `n` make one organization (see joinForNames). */
function forJoins(doc: Tokenized, m: Mention, n: Mention | undefined): boolean {
  const t = doc.tokens
  if (!n || m.type !== 'ORG' || n.type !== 'ORG' || n.sent !== m.sent || t[m.last]?.text !== 'for') return false
  const gap = t[m.last + 1]?.text === 'the' ? 2 : 1
  if (n.first !== m.last + gap || !FOR_HEAD.test(t[m.last - 1].text) || !/^\p{Lu}/u.test(t[m.first].text)) return false
  for (let i = m.first; i < m.last; i++) if (t[i].text === 'and' || t[i].text === ',') return false
  for (let i = n.first; i < n.last; i++) if (!/^\p{Lu}/u.test(t[i].text) && !/^(?:of|and|the|for|&)$/.test(t[i].text)) return false
  // "leave the [Quebec Liberal Party] for [the Parti Québécois]": a body's name after "for" is another body.
  for (let i = n.first; i < n.last; i++) if (BODY_WORD.test(t[i].text)) return false
  return !foreignPartyName(doc, n.first, n.last)
}

// Verbs and nouns of authorship right before a work's title ("author of Shishupala Vadha", "he
// wrote Oliver Twist").
const AUTHORED = /^(?:wrote|authored|composed|penned)$/

/**
 * A name [a, b) right after "author of", "wrote", "authored", "composed" or "penned" (and "the")
 * in its sentence, not followed by a possessive ("co-wrote Martina McBride 's single"), is a work.
 */
/**
 * "he wrote Oliver Twist , The Pickwick Papers and Nicholas Nickleby": a name listed after what is
 * written (commas and "and" only, up to three names back, each of capitalised words and joiners)
 * is written too.
 */
export function authoredListed(doc: Tokenized, a: number, b: number): boolean {
  const t = doc.tokens
  if (b < t.length && /^['’]s?$/.test(t[b].text)) return false
  let k = a - 1
  let items = 0
  while (k >= 0 && t[k].sent === t[a].sent && items < 3) {
    if (t[k].text === 'and') k--
    if (k >= 0 && t[k].text === ',') k--
    if (k < 0 || !/^\p{Lu}/u.test(t[k].text) || k === a - 1) return false
    // The item before: capitalised words and joiners back to the first capital.
    let f = k
    while (
      f > 0 &&
      t[f - 1].sent === t[a].sent &&
      (/^\p{Lu}/u.test(t[f - 1].text) || (/^(?:of|the|and|in|a)$/.test(t[f - 1].text) && /^\p{Lu}/u.test(t[f - 2]?.text ?? '')))
    )
      f--
    if (authoredWork(doc, f, k + 1)) return true
    k = f - 1
    items++
  }
  return false
}

export function authoredWork(doc: Tokenized, a: number, b: number): boolean {
  const t = doc.tokens
  let k = a - 1
  if (k >= 0 && t[k].text === 'the') k--
  if (k < 0 || t[k].sent !== t[a].sent) return false
  if (b < t.length && /^['’]s?$/.test(t[b].text)) return false
  if (AUTHORED.test(t[k].text)) return true
  return k > 0 && t[k].text === 'of' && /^(?:author|authors)$/i.test(t[k - 1].text) && t[k - 1].sent === t[a].sent
}

const PLURAL_NAME = /^\p{Lu}[\p{L}'’-]*[^\Wsu]s$/u
const BAND_WORD = /^(?:Band|Orchestra|Gang|Crew|Company|Experience|Family)$/
// Parties' and sides' members, which a leader stands with ("Obama and the Democrats").
const MEMBERS =
  /^(?:Democrats|Republicans|Conservatives|Liberals|Socialists|Communists|Tories|Greens|Unionists|Nationalists|Loyalists|Allies|Rebels|Apostles|Disciples)$/

/**
 * A person's name, "and the", then one to four capitalised words ending in a plural or a band's
 * word ("Tom Petty and the Heartbreakers", "Derek and the Dominos", "KC and the Sunshine Band")
 * is one band's name, an organization: the spans the tagger cut there are joined. Not when the
 * words after "the" are a known name of any type, a place or a nationality ("Jeter and the
 * Yankees", "Hussein and the Kurds"): two names.
 */
export function joinBackingBands(doc: Tokenized, spans: TaggedSpan[], ctx: RuleContext): TaggedSpan[] {
  const t = doc.tokens
  let out: TaggedSpan[] | undefined
  for (const s of spans) {
    const i = s.last
    if (s.type !== 'PER' || s.last - s.first > 3 || i + 2 >= t.length || t[i].text !== 'and' || t[i + 1].text !== 'the') continue
    if (t[i + 2].sent !== t[s.first].sent) continue
    let j = i + 2
    while (j < t.length && j < i + 6 && t[j].sent === t[i].sent && /^\p{Lu}/u.test(t[j].text)) j++
    if (j === i + 2 || (j < t.length && t[j].sent === t[i].sent && /^\p{Lu}/u.test(t[j].text))) continue
    const last = t[j - 1].text
    if ((!PLURAL_NAME.test(last) && !BAND_WORD.test(last)) || MEMBERS.test(last)) continue
    const ws: string[] = []
    for (let k = i + 2; k < j; k++) ws.push(t[k].text.toLowerCase())
    if (
      ctx.gaz(ws) & (GAZ_PLACE | GAZ_REGION | GAZ_DEMONYM | GAZ_KNOWN_NAME) ||
      wordGaz(ctx, last) & (GAZ_PLACE | GAZ_REGION | GAZ_DEMONYM)
    )
      continue
    out ??= spans.slice()
    out = out.filter((x) => x !== s && !(x.first < j && x.last > i))
    out.push({ ...s, type: 'ORG', last: j })
  }
  return out ? out.sort((x, y) => x.first - y.first) : spans
}

/** Touching tokens i and i + 1 (no space between them). */
const touching = (doc: Tokenized, i: number) => doc.tokens[i].end === doc.tokens[i + 1].start

/** A word that hyphenedEdges joins across a hyphen (not a closure: it runs for every span). */
function hyphenJoins(w: string, taken: number, person: boolean, ctx: RuleContext): boolean {
  if (taken || !/^[\p{L}\p{N}]/u.test(w)) return false
  return /^[\p{Lu}\p{N}]/u.test(w) || (person && !(wordGaz(ctx, w) & GAZ_COMMON))
}

/**
 * [a, b) widened over a hyphen written without spaces and the word on its other side, when no
 * other name holds that word: "Guinea-Bissau", "Dublin North-West", "T-Bone Walker"; a lower-case
 * half only in a person's name and when no ordinary word ("Kim Dae-jung"; not "Obama-era",
 * "Paris-based").
 */
function hyphenedEdges(doc: Tokenized, a: number, b: number, taken: Uint8Array, person: boolean, ctx: RuleContext): [number, number] {
  const t = doc.tokens
  while (
    b + 1 < t.length &&
    t[b].text === '-' &&
    touching(doc, b - 1) &&
    touching(doc, b) &&
    hyphenJoins(t[b + 1].text, taken[b + 1], person, ctx)
  )
    b += 2
  while (
    a >= 2 &&
    t[a - 1].text === '-' &&
    touching(doc, a - 2) &&
    touching(doc, a - 1) &&
    hyphenJoins(t[a - 2].text, taken[a - 2], person, ctx) &&
    /^\p{Lu}/u.test(t[a - 2].text)
  )
    a -= 2
  return [a, b]
}

/**
 * A person's or an organization's span of one or two words, a comma, and a span of three words with
 * "&" in the middle ("Emerson , [Lake & Palmer]", "Earth , [Wind & Fire]"): one organization's name,
 * which the tagger cut at the comma.
 */
export function joinAmpersandNames(doc: Tokenized, spans: TaggedSpan[]): TaggedSpan[] {
  const t = doc.tokens
  if (!spans.some((s, i) => ampersandJoins(t, s, spans[i + 1]))) return spans
  const out: TaggedSpan[] = []
  for (let i = 0; i < spans.length; i++) {
    if (ampersandJoins(t, spans[i], spans[i + 1])) {
      out.push({ ...spans[i + 1], type: 'ORG', first: spans[i].first })
      i++
    } else out.push(spans[i])
  }
  return out
}

/** `x`, a comma and `y` of three words with "&" in the middle (see joinAmpersandNames). */
function ampersandJoins(t: Token[], x: TaggedSpan, y: TaggedSpan | undefined): boolean {
  return (
    y !== undefined &&
    (x.type === 'PER' || x.type === 'ORG') &&
    (y.type === 'PER' || y.type === 'ORG') &&
    x.last - x.first <= 2 &&
    t[x.last]?.text === ',' &&
    y.first === x.last + 1 &&
    y.last - y.first === 3 &&
    t[y.first + 1].text === '&' &&
    t[x.first].sent === t[y.first].sent
  )
}

const QUOTE = /^["“”]$/
const NAME_WORD = /^(?:\p{Lu}\p{Ll}+|\p{Lu}\.)$/u

/**
 * A person's span of one to three words, a nickname of one or two capitalised words in double
 * quotes and a surname ("James Llewellyn " Jimmy " Frise", "Rubin " Hurricane " Carter"): one
 * person's name, which the tagger cut at the quote (or read the nickname and surname as another
 * person). The surname is one title-case word ending the run of capitals, untagged or a person's
 * span that ends there.
 */
export function joinNicknames(doc: Tokenized, spans: TaggedSpan[]): TaggedSpan[] {
  const t = doc.tokens
  const at = new Map<number, number>()
  spans.forEach((s, i) => {
    for (let k = s.first; k < s.last; k++) at.set(k, i)
  })
  let out: TaggedSpan[] | undefined
  const drop = new Set<number>()
  for (let i = 0; i < spans.length; i++) {
    const s = spans[i]
    if (s.type !== 'PER' || s.last - s.first > 3 || drop.has(i)) continue
    const k = s.last
    if (k >= t.length || !QUOTE.test(t[k].text) || t[k].sent !== t[s.first].sent) continue
    let n = k + 1
    while (n < t.length && n - k - 1 < 2 && NAME_WORD.test(t[n].text)) n++
    const surname = n + 1
    if (n === k + 1 || surname >= t.length || !QUOTE.test(t[n].text)) continue
    if (t[surname].sent !== t[s.first].sent || !TITLE_CASE.test(t[surname].text)) continue
    if (surname + 1 < t.length && t[surname + 1].sent === t[s.first].sent && /^\p{Lu}/u.test(t[surname + 1].text)) continue
    // Every token from the quote to the surname untagged or a person's span ending by the surname.
    let ok = true
    const joined = new Set<number>()
    for (let j = k; j <= surname && ok; j++) {
      const x = at.get(j)
      if (x === undefined) continue
      if (spans[x].type !== 'PER' || spans[x].last > surname + 1) ok = false
      else joined.add(x)
    }
    if (!ok) continue
    out ??= spans.slice()
    out[i] = { ...s, last: surname + 1 }
    for (const x of joined) drop.add(x)
  }
  return out ? out.filter((_, i) => !drop.has(i)) : spans
}

// What may follow a comma inside a firm's or a person's name ("Atari , Inc.", "William F. Buckley , Jr").
const AFTER_COMMA = /^(?:Inc|Ltd|Co|Corp|LLC|L\.P|N\.A|plc|PLC|Jr|Sr|II|III|IV)\.?$/

/** The separators to cut a span at (commas, or "and" before a capital), or none (see splitJoined). */
function cutsOf(t: Token[], s: TaggedSpan): number[] {
  const out: number[] = []
  if (s.type === 'PER' || s.type === 'ORG') {
    for (let i = s.first; i < s.last; i++) {
      const w = t[i].text
      if (w === '&' || w === '(' || w === ')' || AFTER_COMMA.test(w)) return []
      if (w === ',' && i > s.first && i < s.last - 1) out.push(i)
    }
  }
  // Two bodies: "Party of Regions and the Communist Party of Ukraine", "African Conservation
  // Foundation and Greenpeace" (a body's word before "and", a name after it); not "Department of
  // Health and Human Services", "Marks and Spencer" (no body's word), "Bible College and Seminary".
  if (s.type === 'ORG' && !out.length)
    for (let i = s.first + 2; i < s.last - 1; i++)
      if (
        t[i].text === 'and' &&
        (BODY_WORD.test(t[i - 1].text) || t[i + 1].text === 'the') &&
        holdsBody(t, s.first, i) &&
        (holdsBody(t, i + 1, s.last) || (BODY_WORD.test(t[i - 1].text) && namedAfter(t, i + 1, s.last)))
      )
        out.push(i)
  // Two titles: "Clubland and New Lace Sleeves"; not "Pride and Prejudice" (three words).
  if (s.type === 'OBJ' && s.last - s.first > 3)
    for (let i = s.first + 1; i < s.last - 1; i++)
      if (t[i].text === 'and' && /^\p{Lu}/u.test(t[i + 1].text) && t[i - 1].text !== ',') out.push(i)
  return out
}

/**
 * Names the tagger ran together, split apart. A person's or an organization's span that holds a
 * comma ("Faith No More , Rage Against the Machine", "James , Suzanne Vega"; no such span of the
 * training corpora's out-of-fold entities was a gold name) is cut at its commas; not a firm with
 * "&" or a suffix ("Emerson , Lake & Palmer", "Goldman , Sachs & Co", "Atari , Inc."), nor a span
 * with a bracket. Places keep theirs ("Washington , D.C."), works too ("Knowing Me , Knowing You").
 * A work's span of four tokens or more is cut at "and" before a capital ("Clubland and New Lace
 * Sleeves": of such spans, 1 in 4 was a gold name out of fold, "Sense and Sensibility").
 */
export function splitJoined(doc: Tokenized, spans: TaggedSpan[]): TaggedSpan[] {
  const t = doc.tokens
  // "de Clerq ( Belgium", "Abraham ( 1751-1831": a name ends before a bracket it does not close
  // (out of fold, none of the 31 such spans of the training corpora was a gold name).
  spans = spans.map((s) => {
    if (s.type === 'MISC' || s.type === 'OBJ') return s
    for (let i = s.first + 1; i < s.last; i++) {
      if (t[i].text === ')') return s
      if (t[i].text === '(') {
        let closed = false
        for (let k = i + 1; k < s.last; k++) if (t[k].text === ')') closed = true
        return closed ? s : { ...s, last: i }
      }
    }
    return s
  })
  if (!spans.some((s) => cutsOf(t, s).length)) return spans
  const out: TaggedSpan[] = []
  for (const s of spans) {
    const at = cutsOf(t, s)
    if (!at.length) {
      out.push(s)
      continue
    }
    let a = s.first
    for (const i of [...at, s.last]) {
      if (i > a) out.push({ ...s, first: a, last: i })
      a = i + 1
      if (a < s.last && t[i].text === 'and' && t[a].text === 'the') a++
    }
  }
  return out
}

/**
 * "[University of Groningen and University] of Twente": an organization's span of a body's name,
 * "and" and a body's word that opens the next name, which "of" continues right after the span, is
 * cut before "and" (the body's word then joins its "of" name: joinOfNames). Not "Department of
 * Health and Human Services" (no body's word after "and").
 */
export function splitBeforeBody(doc: Tokenized, spans: TaggedSpan[]): TaggedSpan[] {
  return cutSpansAt(doc.tokens, spans, beforeBodyAt)
}

/** Where splitBeforeBody cuts span s: the index of "and", or -1. */
function beforeBodyAt(t: Token[], s: TaggedSpan): number {
  if (s.type !== 'ORG' || s.last >= t.length || t[s.last].text !== 'of' || t[s.last].sent !== t[s.first].sent) return -1
  const i = s.last - 2
  return i > s.first + 1 && t[i].text === 'and' && OF_JOIN_ORG.test(t[i + 1].text) && holdsBody(t, s.first, i) ? i : -1
}

/** Each span for which `at` gives a token i > 0 is cut in two there, the token at i left out of both. */
function cutSpansAt(t: Token[], spans: TaggedSpan[], at: (t: Token[], s: TaggedSpan) => number): TaggedSpan[] {
  if (!spans.some((s) => at(t, s) > 0)) return spans
  return spans.flatMap((s) => {
    const i = at(t, s)
    return i > 0
      ? [
          { ...s, last: i },
          { ...s, first: i + 1 },
        ]
      : [s]
  })
}

/**
 * A span of a firm's name that ends in a firm's word or legal form, then "of" and one to three
 * capitalised words that end the span ("[Avis Bourg Co. of Folsom]", "[Eagle-Picher Industries of
 * Cincinnati]"), is cut in two: the firm and the town it is of. Not where a country follows
 * ("Power Corp of Canada", a name of its own as often as not), nor a body's name ("Bank of
 * Finland": no firm's word before "of").
 */
export function splitFirmOfPlace(doc: Tokenized, spans: TaggedSpan[], ctx: RuleContext): TaggedSpan[] {
  const t = doc.tokens
  if (!spans.some((s) => firmOfPlaceAt(t, ctx, s) > 0)) return spans
  return spans.flatMap((s) => {
    const i = firmOfPlaceAt(t, ctx, s)
    return i > 0
      ? [
          { ...s, last: i, type: 'ORG' as const },
          { ...s, first: i + 1, type: 'LOC' as const },
        ]
      : [s]
  })
}

/** Where splitFirmOfPlace cuts span s: the index of "of", or -1. */
function firmOfPlaceAt(t: Token[], ctx: RuleContext, s: TaggedSpan): number {
  if (s.type === 'MISC') return -1
  for (let i = s.first + 2; i < s.last - 1; i++) {
    if (t[i].text !== 'of' || !(FIRM_END.test(t[i - 1].text) || /^Co\.?$/.test(t[i - 1].text))) continue
    if (s.last - i - 1 > 3) return -1
    const ws: string[] = []
    for (let k = i + 1; k < s.last; k++) {
      if (!/^\p{Lu}\p{Ll}*(?:\p{Lu}\p{Ll}+)?\.?$/u.test(t[k].text)) return -1
      ws.push(t[k].text.toLowerCase())
    }
    return ctx.gaz(ws) & GAZ_COUNTRY ? -1 : i
  }
  return -1
}

const NAME_TOKEN = /^(?:\p{Lu}\p{Ll}+|\p{Lu}\.)$/u
/**
 * An organization's or a place's span that opens with a person's name (a known first name and
 * one or two capitalised words or initials, after one capitalised word such as a title), then "of"
 * and a name ("[Dr. Alain Farley of McGill University]", "[Democrat Bill Clinton of Arkansas]"):
 * the person and what the person is of, the word before the name left out. The part after "of"
 * is a place if the gazetteer knows it as one, else an organization. Not "Duke of Edinburgh",
 * "John of Gaunt" (no first name and surname before "of").
 */
export function splitPersonOf(doc: Tokenized, spans: TaggedSpan[], ctx: RuleContext): TaggedSpan[] {
  const t = doc.tokens
  if (!spans.some((s) => personOfAt(t, ctx, s))) return spans
  return spans.flatMap((s) => {
    const at = personOfAt(t, ctx, s)
    if (!at) return [s]
    const [n, i] = at
    const ws: string[] = []
    for (let k = i + 1; k < s.last; k++) ws.push(t[k].text.toLowerCase())
    const rest = ctx.gaz(ws) & (GAZ_PLACE | GAZ_REGION) ? ('LOC' as const) : ('ORG' as const)
    return [
      { ...s, first: n, last: i, type: 'PER' as const },
      { ...s, first: i + 1, type: rest },
    ]
  })
}

/** Where the person's name [n, i) and "of" at i sit in the span (see splitPersonOf), if they do. */
function personOfAt(t: Token[], ctx: RuleContext, s: TaggedSpan): [number, number] | undefined {
  if (s.type !== 'ORG' && s.type !== 'LOC') return undefined
  const n = s.first + 1
  if (n + 3 >= s.last || !/^\p{Lu}/u.test(t[s.first].text) || !TITLE_CASE.test(t[n].text)) return undefined
  const g = wordGaz(ctx, t[n].text)
  if (!(g & GAZ_FIRST) || g & (GAZ_PLACE | GAZ_REGION | GAZ_COMMON | GAZ_DEMONYM)) return undefined
  for (const i of [n + 2, n + 3]) {
    if (i >= s.last - 1 || t[i].text !== 'of' || !/^\p{Lu}/u.test(t[i + 1].text)) continue
    let ok = TITLE_CASE.test(t[i - 1].text)
    for (let k = n + 1; k < i; k++)
      if (!NAME_TOKEN.test(t[k].text) || BODY_WORD.test(t[k].text) || ORG_END.test(t[k].text) || NAMED_BODY.test(t[k].text)) ok = false
    if (ok) return [n, i]
  }
  return undefined
}

// A body's head word that may own another body ("the University 's Institute for Human Gene Therapy").
const POSSESSING_BODY =
  /^(?:University|College|Institute|Laboratory|Laboratories|School|Academy|Church|church|Society|Foundation|Company|Corporation|Party|Council|Ministry|Department|Agency|Bank|Hospital|Museum|Center|Centre)$/
/**
 * An organization's span holding a body's head word, "'s" and capitalised words that end in a body's
 * word ("[Bar-Ilan University 's Center for Strategic Studies]", "[Laboratory 's InfoLab Group]") is
 * cut in two at the possessive: the owner and the body it owns. Not "People 's Party", "Queen 's
 * University", "Women 's Hospital" (no body's word before "'s").
 */
export function splitPossessedBody(doc: Tokenized, spans: TaggedSpan[]): TaggedSpan[] {
  return cutSpansAt(doc.tokens, spans, possessedBodyAt)
}

/** Where splitPossessedBody cuts span s: the index of "'s", or -1. */
function possessedBodyAt(t: Token[], s: TaggedSpan): number {
  if (s.type !== 'ORG') return -1
  for (let i = s.first + 1; i < s.last - 2; i++) {
    if (!/^['’]s$/.test(t[i].text) || !POSSESSING_BODY.test(t[i - 1].text)) continue
    if (!/^\p{Lu}/u.test(t[i + 1].text)) return -1
    const last = t[s.last - 1].text
    return ORG_END.test(last) ||
      NAMED_BODY.test(last) ||
      BODY_WORD.test(last) ||
      /^(?:Group|Studies|Unit|Program|Programme)$/.test(last) ||
      holdsBody(t, i + 1, s.last)
      ? i
      : -1
  }
  return -1
}

// Words of a body that make a name of it on either side of "and".
const BODY_WORD =
  /^(?:Party|League|Union|Movement|Front|Federation|Alliance|Bund|Society|Club|Church|University|Council|Commission|Committee|Congress|Bureau|School|Institute|College|Army|Navy|Agency|Department|Ministry|Organi[sz]ation|Company|Corporation|Association|Foundation|Brotherhood|Academy|Bank)$/

/**
 * Tokens [a, b) after "and" name a body of their own: capitalised words only, no joiner, none a
 * field's word ("[African Conservation Foundation] and [Greenpeace]"; not "Western Bible College
 * and Seminary", "Tokyo Medical College and Technology").
 */
function namedAfter(t: Token[], a: number, b: number): boolean {
  if (t[a].text === 'the') a++
  if (a >= b) return false
  for (let i = a; i < b; i++) if (!/^\p{Lu}/u.test(t[i].text) || FIELD_WORD.test(t[i].text)) return false
  return true
}
// Fields, and the houses a college or a church runs ("Bible College and Seminary", "Dental
// College and Hospital"): words that go on one body's name after "and".
const FIELD_WORD =
  /^(?:Industry|Trade|Commerce|Technology|Sciences?|Arts?|Culture|Health|Development|Research|Education|Design|Engineering|Medicine|Welfare|Services|Affairs|Justice|Security|Labou?r|Agriculture|Energy|Finance|Transport|Communications?|Sports?|Tourism|Information|Planning|Environment|Trust|Savings|Loan|Investment|Management|Seminary|Hospital|Museum|Library|Press|Conservatory)$/

/** Tokens [a, b) are two or more, start with a capital and hold a body's word. */
function holdsBody(t: Token[], a: number, b: number): boolean {
  if (t[a].text === 'the') a++
  if (b - a < 2 || !/^\p{Lu}/u.test(t[a].text)) return false
  for (let i = a; i < b; i++) if (BODY_WORD.test(t[i].text)) return true
  return false
}

const KIN =
  /^(?:wife|husband|son|daughter|sons|daughters|brother|sister|mother|father|widow|widower|parents|hometown|birthplace|assassin|killer|murderer|girlfriend|boyfriend|fiancee|fiance|fiancée|grandson|granddaughter|grandfather|grandmother|nephew|niece|uncle|aunt|cousin|biographer|funeral|grave)$/

/** [a, b), one to three capitalised words, then "'s" and a word only a person has ("hometown", "wife"); not the tail of "Stephanie of Monaco". */
function kinPossessor(doc: Tokenized, a: number, b: number): boolean {
  const t = doc.tokens
  if (b - a > 3 || b + 1 >= t.length || t[b + 1].sent !== t[a].sent || !/^['’]s$/.test(t[b].text) || !KIN.test(t[b + 1].text)) return false
  for (let i = a; i < b; i++) if (!TITLE_CASE.test(t[i].text)) return false
  return !(a > 0 && t[a - 1].sent === t[a].sent && /^of$/i.test(t[a - 1].text))
}

// Institutions named after a nationality ("French Government", "Chinese Army"). Not ministries,
// embassies or the police: CoNLL-2003 annotates "German Foreign Ministry" as a nationality only.
const INSTITUTION = /^(?:Government|Army|Navy|Parliament)$/

/** A nationality [a, b) followed by an untagged capitalised institution in the same sentence: the end of the name, else -1. */
function institutionEnd(doc: Tokenized, a: number, b: number, taken: Uint8Array, ctx: RuleContext): number {
  const t = doc.tokens
  if (b - a > 2 || b >= t.length || taken[b] || t[b].sent !== t[a].sent || !INSTITUTION.test(t[b].text)) return -1
  return wordGaz(ctx, t[b - 1].text) & GAZ_DEMONYM ? b + 1 : -1
}

const PLACE_NOUN =
  /^(?:site|town|city|village|capital|port|suburb|province|district|county|region|state|country|island|municipality|birthplace|hometown)$/

/**
 * [a, b), one to three capitalised words, followed by an apposition that says it is a place: "(" or
 * ",", an optional article, a place noun and "of" / "in" / "near" ("( site of the…", ", a town in…").
 * A nationality stays what it is ("Germans, a people of…" has no place noun anyway).
 */
function placeApposition(doc: Tokenized, a: number, b: number, ctx: RuleContext): boolean {
  const t = doc.tokens
  if (b - a > 3 || b + 2 >= t.length || (t[b].text !== '(' && t[b].text !== ',') || t[b].sent !== t[a].sent) return false
  for (let i = a; i < b; i++) if (!/^\p{Lu}/u.test(t[i].text)) return false
  if (b - a === 1 && wordGaz(ctx, t[a].text) & GAZ_DEMONYM) return false
  let k = b + 1
  if (/^(?:a|an|the)$/i.test(t[k].text)) k++
  return k + 1 < t.length && t[k + 1].sent === t[a].sent && PLACE_NOUN.test(t[k].text) && /^(?:of|in|near)$/.test(t[k + 1].text)
}

// Last words of a venue's name; the corpora annotate such names as places. Theatre in its British
// spelling (the train splits' gold: 6 of 7 places) and "Opera House", not Theater (a company or a
// band as often: "Texas Theater", "Dream Theater"), Center or Club (as often organizations), nor
// Park (a surname too).
const PLACE_OF_NOUN =
  /^(?:town|city|village|hamlet|duchy|county|island|islands|coast|province|region|kingdom|municipality|neighborhood|neighbourhood|suburb|district|commune|parish|borough|principality|outskirts|shores|north|south|east|west|northeast|northwest|southeast|southwest|territory|canton|prefecture|governorate)$/

/** A name of one to three words [a, b) right after a place's noun and "of" ("the town of McCarthy", "north of Romney"). */
export function placeNounOf(doc: Tokenized, a: number, b: number): boolean {
  const t = doc.tokens
  return b - a <= 3 && a >= 2 && t[a - 1].text === 'of' && PLACE_OF_NOUN.test(t[a - 2].text) && t[a - 2].sent === t[a].sent
}

const VENUE = /^(?:Arena|Stadium|Amphitheatre|Amphitheater|Ballroom|Coliseum|Colosseum|Hall|Theatre|Garden|Gardens)$/

/**
 * [a, b), two to five capitalised words ending in a venue's word ("Manchester Arena", "Clarke
 * Stadium", "Royal Festival Hall", "Boston Garden") or starting with a stadium's ("Stade de
 * France"). A person's name ending in "Hall" stays a person's ("Arsenio Hall"): Hall is a surname
 * too. Not Forum ("World Economic Forum"), Centre (medical and business centres).
 */
export function venueName(doc: Tokenized, a: number, b: number, type: EntityType): boolean {
  const t = doc.tokens
  const end =
    VENUE.test(t[b - 1].text) ||
    (b - a >= 3 && t[b - 1].text === 'House' && t[b - 2].text === 'Opera') ||
    /^(?:Stade|Estadio|Stadio)$/.test(t[a].text)
  if (b - a < 2 || b - a > 5 || !end || (type === 'PER' && t[b - 1].text === 'Hall')) return false
  // "The Secret Garden" is a book.
  if (type === 'OBJ' && /^Gardens?$/.test(t[b - 1].text)) return false
  for (let i = a; i < b; i++) if (!/^[\p{Lu}\p{N}]/u.test(t[i].text) && !/^(?:of|the|de)$/.test(t[i].text)) return false
  return true
}

// Last words of a place's name that the train splits' gold (mostly Re-DocRED) gives as places
// 90% of the time or more and never as persons: natural features, roads, stations. Not Bay,
// Forest, Mountain, Park, City, Coast, Church, House, Palace, Hill (teams, clubs, surnames,
// institutions as often).
const GEO_HEAD =
  /^(?:Lakes?|River|Glacier|Islands?|Mountains|Creek|Dam|Reservoir|Valley|Canyon|Beach|Falls|Harbour|Street|Road|Avenue|Square|Bridge|Airport|Station|Range|Desert|Sea|Ocean|Gulf|Strait|Peninsula|Hills|Cathedral|Cemetery|Trail|Canal|Reef|Monument|Wilderness|Peak|Basin|Springs|Swamp|Pond|Lagoon|Bight|Badlands|Motorway)$/
// Two last words of a protected area's name ("Olympic National Park", "Pasvik Nature Reserve"): Park and
// Reserve alone are no place's word ("Queen 's Park", "Federal Reserve").
const GEO_HEAD_PAIR = /^(?:National Park|Nature Reserve|Game Reserve|Wildlife Refuge)$/
// Lower-case words inside a name of capitalised words (a place's or an institution's).
const PLACE_JOINER = /^(?:of|the|de|del|du|la|le|des|di|da|and|for|'s|’s|&|-)$/
// Before a place in a sentence; a person's name ending in such a word ("Ricki Lake", "Picabo
// Street") needs one when it starts with a first name.
const PLACE_PREP = /^(?:in|at|near|on|from|to|into|across|along|of|the)$/i

/**
 * [a, b), two to six capitalised words (joiners allowed) ending in a GEO_HEAD word. A person's
 * name that starts with a known first name is a place only after a preposition or "the"
 * ("near Clark Lake"; not "Ricki Lake said").
 */
export function geoName(doc: Tokenized, a: number, b: number, type: EntityType | 'MISC', ctx: RuleContext): boolean {
  const t = doc.tokens
  if (b - a < 2 || b - a > 6 || /^(?:Battle|Siege)$/.test(t[a].text)) return false
  if (!GEO_HEAD.test(t[b - 1].text) && !(b - a >= 3 && GEO_HEAD_PAIR.test(`${t[b - 2].text} ${t[b - 1].text}`))) return false
  for (let i = a; i < b; i++) if (!/^[\p{Lu}\p{N}]/u.test(t[i].text) && !PLACE_JOINER.test(t[i].text)) return false
  if (type === 'PER' && !NO_SURNAME_HEAD.test(t[b - 1].text) && wordGaz(ctx, t[a].text) & GAZ_FIRST)
    return a > 0 && t[a - 1].sent === t[a].sent && PLACE_PREP.test(t[a - 1].text)
  return true
}

// Words of GEO_HEAD that end no person's name, after a first name too ("Henri Coandă International
// Airport"; not Lake, Street: "Ricki Lake", "Picabo Street").
const NO_SURNAME_HEAD = /^(?:Airport|Station|Cathedral|Cemetery|Canal|Reservoir|Glacier|Motorway)$/

// Last words of a place's name that the gold of the train splits gives no person or organization
// (Empire 22 places to 3 events' names, Drive 12 to 2, District 19 to 1, Rivers 2 to "Joan Rivers"),
// and a state's (Republic; Re-DocRED's "Roman Republic" and "Third Republic" are organizations, typed
// places by the tagger, which this leaves);
// not read on the tagger's miscellaneous spans ("Second Empire", "Google Drive").
const PLACE_END = /^(?:Empire|Drive|District|Rivers|Republic)$/

/**
 * [a, b), two to six words, capitalised or joiners, ending in a PLACE_END word ("Holy Roman Empire",
 * "Anthony Henday Drive", "Ambatofinandrahana District"), the tagger's person or organization: a
 * place. A person named Rivers ("Joan Rivers") keeps the tagger's type.
 */
export function placeEndName(doc: Tokenized, a: number, b: number, type: EntityType): boolean {
  const t = doc.tokens
  if (b - a < 2 || b - a > 6 || (type === 'PER' && t[b - 1].text === 'Rivers')) return false
  for (let i = a; i < b; i++) if (!/^[\p{Lu}\p{N}]/u.test(t[i].text) && !PLACE_JOINER.test(t[i].text)) return false
  if (PLACE_END.test(t[b - 1].text)) return true
  // "People 's Republic of China", "Republic of Korea": a state's name.
  for (let i = a; i + 2 < b; i++) if (t[i].text === 'Republic' && t[i + 1].text === 'of') return b - i - 2 <= 3
  return false
}

// Last words of an organization's name that the train splits' gold never gives a miscellaneous
// name (and an organization 90% of the time or more); not League, Society, Division, Club,
// Union, Bank, Conference (leagues, ranks, divisions of sport and the like are miscellaneous
// as often, or places and persons).
const ORG_END =
  /^(?:University|Party|Senate|Corporation|Force|Council|Commission|Committee|Congress|Bureau|School|Institute|College|Army|Navy|Agency|Department|Ministry|Service|Organi[sz]ation|Company|Group|Orchestra|Government|Authority|Board|Association|Foundation|Brotherhood|Fleet|Regiment)$/

const ROLE_WORD = /^(?:President|Vice|Fellow|Member|Hon\.?|Chairman|Director|Secretary|Minister|Executive|Officer|Governor)$/

/** The type the last word of a tagged miscellaneous span [a, b) of two words or more states, if any. */
function miscHead(doc: Tokenized, a: number, b: number, ctx: RuleContext): EntityType | undefined {
  // Not an event of a year ("1980 Republican Party [primaries]"), nor a person's role in a body
  // ("Fellow of the American Association", "Vice President of the … Corporation").
  if (b - a < 2 || !/^\p{Lu}/u.test(doc.tokens[a].text)) return undefined
  for (let i = a; i < b; i++) if (ROLE_WORD.test(doc.tokens[i].text)) return undefined
  if (ORG_END.test(doc.tokens[b - 1].text)) {
    for (let i = a; i < b; i++) if (!/^[\p{Lu}\p{N}]/u.test(doc.tokens[i].text) && !PLACE_JOINER.test(doc.tokens[i].text)) return undefined
    return 'ORG'
  }
  return geoName(doc, a, b, 'MISC', ctx) ? 'LOC' : undefined
}

// Words of a body that a nationality may stand before: the last words of ORG_END, and a
// parliament's, a court's or armed forces' ("the Philippine Assembly", "the British Armed Forces").
const NATIONAL_BODY = /^(?:Assembly|Parliament|Legislature|Cabinet|Court|Forces|Legion)$/

/**
 * After [a, b): the end of one to `max` untagged title-case words of its sentence, none a role
 * word or a job title, with no capitalised word right after them; else -1.
 */
function bodyWordsEnd(doc: Tokenized, a: number, b: number, taken: Uint8Array, max: number): number {
  const t = doc.tokens
  let e = b
  while (e < t.length && e - b < max && !taken[e] && t[e].sent === t[a].sent && TITLE_CASE.test(t[e].text)) {
    if (ROLE_WORD.test(t[e].text) || JOB_TITLE.test(t[e].text)) return -1
    e++
  }
  if (e === b || (e < t.length && t[e].sent === t[a].sent && /^\p{Lu}/u.test(t[e].text))) return -1
  return e
}

/**
 * A tagged miscellaneous span [a, b) of one or two words ending in a nationality, then one to three
 * untagged title-case words of the sentence whose last is a body's word ("Philippine Senate",
 * "Romanian Air Force", "British Armed Forces"): the end of the organization's name, else -1. The
 * run of capitalised words must end there ("Philippine Commission Report" is no body's name), and
 * no role word stands in it ("Malaysian Prime Minister"). CoNLL-2003 tags "French [Interior
 * Ministry]" with the ministry its own name: the tagger's span there is not untagged.
 */
function nationalBodyEnd(doc: Tokenized, a: number, b: number, taken: Uint8Array, ctx: RuleContext): number {
  const t = doc.tokens
  if (b - a > 2 || !(wordGaz(ctx, t[b - 1].text) & GAZ_DEMONYM)) return -1
  let e = bodyWordsEnd(doc, a, b, taken, 3)
  if (e < 0) return -1
  const last = t[e - 1].text
  if (!ORG_END.test(last) && !NATIONAL_BODY.test(last)) return -1
  // "Latin American School of Medicine": the body's name goes on over "of" and title-case words.
  if (BODY_OF.test(last) && e + 1 < t.length && /^(?:of|for)$/.test(t[e].text) && t[e + 1].sent === t[a].sent) {
    let f = e + 1
    while (f < t.length && f - e < 5 && !taken[f] && t[f].sent === t[a].sent && TITLE_CASE.test(t[f].text)) f++
    if (f > e + 1) e = f
  }
  return e
}

// A body's word that may head a name before "of" / "for" ("School of Medicine", "Faculty of
// Law", "House of Representatives", "Hospital for Tropical Diseases", "Diet of Japan").
const BODY_OF =
  /^(?:University|School|College|Academy|Institute|Faculty|Hospital|House|Diet|Council|Commission|Committee|Congress|Department|Ministry|Bureau|Agency|Board|Association|Society|Foundation|Museum|Court|Party|Corporation|Company|Bank)$/

/**
 * [a, b), a tagged miscellaneous span of three words or more, all capitalised or joiners, with a
 * body's word followed by "of" or "for" and a capitalised word ("Latin American School of
 * Medicine", "Hospital for Tropical Diseases"): an organization's name. Not an award ("Academy
 * Award" has no "of"; "Order of Merit" no body's word), nor a role in a body ("President of the
 * Board", "Fellow of the Royal Society").
 */
function miscBodyOf(doc: Tokenized, a: number, b: number): boolean {
  const t = doc.tokens
  if (b - a < 3 || !/^\p{Lu}/u.test(t[a].text) || AWARD_END.test(t[b - 1].text) || !/^[\p{Lu}\p{N}]/u.test(t[b - 1].text)) return false
  // A membership or a body's publication ("Fellowship of the Royal Society", "Proceedings of the
  // National Academy of Sciences").
  if (/^(?:Fellowship|Membership|Proceedings|Transactions|Annals|Bulletin)$/.test(t[a].text)) return false
  for (let i = a; i < b; i++) {
    if (ROLE_WORD.test(t[i].text) || JOB_TITLE.test(t[i].text)) return false
    if (!/^[\p{Lu}\p{N}]/u.test(t[i].text) && !PLACE_JOINER.test(t[i].text)) return false
  }
  for (let i = a; i + 2 < b; i++) if (BODY_OF.test(t[i].text) && /^(?:of|for)$/.test(t[i + 1].text)) return true
  return false
}

// What a sentence may say a name is that makes it a place ("… is a village in …").
const COPULA_PLACE =
  /^(?:village|villages|town|towns|city|cities|hamlet|municipality|municipalities|commune|communes|suburb|neighbourhood|neighborhood|river|lake|tributary|island|islands|volcano|glacier|reef|resort|settlement|parish|county|district|districts|province|region|peninsula|bay|creek|valley|mountain|archipelago|atoll|canal|canton|bight|isthmus|headland|strait|lagoon|estuary|fjord|plateau|street|avenue|boulevard|square|borough|township|capital)$/
// … an organization ("… is a Swedish orchestra …", "… is the only Turkish company to …").
const COPULA_ORG =
  /^(?:band|orchestra|ensemble|choir|duo|trio|quartet|company|corporation|firm|manufacturer|retailer|airline|club|university|college|academy|institute|agency|charity|regiment|brigade|battalion|squadron)$/
// … a person ("… is an American wrestler …", "… was a Danish malacologist who …").
const COPULA_PERSON =
  /^(?:singer|songwriter|actor|actress|politician|footballer|player|wrestler|boxer|writer|author|novelist|poet|painter|sculptor|composer|musician|pianist|guitarist|drummer|rapper|journalist|scientist|physicist|chemist|mathematician|monk|priest|nun|archbishop|lawyer|judge|businessman|businesswoman|entrepreneur|diplomat|soldier|athlete|cyclist|swimmer|dancer|comedian|historian|philosopher|economist|architect|photographer|inventor|explorer|missionary|\p{L}+ologist)$/u
// What may follow the noun: where it is, or the end of the clause.
const AFTER_PLACE_NOUN =
  /^(?:in|of|on|near|at|located|situated|within|and|north|south|east|west|northeast|northwest|southeast|southwest|[,.;:()])$/
const AFTER_KIND_NOUN = /^(?:in|of|on|near|at|and|from|for|to|who|which|that|based|whose|with|signed|founded|formed|known|[,.;:()])$/
const COPULA = /^(?:is|was)$/
const CLAUSE_OPENER = /^(?:because|and|but|while|although|though|whereas|since|as|when|where|so)$/i

/** The noun before `next` ends its phrase: the sentence ends, or `after` matches the next word (see copulaType). */
function nounEnds(next: Token | undefined, sent: number, after: RegExp): boolean {
  return !next || next.sent !== sent || after.test(next.text)
}

/**
 * [a, b), one to four capitalised words (joiners allowed), then perhaps a bracket or a comma, then
 * "is a" / "was an" / "is the" / "is one of the", up to four words and a noun that ends its phrase
 * ("Boltenhagen is a seaside resort in…", "Mönchhof ( Hungarian : Barátfalu ) is a town in…",
 * "Durán , is a canton located…", "Roketsan is the only Turkish company to…"): the type the
 * sentence says the name is, a place, an organization or a person. Not "a town councillor" (a noun
 * follows), nor "the city's mayor", nor a nationality alone.
 */
export function copulaType(doc: Tokenized, a: number, b: number, ctx: RuleContext): EntityType | undefined {
  const t = doc.tokens
  if (b - a > 4 || !/^\p{Lu}/u.test(t[a].text)) return undefined
  for (let i = a; i < b; i++) if (!/^[\p{Lu}\p{N}]/u.test(t[i].text) && !PLACE_JOINER.test(t[i].text)) return undefined
  if (b - a === 1 && wordGaz(ctx, t[a].text) & GAZ_DEMONYM) return undefined
  const sent = t[a].sent
  // The name opens its sentence or clause (perhaps after "the"): the copula's subject, not a word
  // after a preposition or an apposition's comma ("in the heart of Mayfair is a club").
  const open = doc.sentences[sent].first
  const before = a > open && /^the$/i.test(t[a - 1].text) ? a - 1 : a
  if (before !== open && !CLAUSE_OPENER.test(t[before - 1].text)) return undefined
  let k = b
  if (k < t.length && t[k].text === '(') {
    let depth = 0
    for (; k < t.length && k < b + 40 && t[k].sent === sent; k++) {
      if (t[k].text === '(') depth++
      else if (t[k].text === ')' && --depth === 0) break
    }
    k++
  }
  if (k < t.length && t[k].text === ',') k++
  if (k + 2 >= t.length || t[k].sent !== sent || !COPULA.test(t[k].text)) return undefined
  k++
  if (t[k].text === 'one' && t[k + 1]?.text === 'of' && t[k + 2]?.text === 'the') k += 3
  else if (/^(?:a|an|the)$/.test(t[k].text)) k++
  else return undefined
  for (let j = k; j < Math.min(t.length, k + 5) && t[j].sent === sent; j++) {
    const w = t[j].text
    const next = t[j + 1]
    // "singer - songwriter": the noun's last part says it.
    if (next?.text === '-' && next.sent === sent) continue
    if (COPULA_PLACE.test(w)) return nounEnds(next, sent, AFTER_PLACE_NOUN) ? 'LOC' : undefined
    if (COPULA_ORG.test(w)) return nounEnds(next, sent, AFTER_KIND_NOUN) ? 'ORG' : undefined
    if (COPULA_PERSON.test(w)) return nounEnds(next, sent, AFTER_KIND_NOUN) ? 'PER' : undefined
    if (!/^[\p{L}-]+$/u.test(w) || /^(?:of|in|on|at|that|which|who|and|or|for|from|by|with)$/.test(w)) return undefined
  }
  return undefined
}

/**
 * After a place [a, b): one to four untagged title-case words of the sentence ending in a body's
 * word ("[United States] Census Bureau", "[Los Angeles] Community College", "[Mauritius]
 * Parliament"), the run of capitalised words ending there: the end of the body's name, else -1.
 * No role word in it ("[France] Prime Minister").
 */
export function placeBodyEnd(doc: Tokenized, a: number, b: number, taken: Uint8Array): number {
  const t = doc.tokens
  const e = bodyWordsEnd(doc, a, b, taken, 4)
  if (e < 0) return -1
  const last = t[e - 1].text
  return ORG_END.test(last) || NATIONAL_BODY.test(last) || /^(?:Conservatory|Academy|Police)$/.test(last) ? e : -1
}

// Bodies named after a person: ORG_END's words, and hospitals, centres, libraries, laboratories.
const NAMED_BODY = /^(?:Center|Centre|Hospital|Library|Laboratory|Laboratories|Fund|Trust|Clinic|Observatory)$/

/**
 * After a person's name [a, b): one to four untagged title-case words of the sentence ending in a
 * body's word, the run of capitalised words ending there ("[Fred Hutchinson] Cancer Research
 * Center"), on over "of" / "for" and title-case words after a school's word ("[Kwame Nkrumah]
 * University of Science and Technology"): the end of the body's name, else -1. No role word in it.
 */
export function personBodyEnd(doc: Tokenized, a: number, b: number, taken: Uint8Array): number {
  const t = doc.tokens
  // A full name, not a party's one word ("the Borrower Company" of a filing).
  if (b - a < 2) return -1
  let e = bodyWordsEnd(doc, a, b, taken, 4)
  if (e < 0) return -1
  const last = t[e - 1].text
  if (!ORG_END.test(last) && !NAMED_BODY.test(last)) return -1
  if (BODY_OF.test(last) && e + 1 < t.length && /^(?:of|for)$/.test(t[e].text) && t[e + 1].sent === t[a].sent) {
    let f = e + 1
    while (
      f < t.length &&
      f - e < 6 &&
      !taken[f] &&
      t[f].sent === t[a].sent &&
      (TITLE_CASE.test(t[f].text) || (t[f].text === 'and' && f > e + 1))
    )
      f++
    while (f > e + 1 && t[f - 1].text === 'and') f--
    if (f > e + 1) e = f
  }
  return e
}

/**
 * After a person's name [a, b): perhaps a possessive, then one to three untagged title-case words
 * ending the run of capitals with a GEO_HEAD word ("[Daniel K. Inouye] International Airport",
 * "[Martha] 's River", "[Aurel Vlaicu] Airport"): the end of the place named after them, else -1.
 * Without a possessive the name has two words or more.
 */
const HOUSE_ORG = /^(?:College|Academy|University|School)$/
const HOUSE_LOC = /^(?:Church|Cathedral|Chapel|Abbey|Basilica)$/
const SAINT_OR_ROYAL = /^(?:St\.?|Saint|Queen|King)$/

/**
 * A person's span of one to three words, perhaps after an untagged "St." or "Queen", then "'s" and
 * one untagged college's or church's word that ends the run of capitals ("St. Martin 's College",
 * "Queen Mary 's College", "St Matthew 's Church"): the college's name (an organization) or the
 * church's (a place), and where it starts; else undefined. Not "Mary 's College of Art" (the name
 * goes on).
 */
export function possessedHouse(
  doc: Tokenized,
  a: number,
  b: number,
  taken: Uint8Array,
): { start: number; end: number; type: EntityType } | undefined {
  const t = doc.tokens
  if (b - a > 3 || b + 1 >= t.length || t[b].sent !== t[a].sent || !/^['’]s$/.test(t[b].text) || taken[b] || taken[b + 1]) return undefined
  const w = t[b + 1].text
  const type: EntityType | undefined = HOUSE_ORG.test(w) ? 'ORG' : HOUSE_LOC.test(w) ? 'LOC' : undefined
  if (!type || t[b + 1].sent !== t[a].sent) return undefined
  if (b + 2 < t.length && t[b + 2].sent === t[a].sent && (/^\p{Lu}/u.test(t[b + 2].text) || /^(?:of|for)$/.test(t[b + 2].text)))
    return undefined
  let start = a
  if (a > 0 && !taken[a - 1] && t[a - 1].sent === t[a].sent && SAINT_OR_ROYAL.test(t[a - 1].text)) start = a - 1
  // The tagger's own span may hold the title ("St. Martin"): a name of its own is left alone.
  if (start === a && !SAINT_OR_ROYAL.test(t[a].text)) return undefined
  return { start, end: b + 2, type }
}

export function personPlaceEnd(doc: Tokenized, a: number, b: number, taken: Uint8Array): number {
  const t = doc.tokens
  let c = b
  if (c < t.length && !taken[c] && t[c].sent === t[a].sent && /^['’]s$/.test(t[c].text)) c++
  else if (b - a < 2) return -1
  const e = bodyWordsEnd(doc, a, c, taken, 3)
  if (e < 0 || e === c || !GEO_HEAD.test(t[e - 1].text)) return -1
  return e
}

const ROAD = /^(?:Route|Highway|Interstate|Motorway|Autobahn)$/

/** Token b, untagged, is a number right after a name that ends in a road's word ("Route 28"). */
export function routeNumbered(doc: Tokenized, b: number, taken: Uint8Array): boolean {
  const t = doc.tokens
  return b > 0 && b < t.length && !taken[b] && t[b].sent === t[b - 1].sent && ROAD.test(t[b - 1].text) && /^\d{1,4}[A-Z]?$/.test(t[b].text)
}

// Last words of a body's name that the gold of the train splits gives as places once in ten or
// less (University 64 to 3, School 34 to 2, Court 47 to 6: a court only after a court's word, not
// a tennis court, "Stadium Court").
const PLACE_NAMED_BODY =
  /^(?:Party|Senate|Corporation|Force|Council|Commission|Committee|Congress|Bureau|Army|Navy|Agency|Ministry|Service|Organi[sz]ation|Company|Group|Orchestra|Government|Authority|Board|Association|Foundation|Brotherhood|Fleet|Regiment|Conservatory|Philharmonic|Assembly|University|School|College|Institute|Department|Railroad)$/
const COURT_KIND =
  /^(?:Supreme|District|Superior|High|Circuit|Appeals|Constitutional|Federal|Magistrates|Crown|Family|Criminal|Civil|Military|County)$/

/** [a, b), two words or more, capitalised or joiners, ending in a body's word: a body's name. */
export function placeNamedBody(doc: Tokenized, a: number, b: number): boolean {
  const t = doc.tokens
  if (b - a < 2) return false
  for (let i = a; i < b; i++) if (!/^[\p{Lu}\p{N}]/u.test(t[i].text) && !PLACE_JOINER.test(t[i].text)) return false
  const last = t[b - 1].text
  return PLACE_NAMED_BODY.test(last) || (last === 'Court' && COURT_KIND.test(t[b - 2].text))
}

const RELEASED = /^(?:released|rereleased|re-released|reissued|re-issued)$/
const RELEASER_KIND = /^(?:label|network|imprint)$/

/** Token k exists and is in token a's sentence. */
function sameSent(t: Token[], a: number, k: number): boolean {
  return k >= 0 && k < t.length && t[k].sent === t[a].sent
}

/**
 * [a, b), capitalised words or joiners, right after "released by" or "reissued by" (perhaps "the";
 * or after such a name and "and": "by Avex Trax and Avex Taiwan"), or between "the" and "label",
 * "network" or "imprint" ("on the Atlantic label", "the Fox network"): a record label, a network.
 */
export function releaserName(doc: Tokenized, a: number, b: number): boolean {
  const t = doc.tokens
  for (let i = a; i < b; i++) if (!/^[\p{Lu}\p{N}]/u.test(t[i].text) && !PLACE_JOINER.test(t[i].text) && t[i].text !== '/') return false
  // Most spans have none of the cue words around them: the cheap test first.
  const before = a > 0 ? t[a - 1].text : ''
  if (before !== 'by' && before !== 'the' && before !== 'and' && !(b < t.length && RELEASER_KIND.test(t[b].text))) return false
  let p = a - 1
  if (sameSent(t, a, p) && t[p].text === 'the') p--
  if (sameSent(t, a, p) && sameSent(t, a, p - 1) && t[p].text === 'by' && RELEASED.test(t[p - 1].text)) return true
  if (sameSent(t, a, b) && RELEASER_KIND.test(t[b].text) && sameSent(t, a, a - 1) && /^the$/i.test(t[a - 1].text)) return true
  // The second of two labels: "by Avex Trax and Avex Taiwan".
  if (sameSent(t, a, p) && t[p].text === 'and') {
    let q = p - 1
    while (sameSent(t, a, q) && /^[\p{Lu}\p{N}]/u.test(t[q].text) && q > p - 5) q--
    return q < p - 1 && sameSent(t, a, q) && sameSent(t, a, q - 1) && t[q].text === 'by' && RELEASED.test(t[q - 1].text)
  }
  return false
}

// First words of a place's name ("Camp Caves", "Fort Worth", "Mount Guna", "Cape Verde", "Lake Tana": in
// the gold of the train splits 60 such names are places, 2 bodies ending in a body's word), and last
// words of an event's or a document's name that may follow ("Camp David Accords").
const PLACE_OPENER_WORD = /^(?:Camp|Fort|Mount|Cape|Lake)$/
const EVENT_END =
  /^(?:Accords?|Agreement|Treaty|Summit|Declaration|Conference|Festival|Massacre|Battle|Siege|Campaign|Offensive|Raid|Expedition|Uprising|Rebellion|War|Games|Cup)$/

/** [a, b), a place's first word and one to three title-case words, no body's or event's last word. */
export function placeOpened(doc: Tokenized, a: number, b: number): boolean {
  const t = doc.tokens
  if (b - a < 2 || b - a > 4 || !PLACE_OPENER_WORD.test(t[a].text)) return false
  for (let i = a + 1; i < b; i++) if (!/^\p{Lu}[\p{Ll}’']/u.test(t[i].text)) return false
  const last = t[b - 1].text
  return !EVENT_END.test(last) && !ORG_END.test(last) && !PLACE_NAMED_BODY.test(last)
}

// A road's word before its number. Road and Freeway too: with a number after them they name a road
// ("County Road 31"), which they do not always alone ("Abbey Road").
const NUMBERED_ROAD = /^(?:Route|Highway|Interstate|Motorway|Autobahn|Road|Freeway|Expressway)$/
const ROAD_NUMBER = /^\d{1,4}[A-Z]?$/
// Words that open a road's name before its word ("State Highway 82", "U.S. Route 20").
const ROAD_QUALIFIER = /^(?:State|County|U\.S\.|US|Federal|Provincial)$/
// A street named by its number ("75 Street", "41 Avenue SW", "66/75 Street"), as in Edmonton.
const STREET_NUMBER = /^\d{1,3}(?:\/\d{1,3})?$/
const STREET = /^(?:Street|Avenue)$/
const QUADRANT = /^(?:NE|NW|SE|SW)$/

/**
 * The end of a road's name that a name of capitalised words [a, b) opens: the name ends in a road's
 * word and its number ("Oregon Route 99", read with little margin over the number), or a place, then
 * an untagged road's word and number ("[U.S.] Route 20"). -1 when neither.
 */
export function roadNumberEnd(doc: Tokenized, a: number, b: number, type: EntityType, taken: Uint8Array): number {
  const t = doc.tokens
  for (let i = a; i < b; i++) if (!/^[\p{Lu}\p{N}]/u.test(t[i].text)) return -1
  if (b - a >= 2 && ROAD_NUMBER.test(t[b - 1].text) && NUMBERED_ROAD.test(t[b - 2].text)) return b
  if (
    type === 'LOC' &&
    b + 1 < t.length &&
    !taken[b] &&
    !taken[b + 1] &&
    t[b + 1].sent === t[a].sent &&
    NUMBERED_ROAD.test(t[b].text) &&
    ROAD_NUMBER.test(t[b + 1].text)
  )
    return b + 2
  return -1
}

/** Token k is not taken, or taken only by a miscellaneous span (see untaggedNames). */
function isFree(taken: Uint8Array, misc: Uint8Array, k: number): boolean {
  return !taken[k] || misc[k] === 1
}

/** Token k is in token i's sentence and free (not a closure: untaggedRoadEnd runs for every free token). */
function sameFree(t: Token[], i: number, taken: Uint8Array, misc: Uint8Array, k: number): boolean {
  return sameSent(t, i, k) && isFree(taken, misc, k)
}

/**
 * The end of a road named by its number from the untagged token i: a road's word (perhaps after
 * "State", "County", "U.S.") and a number ("Interstate 680", "State Highway 82"; not "Road" or
 * "Freeway" alone, nor before a capitalised word: "Highway 61 Revisited"), or a number and Street
 * or Avenue, perhaps a quadrant ("75 Street", "41 Avenue SW"). -1 when none.
 */
export function untaggedRoadEnd(doc: Tokenized, i: number, taken: Uint8Array, misc: Uint8Array): number {
  const t = doc.tokens
  // Every road's name opens with an ASCII capital or a digit; most tokens leave here (this runs
  // for every free token).
  const c = t[i].text.charCodeAt(0)
  if (!((c >= 65 && c <= 90) || (c >= 48 && c <= 57))) return -1
  let j = i
  if (ROAD_QUALIFIER.test(t[j].text) && sameFree(t, i, taken, misc, j + 1) && NUMBERED_ROAD.test(t[j + 1].text)) j++
  if (/^(?:Route|Highway|Interstate|Motorway|Autobahn)$/.test(t[j].text) || j > i) {
    if (
      sameFree(t, i, taken, misc, j + 1) &&
      ROAD_NUMBER.test(t[j + 1].text) &&
      !(sameFree(t, i, taken, misc, j + 2) && /^\p{Lu}/u.test(t[j + 2].text))
    )
      return j + 2
    return -1
  }
  if (STREET_NUMBER.test(t[i].text) && sameFree(t, i, taken, misc, i + 1) && STREET.test(t[i + 1].text)) {
    if (i > 0 && t[i - 1].sent === t[i].sent && /^\p{Lu}/u.test(t[i - 1].text) && t[i - 1].text !== 'I') return -1
    return sameFree(t, i, taken, misc, i + 2) && QUADRANT.test(t[i + 2].text) ? i + 3 : i + 2
  }
  return -1
}

// Last words of the name of an administrative unit of land, and first words before "of" in one.
// Not District (placeEndName reads it, for persons' and organizations' names), County ("Derby
// County"), Department.
const PLACE_UNIT_END = /^(?:Province|Region|Prefecture|Oblast|Municipality|Governorate|Voivodeship|Canton)$/
const PLACE_UNIT_OF = /^(?:Province|City|County|Municipality|Prefecture|Town|Village|Duchy|Kingdom|Principality)$/

/**
 * [a, b), two words or more, capitalised or joiners, ending in a unit's word ("Kunene Province",
 * "Rogaland County Municipality") or starting with one and "of" ("Province of Rieti", "City of
 * Edmonton", "Metropolitan City of Bari"): the name of a place. Of the out-of-fold organizations so
 * named in the training corpora, 11 of 12 were gold places; ministries' departments ("State
 * Department") are left out.
 */
function placeUnitName(doc: Tokenized, a: number, b: number): boolean {
  const t = doc.tokens
  if (b - a < 2) return false
  for (let i = a; i < b; i++) if (!/^[\p{Lu}\p{N}]/u.test(t[i].text) && !PLACE_JOINER.test(t[i].text)) return false
  if (PLACE_UNIT_END.test(t[b - 1].text)) return true
  // "the Province of Kelmora Trust Fund" is a body's name, not the province's.
  if (ORG_END.test(t[b - 1].text) || BODY_OF.test(t[b - 1].text) || /^(?:Trust|Fund|Club|Team)$/.test(t[b - 1].text)) return false
  for (let i = a; i < Math.min(b - 2, a + 2); i++) if (PLACE_UNIT_OF.test(t[i].text) && t[i + 1].text === 'of') return true
  return false
}

const MUSEUM = /^(?:Museum|Gallery)$/

/**
 * [a, b), two words or more, capitalised or joiners, ending in Museum or Gallery or holding one
 * before "of" ("Estonian National Museum", "Museum of Modern Art", "Boston Museum of Fine Arts"):
 * a museum, which every corpus that annotates one calls a place (the train splits' gold: 13 places,
 * no organization).
 */
function museumName(doc: Tokenized, a: number, b: number): boolean {
  const t = doc.tokens
  if (b - a < 2 || b - a > 8) return false
  for (let i = a; i < b; i++) if (!/^[\p{Lu}\p{N}]/u.test(t[i].text) && !/^(?:of|the|de|and|for|&|['’]s)$/.test(t[i].text)) return false
  if (MUSEUM.test(t[b - 1].text)) return true
  for (let i = a; i + 2 < b; i++) if (MUSEUM.test(t[i].text) && t[i + 1].text === 'of') return true
  return false
}

// Last words of a landmark's name that the out-of-fold organizations of the training files so
// named were gold places (Re-DocRED 11 of 11; "Soledad Prison" is unannotated in CoNLL04).
// Not Palace, Park, Abbey, Hospital ("Crystal Palace", "Queen's Park" are clubs in CoNLL-2003, and
// hospitals as often organizations); a park only as a state's or a nation's.
const LANDMARK = /^(?:Castle|Pits|Marina|Site|Memorial|Prison|Camp)$/

/** [a, b), two words or more, capitalised or joiners, ending in a landmark's word or in "State Park" / "National Park". */
function landmarkName(doc: Tokenized, a: number, b: number): boolean {
  const t = doc.tokens
  if (b - a < 2) return false
  for (let i = a; i < b; i++) if (!/^[\p{Lu}\p{N}]/u.test(t[i].text) && !PLACE_JOINER.test(t[i].text)) return false
  return LANDMARK.test(t[b - 1].text) || (b - a >= 3 && t[b - 1].text === 'Park' && /^(?:State|National|Provincial)$/.test(t[b - 2].text))
}

// Heads of a name that "of" and another name complete: bodies and states ("Ludwig Maximilian
// University of Munich", "Supreme Court of Pakistan", "People's Republic of China").
const OF_JOIN_ORG =
  /^(?:University|Court|House|Council|Club|Academy|College|Institute|School|Society|Government|Assembly|Commission|Committee|Department|Ministry|Board|Church|Parliament|Senate|Congress|Party|League|Union|Movement|Front|Federation|Alliance|Association|Organi[sz]ation|Foundation|Bund|Confederation|Corporation|Company|Bank|Agency|Bureau|Office|Service|Army|Navy|Forces)$/
const OF_JOIN_LOC = /^(?:Republic|States|Kingdom|Province|Duchy|Principality|Commonwealth|Emirate|Sultanate|Tsardom|Empire|Museum|Gallery)$/

/**
 * Names the tagger cut in two at "of": a mention ending in a body's or a state's head word, "of",
 * and a place's or an organization's mention right after it in the sentence ("[Ludwig Maximilian
 * University] of [Munich]", "[Supreme Court] of [Pakistan]", "[United States] of [America]") are one
 * name, an organization's (a place's for a state's head). Not a person's title ("Bishop of Ely",
 * "Princess Helen of Greece"), nor a person after "of" ("Prince Eugene of Savoy" stays two).
 */
export function joinOfNames(doc: Tokenized, mentions: Mention[]): Mention[] {
  return joinAdjacent(doc, mentions, ofJoin)
}

/** The type of the name joinOfNames makes of m, "of" and n, or undefined. */
function ofJoin(t: Token[], m: Mention, n: Mention | undefined): EntityType | undefined {
  if (!n || n.first !== m.last + 1 || t[m.last].text !== 'of' || n.sent !== m.sent || (n.type !== 'LOC' && n.type !== 'ORG'))
    return undefined
  if (m.type === 'OBJ' || !/^\p{Lu}/u.test(t[m.first].text) || PERSON_TITLE.test(t[m.first].text) || RULER_TITLE.test(t[m.first].text))
    return undefined
  // "[University of Groningen and University] of [Twente]": two names already run together.
  for (let i = m.first; i < m.last; i++) if (t[i].text === 'and' || t[i].text === ',') return undefined
  const head = t[m.last - 1].text
  return OF_JOIN_LOC.test(head) ? 'LOC' : OF_JOIN_ORG.test(head) ? 'ORG' : undefined
}

/**
 * The mentions with each one that `joins` runs on into the next made one mention over both, of
 * the type `joins` gives; the same array when none does.
 */
function joinAdjacent(
  doc: Tokenized,
  mentions: Mention[],
  joins: (t: Token[], m: Mention, n: Mention | undefined) => EntityType | undefined,
): Mention[] {
  const t = doc.tokens
  if (!mentions.some((m, i) => joins(t, m, mentions[i + 1]))) return mentions
  const out: Mention[] = []
  for (let i = 0; i < mentions.length; i++) {
    const m = mentions[i]
    const type = joins(t, m, mentions[i + 1])
    if (!type) {
      out.push(m)
      continue
    }
    out.push(mentionFromTokens(doc.text, doc.tokens, m.first, mentions[i + 1].last, type))
    i++
  }
  return out
}

/**
 * "University of California , San Diego", "University of California , Berkeley": a state
 * university's name, a comma and its campus's town are one name, the campus's (the tagger cuts
 * them apart, and the comma split keeps them apart). Only after "University of" and a region
 * the gazetteer knows that is no city or country ("California", not "Paris" nor "Toronto", whose
 * universities stand in lists of towns: "University of Paris , Manchester"); the town is a place
 * of one or two words, the end of the run of capitals ("University of California , McNamara" is
 * no campus).
 */
export function joinCampus(doc: Tokenized, mentions: Mention[], ctx: RuleContext): Mention[] {
  return joinAdjacent(doc, mentions, (_, m, n) => (campusJoins(doc.tokens, ctx, m, n) ? 'ORG' : undefined))
}

/** Whether `m`, a comma and `n` are a state university and its campus's town (see joinCampus). */
function campusJoins(t: Token[], ctx: RuleContext, m: Mention, n: Mention | undefined): boolean {
  if (!n || m.type !== 'ORG' || n.type !== 'LOC' || n.sent !== m.sent || n.first !== m.last + 1 || t[m.last].text !== ',') return false
  if (m.last - m.first < 3 || m.last - m.first > 4 || t[m.first].text !== 'University' || t[m.first + 1].text !== 'of') return false
  const ws: string[] = []
  for (let i = m.first + 2; i < m.last; i++) {
    if (!TITLE_CASE.test(t[i].text)) return false
    ws.push(t[i].text.toLowerCase())
  }
  const g = ctx.gaz(ws)
  if (!(g & GAZ_REGION) || g & GAZ_PLACE) return false
  if (n.last - n.first > 2) return false
  for (let i = n.first; i < n.last; i++) if (!TITLE_CASE.test(t[i].text)) return false
  return !(n.last < t.length && t[n.last].sent === n.sent && /^\p{Lu}/u.test(t[n.last].text))
}

const AWARD_END = /^(?:Award|Awards|Prize|Prizes)$/

// Last words of a periodical's name. Not Journal nor Times: newspapers are annotated as
// organizations ("The Wall Street Journal").
const PERIODICAL = /^(?:Magazine|Review|Reviews|Weekly|Monthly|Quarterly|Supplement)$/

/**
 * [a, b), capitalised words that name a periodical: two or more ending in a periodical's word
 * ("Kirkus Reviews", "The London Magazine"), or right before "magazine" or after "the magazine"
 * ("Tatler magazine", "the magazine Playboy"), unless the tagger read a place there. A
 * person's name stays a person's.
 */
function periodicalName(doc: Tokenized, a: number, b: number, type: EntityType): boolean {
  const t = doc.tokens
  if (type === 'PER' || b - a > 8) return false
  for (let i = a; i < b; i++) if (!/^\p{Lu}/u.test(t[i].text) && !/^(?:of|the|de|and|&|for|du)$/.test(t[i].text)) return false
  if (b - a >= 2 && PERIODICAL.test(t[b - 1].text)) return true
  // "a U.S. magazine", "New York magazine": a place before the word says where it is published.
  if (type === 'LOC') return false
  if (b < t.length && t[b].sent === t[a].sent && /^magazines?$/.test(t[b].text)) return true
  return a >= 2 && t[a - 1].text === 'magazine' && /^the$/i.test(t[a - 2].text) && t[a - 2].sent === t[a].sent
}

const PLACE_HEAD = /^(?:Palace|Sea|Gulf|Bay|Isle|Strait|Cape|Lake|Mount)$/
const ORG_HEAD = /^(?:University|Bank|Museum|Institute|College|Academy)$/

/** "Palace of" / "University of" right before [a, …), untagged and not the tail of a longer name: the type the head gives. */
function ofHead(doc: Tokenized, a: number, taken: Uint8Array): EntityType | undefined {
  const t = doc.tokens
  if (a < 2 || t[a - 1].text !== 'of' || taken[a - 2] || t[a - 2].sent !== t[a].sent) return undefined
  const h = t[a - 2].text
  const type = PLACE_HEAD.test(h) ? 'LOC' : ORG_HEAD.test(h) ? 'ORG' : undefined
  if (!type) return undefined
  // "Royal Bank of Scotland": the head is part of a longer name the tagger missed; left alone.
  const p = a - 3
  if (p >= 0 && t[p].sent === t[a].sent && p > doc.sentences[t[a].sent].first && /^\p{Lu}/u.test(t[p].text)) return undefined
  return type
}

const ORDINAL = /^\d+(?:st|nd|rd|th)$/
// Words that name a military unit after an ordinal ("6th Fleet", "82nd Airborne Division").
const UNIT =
  /^(?:Fleet|Army|Brigade|Division|Regiment|Corps|Battalion|Squadron|Airborne|Infantry|Cavalry|Armored|Armoured|Mechanized|Marines|Flotilla|Legion)$/
const ACRONYM = /^\p{Lu}{2,6}$/u
/** `w` is the initials of the capitalised words of [a, b) ("GAO" of "General Accounting Office"). */
function isAcronymOf(doc: Tokenized, a: number, b: number, w: string, ctx: RuleContext): boolean {
  // Not an ordinary word in capitals ("Intelligent Network ( IN )").
  if (!ACRONYM.test(w) || wordGaz(ctx, w) & GAZ_COMMON) return false
  let initials = ''
  for (let i = a; i < b; i++) if (/^\p{Lu}/u.test(doc.tokens[i].text)) initials += doc.tokens[i].text[0]
  return initials === w
}
/**
 * `w` has the initials of the capitalised words of [a, b) in another order, three letters or
 * more: the acronym of the name in its own language, the name given in English ("Italian Liberal
 * Party ( PLI )", "Islamic Salvation Front ( FIS )", "Institutional Revolutionary Party ( PRI )").
 */
function translatedAcronym(doc: Tokenized, a: number, b: number, w: string, ctx: RuleContext): boolean {
  if (w.length < 3 || !ACRONYM.test(w) || wordGaz(ctx, w) & GAZ_COMMON) return false
  let initials = ''
  for (let i = a; i < b; i++) if (/^\p{Lu}/u.test(doc.tokens[i].text)) initials += doc.tokens[i].text[0]
  return initials.length === w.length && [...initials].sort().join('') === [...w].sort().join('')
}
const VICTIM_VERB = /^(?:assassinated|assassinating|murdered)$/i
const VICTIM_NOUN = /^(?:assassination|assassin|murder|murderer|killer|slaying)$/i

/** [a, b) is a name of one to four capitalised words right after "assassinated" or "the assassination of". */
function victimName(doc: Tokenized, a: number, b: number): boolean {
  const t = doc.tokens
  if (b - a > 4 || a === 0 || t[a - 1].sent !== t[a].sent) return false
  for (let i = a; i < b; i++) if (!/^\p{Lu}/u.test(t[i].text)) return false
  // The name must end there: "assassinating U.S. Sen. Robert F. Kennedy" names a place, then a title.
  if (b < t.length && t[b].sent === t[a].sent && /^\p{Lu}/u.test(t[b].text)) return false
  if (VICTIM_VERB.test(t[a - 1].text)) return true
  return a > 1 && /^of$/i.test(t[a - 1].text) && VICTIM_NOUN.test(t[a - 2].text)
}

const SEAT_VERB = /^(?:headquartered|based|located|situated)$/i

/** [a, b) is a name of one to three capitalised words right after "headquartered in", "based in"… */
function seatName(doc: Tokenized, a: number, b: number): boolean {
  const t = doc.tokens
  if (b - a > 3 || a < 2 || t[a - 2].sent !== t[a].sent || !/^in$/i.test(t[a - 1].text) || !SEAT_VERB.test(t[a - 2].text)) return false
  for (let i = a; i < b; i++) if (!/^\p{Lu}/u.test(t[i].text)) return false
  return !(b < t.length && t[b].sent === t[a].sent && /^\p{Lu}/u.test(t[b].text))
}

const IN_PLACE = /^(?:in|into|near|throughout|across|outside)$/

/**
 * [a, b), one or two title-case words right after in / into / near / throughout / across /
 * outside, which the gazetteer knows as a town, a country or a region and not as a first name, and
 * that no capitalised word, possessive or number follows ("born in Cambridge", "incorporated into
 * Yorkshire"; not "in Liverpool 's win", "in Lancashire 250").
 */
/**
 * [a, b), one or two title-case words the gazetteer knows as a town, a country or a region (and not
 * as a first name), then a possessive and a place's or a venue's name: the tagger's place span, or
 * one or two title-case words that no span holds and that open with no first name ("Birmingham 's
 * Handsworth", "Manchester 's Moss Side"), or a venue's ("Liverpool 's The Cavern Club"). Not a person
 * after it ("Liverpool 's Robbie Fowler": a club's player), nor an organization's or a work's name
 * ("Britain 's Labour Party", "Paramount 's Money From Home").
 */
export function placePossessor(doc: Tokenized, a: number, b: number, spans: TaggedSpan[], ctx: RuleContext): boolean {
  const t = doc.tokens
  if (b - a > 2 || b + 1 >= t.length || t[b].sent !== t[a].sent) return false
  let k = b
  if (/^['’]s$/.test(t[k].text)) k++
  else if (/^['’]$/.test(t[k].text)) k += t[k + 1].text === 's' ? 2 : 1
  else return false
  if (k >= t.length || t[k].sent !== t[a].sent || !/^\p{Lu}/u.test(t[k].text)) return false
  const words: string[] = []
  for (let i = a; i < b; i++) {
    if (!TITLE_CASE.test(t[i].text)) return false
    words.push(t[i].text.toLowerCase())
  }
  const g = ctx.gaz(words)
  if (!(g & (GAZ_PLACE | GAZ_REGION)) || g & GAZ_FIRST) return false
  const s = spans.find((x) => x.first <= k && x.last > k)
  if (s) return s.type === 'LOC'
  // Untagged: a district's one or two words ("Moss Side"), or a venue's name; not a film's title
  // ("Paramount 's Money From Home").
  let e = t[k].text === 'The' ? k + 1 : k
  const from = e
  while (e < t.length && t[e].sent === t[a].sent && /^\p{Lu}/u.test(t[e].text)) e++
  if (e - from > 2 && !VENUE.test(t[e - 1].text) && !/^Club$/.test(t[e - 1].text)) return false
  return !(wordGaz(ctx, t[k].text) & GAZ_FIRST)
}

export function placeAfterIn(doc: Tokenized, a: number, b: number, ctx: RuleContext): boolean {
  const t = doc.tokens
  if (b - a > 2 || a < 1 || !IN_PLACE.test(t[a - 1].text) || t[a - 1].sent !== t[a].sent) return false
  const words: string[] = []
  for (let i = a; i < b; i++) {
    if (!TITLE_CASE.test(t[i].text)) return false
    words.push(t[i].text.toLowerCase())
  }
  if (b < t.length && t[b].sent === t[a].sent && (/^\p{Lu}/u.test(t[b].text) || /^['’]s?$/.test(t[b].text) || /^\d/.test(t[b].text)))
    return false
  const g = ctx.gaz(words)
  return (g & (GAZ_PLACE | GAZ_REGION)) !== 0 && (g & GAZ_FIRST) === 0
}

/**
 * A miscellaneous span [a, b) opening with a count of one to three digits and a capitalised word
 * ("2 Social Democratic and Labour Party ( SDLP", an election's seats): the span without the count,
 * and ending before a bracket it leaves open, when two words or more remain; else [a, b) as it is.
 * Not when a lower-case word ends the span: the name is then of an award or an event ("14 Academy of
 * Country Music awards").
 */
export function countedMisc(doc: Tokenized, a: number, b: number): [number, number] {
  const t = doc.tokens
  if (b - a < 3 || !/^\d{1,3}$/.test(t[a].text) || !/^\p{Lu}/u.test(t[a + 1].text)) return [a, b]
  // "14 Academy of Country Music awards": what the name is of (an award, an event) is the span's.
  if (/^\p{Ll}/u.test(t[b - 1].text)) return [a, b]
  let e = b
  for (let i = a + 2; i < b; i++)
    if (t[i].text === '(') {
      let closed = false
      for (let k = i + 1; k < b; k++) if (t[k].text === ')') closed = true
      if (!closed) e = i
      break
    }
  return e - a - 1 >= 2 ? [a + 1, e] : [a, b]
}

/**
 * Token i, a word the gazetteer knows as a first name, is one alone: no place, nationality, month,
 * greeting, office or party label, nor a word that opens a place's name ("West Ham", "New
 * Jersey"); no ordinary word either ("Will", "Even"), unless a lower-case word of the sentence
 * stands before it ("by Will Durant"); and the capitalised words after it are no place the
 * gazetteer knows ("Free Equatorial Guinea") and hold no place's, body's or firm's word ("Elias
 * National Park"). The caller checks the first-name class.
 */
export function plainFirstName(doc: Tokenized, i: number, ctx: RuleContext): boolean {
  const w = doc.tokens[i].text
  return (
    !(wordGaz(ctx, w) & ((afterLowerWord(doc, i) ? 0 : GAZ_COMMON) | GAZ_PLACE | GAZ_REGION | GAZ_DEMONYM)) &&
    !placeNamed(doc, i + 1, ctx) &&
    !MONTH_OR_DAY.test(w) &&
    !GREETING.test(w) &&
    !OFFICE.test(w) &&
    !RULER_TITLE.test(w) &&
    !PARTY_MEMBER.test(w) &&
    !PLACE_OPENER.test(w) &&
    !placeOrBodyWord(doc, i + 1)
  )
}
/** Token i follows a lower-case word of its sentence: capitalised there, an ordinary word is a name ("by Will Durant"). */
function afterLowerWord(doc: Tokenized, i: number): boolean {
  return i > 0 && doc.tokens[i - 1].sent === doc.tokens[i].sent && /^\p{Ll}/u.test(doc.tokens[i - 1].text)
}

/** The run of capitalised words from token a (up to four) is a town, a country or a region the gazetteer knows ("Equatorial Guinea"). */
function placeNamed(doc: Tokenized, a: number, ctx: RuleContext): boolean {
  const t = doc.tokens
  const words: string[] = []
  for (let k = a; k < t.length && k < a + 4 && t[k].sent === t[a].sent && /^\p{Lu}/u.test(t[k].text); k++)
    words.push(t[k].text.toLowerCase())
  return (ctx.gaz(words) & (GAZ_PLACE | GAZ_REGION)) !== 0
}
/**
 * After a person's name [a, b) of two title-case words or initials or more: one untagged title-case
 * word of the sentence that ends the run of capitals (a lower-case word or punctuation follows, not
 * a colon: a filing's "Name :" label) and is no article or determiner ("Erin Potts The events…",
 * a sentence run on), month or day, nor a body's, place's, venue's, firm's
 * or band's word, a suffix, an award, a role after a name or a day's or a road's name ("Martin
 * Luther King Day", "Edwin O. Reischauer Professor of…", "Anthony Henday Drive").
 */
export function surnameAfter(doc: Tokenized, a: number, b: number, taken: Uint8Array): boolean {
  const t = doc.tokens
  if (b - a < 2 || b >= t.length || taken[b] || t[b].sent !== t[a].sent || !TITLE_CASE.test(t[b].text)) return false
  const w = t[b].text
  if (
    MONTH_OR_DAY.test(w) ||
    NOT_NAME_START.test(w) ||
    ORG_END.test(w) ||
    GEO_HEAD.test(w) ||
    VENUE.test(w) ||
    NAMED_BODY.test(w) ||
    FIRM_END.test(w) ||
    BUILDING_OR_BODY.test(w) ||
    BAND_END.test(w) ||
    SUFFIX.test(w)
  )
    return false
  if (/^(?:Day|Professor|Chair|Fellow|Lecturer|Drive)$/.test(w) || AWARD_END.test(w)) return false
  if (b + 1 >= t.length || t[b + 1].sent !== t[a].sent || t[b + 1].text === ':' || /^[\p{Lu}\p{N}]/u.test(t[b + 1].text)) return false
  for (let i = a; i < b; i++) if (!TITLE_CASE.test(t[i].text) && !/^\p{Lu}\.$/u.test(t[i].text)) return false
  return true
}
const PLACE_OPENER = /^(?:North|South|East|West|Northern|Southern|Eastern|Western|Central|Upper|Lower|New|Old|Great|Little)$/

/** A place's, a body's or a firm's word in the run of capitalised words from token a (up to six). */
function placeOrBodyWord(doc: Tokenized, a: number): boolean {
  const t = doc.tokens
  for (let k = a; k < t.length && k < a + 6 && t[k].sent === t[a].sent && /^\p{Lu}/u.test(t[k].text); k++) {
    const w = t[k].text
    if (ORG_END.test(w) || GEO_HEAD.test(w) || VENUE.test(w) || BUILDING_OR_BODY.test(w) || PLACE_DESIGNATOR.test(w) || FIRM_END.test(w))
      return true
  }
  return false
}

/** Tokens [a, b) are capitalised words or the joiners of, for, the. */
function allCapitalised(t: Token[], a: number, b: number): boolean {
  for (let i = a; i < b; i++) if (!/^\p{Lu}/u.test(t[i].text) && !/^(?:of|for|the)$/.test(t[i].text)) return false
  return true
}

const BOOK_CLUB = /^(?:Club|Society|Association|Company|Press|Foundation|Trust)$/

/** [a, b) is a record label's name: "Warp Records", not "the Guinness Book of Records". */
function recordLabel(doc: Tokenized, a: number, b: number): boolean {
  return b - a > 1 && doc.tokens[b - 1].text === 'Records' && doc.tokens[b - 2].text !== 'of'
}

/** [a, b) holds "Book of" and a word after it, and does not end in a club's or publisher's word. */
function bookOfName(doc: Tokenized, a: number, b: number): boolean {
  const t = doc.tokens
  for (let k = a; k + 2 < b; k++) if (t[k].text === 'Book' && t[k + 1].text === 'of') return !BOOK_CLUB.test(t[b - 1].text)
  return false
}

/**
 * Names the tagger left untagged that their context gives away: an ordinal and a military unit
 * ("the U.S. 6th Fleet"), one to three title-case words before a comma and a US state
 * abbreviation ("their hometown of Grants , N.M."), with the abbreviation itself if untagged, and
 * a product's name and model number after an article ("the PlayStation 5").
 */
function untaggedNames(doc: Tokenized, taken: Uint8Array, misc: Uint8Array, ctx: RuleContext): Mention[] {
  const t = doc.tokens
  const out: Mention[] = []
  for (let i = 0; i + 1 < t.length; i++) {
    // "Interstate 680", "State Highway 82", "75 Street": a road named by its number (its words
    // may be inside a miscellaneous span: "41 Avenue SW to 33 Street NE").
    const r = isFree(taken, misc, i) ? untaggedRoadEnd(doc, i, taken, misc) : -1
    if (r > 0) {
      out.push({ ...mentionFromTokens(doc.text, t, i, r, 'LOC'), stated: true })
      for (let k = i; k < r; k++) taken[k] = 1
      i = r - 1
      continue
    }
    if (taken[i]) continue
    if (ORDINAL.test(t[i].text) && UNIT.test(t[i + 1].text) && !taken[i + 1] && t[i + 1].sent === t[i].sent) {
      let j = i + 2
      while (j < t.length && j < i + 4 && !taken[j] && t[j].sent === t[i].sent && UNIT.test(t[j].text)) j++
      out.push(mentionFromTokens(doc.text, t, i, j, 'ORG'))
      for (let k = i; k < j; k++) taken[k] = 1
      i = j - 1
      continue
    }
    const e = untaggedModelEnd(doc, i, taken, ctx)
    if (e > 0) {
      out.push({ ...mentionFromTokens(doc.text, t, i, e, 'OBJ'), stated: true })
      for (let k = i; k < e; k++) taken[k] = 1
      i = e - 1
      continue
    }
    // A name the tagger called miscellaneous before ", N.M." is a place all the same.
    if (t[i].text === ',' && i > 0 && stateAbbrAt(doc, i + 1) && isFree(taken, misc, i - 1)) {
      let a = i
      while (
        a > 0 &&
        i - a < 3 &&
        isFree(taken, misc, a - 1) &&
        t[a - 1].sent === t[i].sent &&
        TITLE_CASE.test(t[a - 1].text) &&
        !NOT_NAME_START.test(t[a - 1].text) &&
        !PERSON_TITLE.test(t[a - 1].text) &&
        !MONTH_OR_DAY.test(t[a - 1].text)
      )
        a--
      // The whole run of capitalised words, not its tail; an ordinary word that starts the
      // sentence is not part of it ("In Grants , N.M.").
      if (a > 0 && t[a - 1].sent === t[i].sent && /^\p{Lu}/u.test(t[a - 1].text)) continue
      if (a < i && a === doc.sentences[t[i].sent].first && wordGaz(ctx, t[a].text) & GAZ_COMMON) a++
      if (a === i) continue
      // Stated by the layout, as for a tagged name before one.
      out.push({ ...mentionFromTokens(doc.text, t, a, i, 'LOC'), stated: true })
      if (isFree(taken, misc, i + 1)) out.push({ ...mentionFromTokens(doc.text, t, i + 1, i + 2, 'LOC'), stated: true })
      for (let k = a; k < i + 2; k++) taken[k] = 1
    }
  }
  return out
}

/** The gazetteer classes of one word, case ignored. */
function wordGaz(ctx: RuleContext, word: string): number {
  return ctx.gaz([word.toLowerCase()])
}

const GAZ_PLACE = (1 << GAZ_CLASSES.indexOf('city')) | (1 << GAZ_CLASSES.indexOf('country'))
const GAZ_REGION = 1 << GAZ_CLASSES.indexOf('region')
const GAZ_COUNTRY = 1 << GAZ_CLASSES.indexOf('country')
const GAZ_FIRST = 1 << GAZ_CLASSES.indexOf('first')
const GAZ_COMMON = 1 << GAZ_CLASSES.indexOf('common')
const GAZ_DEMONYM = 1 << GAZ_CLASSES.indexOf('demonym')
const GAZ_KNOWN_NAME = ['company', 'brand', 'tORG', 'tPER', 'tLOC', 'tOBJ'].reduce(
  (m, c) => m | (1 << GAZ_CLASSES.indexOf(c as (typeof GAZ_CLASSES)[number])),
  0,
)

const HONORIFIC = /^(?:Mr|Mrs|Ms)\.?$/
// Titles that stand before a person's names and never start a place's or an organization's but
// with an ordinary word after ("King Street", "Cardinal Health", "Admiral Group").
const RULER_TITLE = /^(?:King|Queen|Pope|Emperor|Empress|Tsar|Czar|Sultan|Sir|Lord|Admiral|Marshal|Archbishop|Bishop|Cardinal)$/
const ROMAN = /^(?:[IVX]+)$/
// Heads of an institution's or a building's name ("Queen Elizabeth Hospital", "King's College").
const BUILDING_OR_BODY =
  /^(?:Hospital|College|University|School|Academy|Church|Park|Palace|House|Hotel|Group|Health|Bank|Company|Foundation|Institute|Center|Centre|Museum|Library|Society|City|Land|Court|Prize|Award|Cup)$/

/**
 * [a, b) is a title and one to three capitalised words that are no ordinary words (a name's),
 * then perhaps a regnal number: "King Louis XIV", "Sir Basil Brooke"; not "King Street", "Queen
 * Elizabeth Hospital", "Lord Howe Island" (a place's word ends them), nor "King County", "Queen
 * Elizabeth Hall". Not "Lady" (a band's or a singer's name as often: "Lady Antebellum").
 */
function titledPerson(doc: Tokenized, a: number, b: number, ctx: RuleContext): boolean {
  const t = doc.tokens
  if (b - a < 2 || !RULER_TITLE.test(t[a].text)) return false
  let e = b
  if (e - a > 2 && ROMAN.test(t[e - 1].text)) e--
  if (e - a - 1 > 3) return false
  for (let i = a + 1; i < e; i++) {
    const w = t[i].text
    if (
      !TITLE_CASE.test(w) ||
      wordGaz(ctx, w) & GAZ_COMMON ||
      PLACE_DESIGNATOR.test(w) ||
      VENUE.test(w) ||
      GEO_HEAD.test(w) ||
      BUILDING_OR_BODY.test(w)
    )
      return false
  }
  return true
}
// Words that are no name alone: a company's legal form, an officer's title, a degree, a medium.
const NO_NAME = /^(?:Inc|Ltd|LLC|Corp|plc|PLC|GmbH|CEO|CFO|COO|CTO|BA|BSc|MSc|PhD|MBA|TV)\.?$/

/**
 * [a, b) is one such word alone ("Vringo , [Inc] .", "former [CEO] of NSB", "a [BA] in history",
 * "offers on [TV]"): it names nothing (the firm's name before the comma is the firm's). Not the
 * word inside a longer name ("Apple Inc", "TV Globo").
 */
export function namesNothing(doc: Tokenized, a: number, b: number): boolean {
  return b - a === 1 && NO_NAME.test(doc.tokens[a].text)
}

// A ruler's, a peer's or a churchman's office, which a person's name may follow or stand without.
const LONE_OFFICE = /^(?:King|Queen|Pope|Emperor|Empress|Tsar|Czar|Sultan|Prince|Princess|Archbishop|Bishop|Cardinal|Baronet)$/

/**
 * [a, b) is one office word ("King", "Pope", "Baronet") after "the" or an ordinal ("the Pope", "3rd
 * Baronet"), or before "of" and a capitalised word ("Bishop of Ely", "King of Sweden"): the office,
 * not a person's name. Not the office before a name ("Pope Benedict"), nor a surname before "in"
 * ("assassinating King in Memphis"), nor an office opening a headline without "the" ("Pope says…").
 */
export function loneOffice(doc: Tokenized, a: number, b: number): boolean {
  const t = doc.tokens
  if (b - a !== 1 || !LONE_OFFICE.test(t[a].text)) return false
  const sent = t[a].sent
  const before = a > 0 && t[a - 1].sent === sent ? t[a - 1].text : ''
  if (/^the$/i.test(before) || /^\d+(?:st|nd|rd|th)$/.test(before)) return true
  return b + 1 < t.length && t[b + 1].sent === sent && t[b].text === 'of' && /^\p{Lu}/u.test(t[b + 1].text)
}

// What a party's member is called, and offices and ranks, before a person's name.
const PARTY_MEMBER = /^(?:Democrat|Republican|Liberal|Conservative|Tory|Socialist|Communist|Unionist|Nationalist|Federalist|Whig|Populist)$/
const OFFICE =
  /^(?:Congressman|Congresswoman|Congressmen|Senator|Senators|Governor|Mayor|Major|General|Adjutant|Lieutenant|Colonel|Regent|Actor|Actress|Chancellor|Premier)$/

/**
 * [a, b) opens with a party member's label or an office ("Democrat John Glenn", "Congressman Phil
 * Crane", "Major General Charles Lee"), then a first name and at least one more capitalised word:
 * the end of the labels, where the person's name starts; else -1. Not "Liberal Party",
 * "Republican Guard", "General Motors" (no first name after the labels).
 */
function labelledPerson(doc: Tokenized, a: number, b: number, ctx: RuleContext): number {
  const t = doc.tokens
  let k = a
  while (k < b && (PARTY_MEMBER.test(t[k].text) || OFFICE.test(t[k].text))) k++
  if (k === a || b - k < 2 || !TITLE_CASE.test(t[k].text) || !(wordGaz(ctx, t[k].text) & GAZ_FIRST)) return -1
  for (let i = k + 1; i < b; i++) if (!/^\p{Lu}/u.test(t[i].text)) return -1
  return k
}
const ROLE =
  /^(?:leader|president|vice-president|director|chairman|chairwoman|spokesman|spokeswoman|minister|secretary|head|chief|commander|deputy|mayor|governor|professor|attorney|lawyer|editor|economist|analyst|executive|founder|ambassador|envoy|general|senator|judge|actor|actress|singer|author|writer|manager|coach|aide|adviser|advisor|prosecutor|son|daughter|wife|husband|widow)$/
const ROLE_MOD =
  /^(?:former|then|the|a|an|now|acting|first|second|deputy|general|vice|assistant|executive|senior|chief|top|longtime|new|retired|his|her|its|their)$/

/** [a, b) is followed by ", (modifiers) role" (", former first deputy general director"): a person's apposition. */
function appositiveRole(doc: Tokenized, a: number, b: number, ctx: RuleContext): boolean {
  const t = doc.tokens
  if (b - a > 3 || b + 1 >= t.length || t[b].text !== ',' || t[b].sent !== t[a].sent) return false
  for (let i = a; i < b; i++) if (!TITLE_CASE.test(t[i].text)) return false
  // A known city, country or region stays a place (datelines: "Beijing , the commander of…").
  const ws: string[] = []
  for (let i = a; i < b; i++) ws.push(t[i].text.toLowerCase())
  if (ctx.gaz(ws) & (GAZ_PLACE | GAZ_REGION)) return false
  for (let k = b + 1; k < Math.min(t.length, b + 6) && t[k].sent === t[a].sent; k++) {
    const w = t[k].text
    if (ROLE.test(w)) return true
    if (!ROLE_MOD.test(w)) return false
  }
  return false
}
const BUSINESS =
  /^(?:provider|maker|developer|manufacturer|supplier|company|firm|startup|start-up|subsidiary|leader|producer|operator|retailer|distributor|vendor)$/i
const BUSINESS_MOD =
  /^(?:a|an|the|leading|global|major|privately|publicly|held|fast-growing|growing|software|technology|tech|cloud|financial|biotech|biotechnology|pharmaceutical|healthcare|enterprise|independent|top|private|public|premier|world|world's|worldwide|international|us|u\.s\.|based|-)$/i

/** [a, b) followed by ", a (leading…) provider / maker / company…": a business's apposition. */
function companyApposition(doc: Tokenized, a: number, b: number): boolean {
  const t = doc.tokens
  if (b + 2 >= t.length || t[b].text !== ',' || t[b].sent !== t[a].sent || !/^(?:a|an)$/i.test(t[b + 1].text)) return false
  for (let k = b + 2; k < Math.min(t.length, b + 7) && t[k].sent === t[a].sent; k++) {
    if (BUSINESS.test(t[k].text)) return true
    if (!BUSINESS_MOD.test(t[k].text) && !/^\p{Lu}/u.test(t[k].text)) return false
  }
  return false
}

// Words before "for" or "with" (perhaps "the" between) of one who plays, signs or is lent to a club.
const PLAYS_FOR =
  /^(?:play|plays|played|playing|signed|signs|signing|competing|competes|competed|spell|spells|stint|stints|player|footballer|captain|winger|defender|midfielder|forward|striker|goalkeeper|drummer|guitarist|bassist|vocalist|keyboardist)$/i
const SIGNED_WITH = /^(?:signed|signs|signing|spell|spells|stint|stints)$/i
const LENT_TO = /^(?:loaned|transferred|drafted|traded)$/i
// A club or a league's side before its name ("Premier League side Leicester City", "Dutch club MHC Laren").
const CLUB_KIND = /^(?:club|clubs|side|sides)$/
// What a list of clubs or bands is introduced as ("teams such as : FC U Craiova , Dinamo București").
const CLUB_KINDS = /^(?:teams|clubs|sides|bands|groups)$/
const MEMBER_OF = /^(?:member|members|bandmate|bandmates)$/
const GAZ_T_LOC = 1 << GAZ_CLASSES.indexOf('tLOC')
const GAZ_T_ORG = 1 << GAZ_CLASSES.indexOf('tORG')

/**
 * [a, b), capitalised words or joiners, after "played for", "signed for" or "with", "a winger for", "played with" (not a person), "a spell at",
 * "loaned to", "drafted by", "joined" or "joining", "member of", "club" or "side" (perhaps "the";
 * or the next name of a list after one: "sides Jarrow and Whitley Bay"; "teams such as :" a list): a
 * club, a band or a body.
 * Not a country or a name the training data types a place and never an organization ("played for
 * England"), not a place the gazetteer knows after "joined", "to" or "member of"
 * ("transferred to Berlin"), not a person's name opening with a first name, nor a person one joins.
 */
export function joinedBody(doc: Tokenized, a: number, b: number, type: EntityType, ctx: RuleContext): boolean {
  const t = doc.tokens
  if (a < 1) return false
  for (let i = a; i < b; i++) if (!/^[\p{Lu}\p{N}]/u.test(t[i].text) && !PLACE_JOINER.test(t[i].text) && t[i].text !== '.') return false
  // Most spans have none of the cue words before them: the cheap test first.
  const before = t[a - 1].text
  if (!/^(?:the|for|with|at|to|by|joined|joining|joins|of|club|clubs|side|sides|and|,|:)$/.test(before)) return false
  // "a member of the Kennedy family": a family or a house is named after a person.
  if (b < t.length && /^(?:family|clan|dynasty|household|house)$/.test(t[b].text)) return false
  const g = ctx.gaz(t.slice(a, b).map((x) => x.text.toLowerCase()))
  // A country or a nation's name plays as its national side, which the corpora keep a place.
  if (g & (GAZ_COUNTRY | GAZ_REGION) || (g & GAZ_T_LOC && !(g & GAZ_T_ORG))) return false
  if (type === 'PER' && b - a > 1 && wordGaz(ctx, t[a].text) & GAZ_FIRST && !(wordGaz(ctx, t[a].text) & GAZ_PLACE)) return false
  const place = (g & (GAZ_PLACE | GAZ_REGION)) !== 0
  let p = a - 1
  // The second or a later name of a list ("Metropolitano and Treze", "FC U Craiova , Dinamo București").
  for (let n = 0; n < 6 && sameSent(t, a, p) && (t[p].text === 'and' || t[p].text === ','); n++) {
    let q = p - 1
    while (sameSent(t, a, q) && q > p - 5 && (/^[\p{Lu}\p{N}]/u.test(t[q].text) || t[q].text === '.')) q--
    if (q === p - 1) return false
    p = q
  }
  if (!sameSent(t, a, p)) return false
  if (t[p].text === 'the' && sameSent(t, a, p - 1)) p--
  if (t[p].text === ':' && sameSent(t, a, p - 1)) p--
  const w = t[p].text
  const prev = sameSent(t, a, p - 1) ? t[p - 1].text : ''
  if (w === 'for') return PLAYS_FOR.test(prev)
  // One plays with a person as well as with a club ("he played with Lennon"): not a person's name.
  if (w === 'with') return SIGNED_WITH.test(prev) || (/^(?:play|plays|played|playing)$/.test(prev) && type !== 'PER')
  if (w === 'as') return prev === 'such' && sameSent(t, a, p - 2) && CLUB_KINDS.test(t[p - 2].text)
  if (w === 'at') return /^(?:loan|spell|spells|stint)$/.test(prev)
  if (w === 'by') return /^(?:drafted)$/.test(prev)
  // A side or a club is named after its town ("sides Jarrow and Whitley Bay").
  if (CLUB_KIND.test(w)) return true
  if (w === 'to') return LENT_TO.test(prev) && !place
  // One joins a person as well as a club ("she joined Smith at the bank").
  if (/^(?:joined|joining|joins)$/.test(w)) return !place && type !== 'PER'
  if (w === 'of') return MEMBER_OF.test(prev) && !place
  return false
}

const OFFICER =
  /^(?:officer|executive|ceo|cfo|cto|coo|founder|co-founder|cofounder|chairman|chairwoman|president|director|vice-president|shareholders|spokesperson|spokesman|spokeswoman|employees|customers)$/i

/** "… officer of [a]" / "CEO of [a]": the head of, or a spokesman for, an organization. */
function officerOf(doc: Tokenized, a: number): boolean {
  const t = doc.tokens
  return a >= 2 && t[a - 1].text === 'of' && t[a - 2].sent === t[a].sent && OFFICER.test(t[a - 2].text)
}

const CUSTOMERS =
  /^(?:customers|clients|users|subscribers|accounts|buyers|shoppers|members|patients|merchants|businesses|enterprises|installations|deployments)$/

/**
 * [a, b) before a plural of customers or users, after a number ("200 Hospital Network
 * customers") or holding an ordinary word and no known name ("Enterprise Cloud customers";
 * not "Apple customers", nor "Acme customers").
 */
function customerDescriptor(doc: Tokenized, a: number, b: number, ctx: RuleContext): boolean {
  const t = doc.tokens
  if (b >= t.length || t[b].sent !== t[a].sent || !CUSTOMERS.test(t[b].text)) return false
  if (a > 0 && t[a - 1].sent === t[a].sent && /^\d[\d,.]*$/.test(t[a - 1].text)) return true
  const ws: string[] = []
  let ordinary = false
  for (let i = a; i < b; i++) {
    ws.push(t[i].text.toLowerCase())
    if (wordGaz(ctx, t[i].text) & GAZ_COMMON) ordinary = true
  }
  return ordinary && !(ctx.gaz(ws) & GAZ_KNOWN_NAME)
}

const MODEL_NUMBER = /^(?:\d{1,3}|\p{Lu}{1,2}\d{1,4}\p{Ll}?)$/u
const ARTICLE = /^(?:the|a|an|its|their|new)$/i
const QUANTITY_AFTER = /^(?:[\d%–-].*|percent|per|million|billion|points?|years?|months?|weeks?|days?|hours?|minutes?|times|to|of|and|or)$/i

/** Token i, in token a's sentence, starts a quantity (QUANTITY_AFTER; see modelNumberEnd). */
function quantityAt(t: Token[], a: number, i: number): boolean {
  return i < t.length && t[i].sent === t[a].sent && QUANTITY_AFTER.test(t[i].text)
}

/**
 * [a, b), one or two words after an article, followed by an untagged model number ("the
 * PlayStation 5", "a Boeing 747", "the Galaxy S24"): the end of the product's name, or -1. Not a
 * year (four digits), nor a number that starts a quantity, a score or a range ("the Fed 5
 * percent", "Ajax 3 PSV 1" has no article).
 */
function modelNumberEnd(doc: Tokenized, a: number, b: number, taken: Uint8Array): number {
  const t = doc.tokens
  if (a === 0 || !ARTICLE.test(t[a - 1].text) || t[a - 1].sent !== t[a].sent) return -1
  // The tagger's span may already hold the number ("the [Galaxy S24]").
  if (b - a >= 2 && b - a <= 3 && MODEL_NUMBER.test(t[b - 1].text) && /^\p{Lu}/u.test(t[a].text) && !quantityAt(t, a, b)) return b
  if (b - a > 2 || b >= t.length || taken[b] || t[b].sent !== t[a].sent) return -1
  if (!MODEL_NUMBER.test(t[b].text) || quantityAt(t, a, b + 1)) return -1
  return b + 1
}

/** A capitalised word, or one with a capital inside ("iPhone"). */
const PRODUCT_WORD = /^(?:\p{Lu}|\p{Ll}+\p{Lu})/u

/**
 * Untagged from token i: one or two capitalised words after an article, then a model number, as
 * modelNumberEnd reads it ("the PlayStation 5", "a Boeing 747"): the end of the product's name, or
 * -1. Not when a word is an ordinary one, unless the words are a known name ("the Chapter 11
 * filing", "the Top 10", "the Category 5 storm" name no product).
 */
function untaggedModelEnd(doc: Tokenized, i: number, taken: Uint8Array, ctx: RuleContext): number {
  const t = doc.tokens
  if (i === 0 || !ARTICLE.test(t[i - 1].text) || t[i - 1].sent !== t[i].sent) return -1
  let j = i
  while (j < t.length && j - i < 2 && !taken[j] && t[j].sent === t[i].sent && PRODUCT_WORD.test(t[j].text) && !MODEL_NUMBER.test(t[j].text))
    j++
  if (j === i || j >= t.length || taken[j] || t[j].sent !== t[i].sent || !MODEL_NUMBER.test(t[j].text)) return -1
  if (j + 1 < t.length && t[j + 1].sent === t[i].sent && QUANTITY_AFTER.test(t[j + 1].text)) return -1
  const ws: string[] = []
  let ordinary = false
  for (let k = i; k < j; k++) {
    ws.push(t[k].text.toLowerCase())
    if (wordGaz(ctx, t[k].text) & GAZ_COMMON) ordinary = true
  }
  if (ordinary && !(ctx.gaz(ws) & GAZ_KNOWN_NAME)) return -1
  return j + 1
}

const PRODUCT_KIND =
  /^(?:headphones|earbuds|earphones|phone|phones|smartphone|smartphones|laptop|laptops|tablet|tablets|console|consoles|camera|cameras|speaker|speakers|smartwatch|headset|router|printer|television|TV|sedan|SUV|hatchback|pickup|vacuum|drone|app)$/

/** [a, b), two or more capitalised words followed by a kind of product ("Bose QuietComfort headphones"). */
function productNamed(doc: Tokenized, a: number, b: number): boolean {
  const t = doc.tokens
  if (b - a < 2 || b >= t.length || t[b].sent !== t[a].sent || !PRODUCT_KIND.test(t[b].text)) return false
  for (let i = a; i < b; i++) if (!/^\p{Lu}/u.test(t[i].text) && !/\p{N}/u.test(t[i].text)) return false
  return true
}

// Kinds of work and of musical group, written right before a title or a name ("the album Thriller",
// "his novel Jude the Obscure", "the rock band Coroner"), or "titled" before a title.
const WORK_KIND =
  /^(?:album|albums|song|songs|singles|EP|EPs|LP|mixtape|novel|novels|novella|book|books|poem|poems|magazine|film|films|movie|movies|opera|operas|titled|entitled)$/
// The plural kinds, before a list of titles; and what introduces the list ("such as", "including").
const WORK_KINDS = /^(?:albums|songs|singles|EPs|novels|books|poems|films|movies|operas)$/
// Plural kinds that are also verbs ("hits Clinton", "releases Chinese dissidents"): only before a
// list cue ("compositions include A , B and C", "works such as A").
const CUED_KINDS = /^(?:works|compositions|hits|releases|recordings|tracks)$/
const LIST_CUE = /^(?:such|including|include|includes|included|:)$/
const GROUP_KIND = /^(?:band|bands|duo|trio|quartet|quintet|group|supergroup|orchestra|ensemble)$/
// Kinds that also name a sports pool or a company's group ("group C", "the group 's shares"): their
// name must be a word and is left to the tagger when it already read one.
const WIDE_KIND = /^(?:group|ensemble|orchestra)$/
// Lower-case words that may stand inside a title ("Pictures at an Exhibition", "Jude the Obscure").
const TITLE_JOINER = /^(?:of|the|a|an|at|in|on|to|and|for|from|with|is|my|your|me|you|['’]s)$/

/** The end of a title starting at token i (capitalised words or numbers, lower-case joiners inside, up to eight tokens). */
function titleEnd(doc: Tokenized, i: number, listed = false, spans: TaggedSpan[] = []): number {
  const t = doc.tokens
  let b = i + 1
  let end = i + 1
  while (b < t.length && b - i < 8 && t[b].sent === t[i].sent) {
    // In a list, "and" before a capital separates two titles ("A , B and C").
    if (listed && t[b].text === 'and' && b + 1 < t.length && /^\p{Lu}/u.test(t[b + 1].text)) break
    if (afterTitle(doc, b, spans)) break
    // A number after a joiner is a date or a count ("… in 1895"), not the title's.
    if (/^\p{Lu}/u.test(t[b].text) || (/^\p{N}/u.test(t[b].text) && end === b)) end = b + 1
    else if (!TITLE_JOINER.test(t[b].text)) break
    b++
  }
  return end
}

const titled = (m: Mention): Mention => ({ ...m, titled: true })
type TaggedSpan = ReturnType<typeof tagDocument>['spans'][number]
const PREPOSITION = /^(?:to|with|at|for|from|in|by)$/

/**
 * Token b, a preposition after a title, starts what the sentence says of it, not the title's
 * words: a month ("Pump Up The Volume in October") or a person's or organization's name of two
 * words or more the tagger found ("The House of Mirth with Eric Stoltz"). Not "on" ("Blonde on
 * Blonde"), nor a one-word name ("Lucy in the Sky with Diamonds"): titles hold those.
 */
function afterTitle(doc: Tokenized, b: number, spans: TaggedSpan[]): boolean {
  const t = doc.tokens
  if (!PREPOSITION.test(t[b].text) || b + 1 >= t.length) return false
  let k = b + 1
  if (/^the$/i.test(t[k].text) && k + 1 < t.length) k++
  if (MONTH_OR_DAY.test(t[k].text)) return true
  return spans.some((s) => (s.type === 'PER' || s.type === 'ORG') && s.first === k && s.last - s.first >= 2)
}

/**
 * Titles after a kind of work ("the song Knowing Me , Knowing You" up to the comma, "the novel
 * Jude the Obscure"); after a plural kind, a list of them ("the albums Go Plastic , Ultravisitor
 * and Ufabulum", "albums … such as Go Plastic , Hello Everything and Damogen Furies").
 */
function workTitles(doc: Tokenized, spans: TaggedSpan[]): Mention[] {
  const t = doc.tokens
  const out: Mention[] = []
  for (let i = 1; i < t.length; i++) {
    const cued = CUED_KINDS.test(t[i - 1].text)
    if ((!cued && !WORK_KIND.test(t[i - 1].text)) || t[i - 1].sent !== t[i].sent) continue
    let start = cued ? -1 : i
    if (cued || WORK_KINDS.test(t[i - 1].text)) {
      // "albums to critical acclaim in the years to follow , such as": lower-case words, then a list cue.
      let k = i
      // Not "songs by artists including …": what follows a "by" or "with" is who made them.
      while (
        k < t.length &&
        k - i < 12 &&
        t[k].sent === t[i].sent &&
        /^(?:\p{Ll}+|,)$/u.test(t[k].text) &&
        !LIST_CUE.test(t[k].text) &&
        !/^(?:by|with|from|featuring|artists|musicians|bands|singers|authors|writers)$/.test(t[k].text)
      )
        k++
      if (k < t.length && t[k].sent === t[i].sent && LIST_CUE.test(t[k].text)) start = k + (/^such$/i.test(t[k].text) ? 2 : 1)
    }
    if (start < 0 || start >= t.length || t[start].sent !== t[i].sent || !/^[\p{Lu}\p{N}]/u.test(t[start].text)) continue
    // After a plural kind, "and" before a capital separates two titles ("the singles The Bridge
    // is Over and South Bronx").
    const plural = cued || WORK_KINDS.test(t[i - 1].text)
    let end = titleEnd(doc, start, plural, spans)
    out.push(titled(mentionFromTokens(doc.text, t, start, end, 'OBJ')))
    // The rest of a list after a plural kind: ", Title", ", and Title", "and Title".
    if (plural) {
      for (;;) {
        let k = end
        if (k < t.length && t[k].text === ',') k++
        if (k < t.length && /^(?:and|or)$/.test(t[k].text)) k++
        if (k === end || k >= t.length || t[k].sent !== t[i].sent || !/^\p{Lu}/u.test(t[k].text)) break
        const e = titleEnd(doc, k, true, spans)
        out.push(titled(mentionFromTokens(doc.text, t, k, e, 'OBJ')))
        end = e
      }
    }
    i = end - 1
  }
  return out
}

// Plural kinds of product or software, before a list cue ("conversational assistants such as …",
// "commercial products like MATLAB"). Not "systems" nor "services": what they list is as often a
// scheme or a company ("services such as Netflix and Amazon").
const PRODUCT_KINDS =
  /^(?:products|assistants|frameworks|programs|programmes|applications|apps|tools|toolkits|libraries|platforms|robots|consoles|devices|smartphones|browsers)$/
const PRODUCT_LIST_CUE = /^(?:such|including|like)$/

/**
 * The names listed after a plural kind of product and "such as", "including" or "like" (up to eight
 * lower-case words between: "programs are available online , such as Google Translate and …"):
 * objects, found by a title rule. A leading "the" is skipped ("speakers such as the Amazon Echo").
 */
function productLists(doc: Tokenized, spans: TaggedSpan[]): Mention[] {
  const t = doc.tokens
  const out: Mention[] = []
  for (let i = 0; i + 2 < t.length; i++) {
    if (!PRODUCT_KINDS.test(t[i].text)) continue
    let k = i + 1
    while (k < t.length && k - i <= 8 && t[k].sent === t[i].sent && /^(?:\p{Ll}+|,)$/u.test(t[k].text) && !PRODUCT_LIST_CUE.test(t[k].text))
      k++
    if (k >= t.length || t[k].sent !== t[i].sent || !PRODUCT_LIST_CUE.test(t[k].text)) continue
    if (t[k].text === 'such') {
      if (k + 1 >= t.length || t[k + 1].text !== 'as') continue
      k++
    }
    k++
    for (let n = 0; n < 12; n++) {
      if (k < t.length && t[k].text === 'the') k++
      if (k >= t.length || t[k].sent !== t[i].sent || !/^[\p{Lu}\p{N}]/u.test(t[k].text)) break
      let e = titleEnd(doc, k, true, spans)
      // "Google Translate and the SYSTRAN system": "and the" before a capital starts the next name.
      for (let j = k + 1; j + 2 < e; j++)
        if (/^(?:and|or)$/.test(t[j].text) && t[j + 1].text === 'the' && /^\p{Lu}/u.test(t[j + 2].text)) e = j
      out.push(titled(mentionFromTokens(doc.text, t, k, e, 'OBJ')))
      k = e
      if (k < t.length && t[k].text === ',') k++
      if (k < t.length && /^(?:and|or)$/.test(t[k].text)) k++
      if (k === e) break
    }
    i = k - 1
  }
  return out
}

// Kinds of software or machine written right after a product's name, with at most three
// lower-case words between ("the SYSTRAN system", "the Weka data mining tool", "the open-source
// eSpeak synthesizer"): the kind is part of the product's name, as CrossNER writes it. Not "app",
// "platform", "program", "engine": tweets' and news' organizations stand before those ("the Times
// app", "the Intel platform").
const SYSTEM_KIND = /^(?:system|systems|tool|toolkit|toolbox|synthesizer|synthesiser|software)$/
// A word of a product's name: capitalised, a number, or a lower-case start before a capital ("eSpeak").
const SYSTEM_NAME_WORD = /^(?:[\p{Lu}\p{N}][\p{L}\p{N}.+#-]*|\p{Ll}+\p{Lu}[\p{L}\p{N}]*)$/u
// Words before a kind that are no name's own ("The", "Our", "A").
const NOT_PRODUCT_START = /^(?:the|a|an|this|that|these|those|its|his|her|their|our|my|your|each|every|any|some|many|most|all|no|one|two)$/i

/** [a, b) of the capitalised name whose product words end at e (exclusive), or undefined. */
function productNameBefore(doc: Tokenized, e: number, sent: number, spans: TaggedSpan[], ctx: RuleContext): [number, number] | undefined {
  const t = doc.tokens
  let a = e
  while (a > 0 && t[a - 1].sent === sent && SYSTEM_NAME_WORD.test(t[a - 1].text)) a--
  // Determiners, and an ordinary word that opens the sentence ("Modern Windows desktop systems").
  while (a < e && (NOT_PRODUCT_START.test(t[a].text) || (a === doc.sentences[sent].first && wordGaz(ctx, t[a].text) & GAZ_COMMON))) a++
  if (a === e) return undefined
  // "the University of [Illinois] system": the name is the end of another's.
  if (a > 0 && /^(?:of|'s|’s)$/.test(t[a - 1].text)) return undefined
  // "the German football league system", "the Cuban healthcare system": a nation's, not a product.
  if (wordGaz(ctx, t[a].text) & GAZ_DEMONYM || wordGaz(ctx, t[e - 1].text) & GAZ_DEMONYM) return undefined
  // A person's name is no product's.
  if (spans.some((s) => s.type === 'PER' && s.first < e && s.last > a)) return undefined
  return [a, e]
}

/**
 * A capitalised name, up to three lower-case words and a kind of software or machine ("the SYSTRAN
 * system", "the Weka data mining tool"): one product's name, the kind in it. Objects, marked as
 * titles; whatever the tagger made of the name (an organization, a place) gives way.
 */
export function systemNames(doc: Tokenized, spans: TaggedSpan[], ctx: RuleContext): Mention[] {
  const t = doc.tokens
  const out: Mention[] = []
  for (let i = 1; i < t.length; i++) {
    if (!SYSTEM_KIND.test(t[i].text)) continue
    let e = i
    while (
      e > 0 &&
      i - e < 3 &&
      t[e - 1].sent === t[i].sent &&
      /^\p{Ll}+(?:-\p{Ll}+)?$/u.test(t[e - 1].text) &&
      !FUNCTION_WORD.test(t[e - 1].text)
    )
      e--
    const name = productNameBefore(doc, e, t[i].sent, spans, ctx)
    if (!name) continue
    out.push(titled(mentionFromTokens(doc.text, t, name[0], i + 1, 'OBJ')))
  }
  return out
}

// Lower-case words that never stand between a product's name and its kind.
const FUNCTION_WORD =
  /^(?:the|a|an|of|and|or|in|on|at|for|to|with|by|from|as|is|was|are|were|be|been|its|his|her|their|our|that|which|who|this|these|those|new|own)$/

// What a definition may call a product of software or a machine ("DeepFace is a deep learning
// facial recognition system", "J48 is an open source Java implementation of …").
const SOFTWARE_KIND =
  /^(?:system|software|tool|toolkit|toolbox|library|framework|implementation|program|application|robot|synthesizer|package|platform|engine|interpreter|compiler|assistant|chatbot)$/
const PRONOUN = /^(?:he|she|it|they|we|i|you|this|that|these|those|there|here|one|each)$/i
// Nouns after a kind of software that make the name a maker's ("a software company", "a robot maker").
const MAKER_NOUN =
  /^(?:company|companies|firm|firms|developer|developers|maker|makers|vendor|vendors|manufacturer|manufacturers|publisher|provider|providers|house|startup|business|corporation|group|engineer|engineers|designer|designers|consultancy|consultant|architect|researcher|researchers|pioneer|entrepreneur|giant|brand|division|subsidiary|team)$/

/**
 * A name that opens a sentence defining it as software or a machine: the name, "is" / "was", "a" /
 * "an", then up to ten lower-case words, numbers or miscellaneous names up to a kind of software
 * ("DeepFace is a deep learning facial recognition system"). An object, marked as a title, also
 * where the tagger read an organization (software is often named like a firm). Not a name the
 * tagger read as a person's or a place's, a pronoun or an ordinary word alone, nor a maker ("a
 * software company").
 */
export function definedSoftware(doc: Tokenized, spans: TaggedSpan[], ctx: RuleContext): Mention[] {
  const t = doc.tokens
  const out: Mention[] = []
  const miscAt = new Map<number, TaggedSpan>()
  for (const s of spans) if (s.type === 'MISC') miscAt.set(s.first, s)
  for (const sent of doc.sentences) {
    const a = sent.first
    let b = a
    while (b < sent.last && SYSTEM_NAME_WORD.test(t[b].text)) b++
    if (b === a || b + 2 >= sent.last || !/^(?:is|was)$/.test(t[b].text) || !/^(?:a|an)$/.test(t[b + 1].text)) continue
    if (PRONOUN.test(t[a].text) || NOT_PRODUCT_START.test(t[a].text) || (b - a === 1 && wordGaz(ctx, t[a].text) & GAZ_COMMON)) continue
    if (spans.some((s) => (s.type === 'PER' || s.type === 'LOC') && s.first < b && s.last > a)) continue
    let kind = false
    for (let k = b + 2; k < sent.last && k - b <= 12; k++) {
      if (SOFTWARE_KIND.test(t[k].text)) {
        // "a software company": the kind modifies who makes it.
        kind = k + 1 >= sent.last || !MAKER_NOUN.test(t[k + 1].text)
        break
      }
      const o = miscAt.get(k)
      if (o) k = o.last - 1
      else if (!/^(?:\p{Ll}+|\p{N}+|-)$/u.test(t[k].text)) break
    }
    if (kind) out.push(titled(mentionFromTokens(doc.text, t, a, b, 'OBJ')))
  }
  return out
}

// Kinds of software or machine before the name they are called by ("a project called Knowledge
// Graphs", "a C++ interpreter ( CINT", "a device known as Chromecast"). Not "product", "model",
// "language": "gross domestic product ( GDP )".
const CALLED_KIND =
  /^(?:system|systems|software|tool|toolkit|toolbox|library|framework|program|programs|programme|application|robot|robots|synthesizer|package|platform|engine|interpreter|compiler|assistant|chatbot|project|app|device)$/

/**
 * The name after a kind of software or machine and "called", "named", "dubbed", "known as" or an
 * opening bracket: a product, marked as a title. Not a name the tagger read as a person's or a
 * place's.
 */
export function calledProducts(doc: Tokenized, spans: TaggedSpan[]): Mention[] {
  const t = doc.tokens
  const out: Mention[] = []
  for (let i = 0; i + 2 < t.length; i++) {
    if (!CALLED_KIND.test(t[i].text)) continue
    let k = i + 1
    if (t[k].text === 'known' && t[k + 1].text === 'as') k++
    else if (!/^(?:called|named|dubbed|\()$/.test(t[k].text)) continue
    k++
    if (k >= t.length || t[k].sent !== t[i].sent || !SYSTEM_NAME_WORD.test(t[k].text)) continue
    const e = titleEnd(doc, k, true, spans)
    if (spans.some((s) => (s.type === 'PER' || s.type === 'LOC') && s.first < e && s.last > k)) continue
    out.push(titled(mentionFromTokens(doc.text, t, k, e, 'OBJ')))
    i = e - 1
  }
  return out
}

const GAZ_TRAINED_OBJ = 1 << GAZ_CLASSES.indexOf('tOBJ')

/**
 * The tagger's spans (miscellaneous, or of another of our types) whose name the training data
 * annotates as a product or a work more often than as anything else ("MATLAB", "Dookie"): objects,
 * marked as titles.
 */
export function knownObjects(doc: Tokenized, spans: TaggedSpan[], ctx: RuleContext): Mention[] {
  const t = doc.tokens
  const out: Mention[] = []
  for (const s of spans) {
    if (s.type === 'OBJ' || s.last - s.first > MAX_GAZ_WORDS) continue
    const words = t.slice(s.first, s.last).map((x) => x.text.toLowerCase())
    if (ctx.gaz(words) & GAZ_TRAINED_OBJ) out.push(titled(mentionFromTokens(doc.text, t, s.first, s.last, 'OBJ')))
  }
  return out
}

// Plural kinds of group before a list of their names ("bands such as A , B and C", "groups
// including A"); and the lower-case words that may stand inside a group's name ("At the Gates").
const GROUP_KINDS = /^(?:bands|Bands|groups|Groups)$/
const GROUP_LIST_CUE = /^(?:such|including|include|includes|included|like)$/
const NAME_JOINER = /^(?:of|the|a|an|at|in|on|to|for|from|with|&|['’]s)$/

/**
 * The end of a listed name from token i: capitalised words, numbers, joiners inside; not past "and"
 * or a comma, nor into another name the tagger found after a joiner ("Sepultura in Brazil").
 */
function listedNameEnd(doc: Tokenized, i: number, spans: TaggedSpan[]): number {
  const t = doc.tokens
  let b = i + 1
  let end = i + 1
  while (b < t.length && b - i < 8 && t[b].sent === t[i].sent) {
    if (/^(?:in|on|at|to|for|from|with|by)$/.test(t[b].text)) {
      // A preposition before another tagged name or a month leads out of the name ("Sepultura in
      // Brazil", "Lydia Loveless in May").
      if (spans.some((s) => s.first === b + 1) || (b + 1 < t.length && MONTH_OR_DAY.test(t[b + 1].text))) break
    }
    // A hyphen written without spaces joins the name's words ("O-Town").
    if (t[b].text === '-' && t[b].start === t[b - 1].end && b + 1 < t.length && t[b + 1].start === t[b].end) {
      b++
      continue
    }
    // A number after a joiner is a date or a count ("Korn in 1998"), not the name's.
    if (/^\p{Lu}/u.test(t[b].text) || (/^\p{N}/u.test(t[b].text) && end === b)) end = b + 1
    else if (!NAME_JOINER.test(t[b].text)) break
    b++
  }
  return end
}

/**
 * The names listed after a plural kind of group and "such as", "including" or "like" ("Swedish
 * bands such as Dark Tranquillity , At the Gates , and In Flames") or right after it ("the indie
 * rock bands Blake Babies , Some Girls"), and the one name after "band", "duo"…: organizations. A name the
 * tagger read as a person that starts with a known first name stays a person ("groups such as Gary
 * Numan , Ultravox"): lists of acts mix the two.
 */
function groupLists(doc: Tokenized, spans: TaggedSpan[], ctx: RuleContext): Mention[] {
  const t = doc.tokens
  const out: Mention[] = []
  for (let i = 0; i + 2 < t.length; i++) {
    const single = GROUP_KIND.test(t[i].text) && !GROUP_KINDS.test(t[i].text)
    if (!single && !GROUP_KINDS.test(t[i].text)) continue
    let k = i + 1
    if (t[k].sent !== t[i].sent) continue
    // "the indie rock bands Blake Babies , Some Girls , and The Lemonheads", "the band Sonic Youth":
    // the names right after the kind; else after a list cue.
    if (!/^(?:[\p{Lu}\p{N}]|the$)/u.test(t[k].text)) {
      if (single) continue
      if (t[k].text === ',') k++
      if (k >= t.length || t[k].sent !== t[i].sent || !GROUP_LIST_CUE.test(t[k].text)) continue
      if (t[k].text === 'such') {
        if (k + 1 >= t.length || t[k + 1].text !== 'as') continue
        k++
      }
      k++
    }
    for (let n = 0; n < (single ? 1 : 15); n++) {
      if (k < t.length && /^the$/i.test(t[k].text)) k++
      if (k >= t.length || t[k].sent !== t[i].sent || !/^[\p{Lu}\p{N}]/u.test(t[k].text)) break
      if (
        WIDE_KIND.test(t[i].text) &&
        (!/^\p{L}\p{L}/u.test(t[k].text) || spans.some((s) => s.type === 'ORG' && s.first <= k && s.last > k))
      )
        break
      let e = listedNameEnd(doc, k, spans)
      // "Emerson , Lake & Palmer", "Earth , Wind & Fire": a comma and two names joined by "&" end
      // one name, not two of the list.
      if (
        e - k <= 2 &&
        e + 3 < t.length &&
        t[e].text === ',' &&
        t[e + 2].text === '&' &&
        t[e + 3].sent === t[k].sent &&
        /^\p{Lu}/u.test(t[e + 1].text) &&
        /^\p{Lu}/u.test(t[e + 3].text)
      )
        e += 4
      const person = spans.find((s) => s.type === 'PER' && s.first <= k && s.last > k)
      const firstName = !single && TITLE_CASE.test(t[k].text) && e - k >= 2 && (wordGaz(ctx, t[k].text) & GAZ_FIRST) !== 0
      if (!(person && firstName)) out.push({ ...mentionFromTokens(doc.text, t, k, e, 'ORG'), stated: true })
      k = e
      if (k < t.length && t[k].text === ',') k++
      if (k < t.length && /^(?:and|or)$/.test(t[k].text)) k++
      else if (t[k - 1].text !== ',') break
    }
    i = k - 1
  }
  return out
}

const YEAR = /^(?:1[5-9]|20)\d\d$/
const ELECTION = /^(?:elections?|by-elections?|referendums?|referenda|primary|primaries|caucus|caucuses)$/

/**
 * [a, b), a place's name between a year and up to three lower-case words and an election's word
 * ("1992 United Kingdom general election", "2011 Berlin state election"): a word of the event's
 * name, which the corpora annotate as a whole (miscellaneous), not a place of the text.
 */
// Styles of music named after where they were born ("Chicago blues", "the Nashville sound",
// "Detroit techno"); not "house" nor "country" ("a Gaza house", "a Balkan country").
const GENRE = /^(?:blues|sound|jazz|rock|punk|metal|soul|funk|gospel|techno|reggae|swing|bluegrass|rap|hip|grunge|zydeco)$/

/**
 * A place right before a style of music in lower case ("Chicago blues", "West Coast hip hop") is a
 * word of the style's name, which every corpus annotates whole, as miscellaneous: none of ours.
 */
export function genrePlace(doc: Tokenized, b: number): boolean {
  const t = doc.tokens
  if (b >= t.length || t[b].sent !== t[b - 1].sent || !GENRE.test(t[b].text)) return false
  return t[b].text !== 'hip' || t[b + 1]?.text === 'hop' || t[b + 1]?.text === '-'
}

export function electionPlace(doc: Tokenized, a: number, b: number): boolean {
  const t = doc.tokens
  if (a === 0 || !YEAR.test(t[a - 1].text) || t[a - 1].sent !== t[a].sent) return false
  for (let i = b; i < t.length && i <= b + 3 && t[i].sent === t[a].sent; i++) {
    if (ELECTION.test(t[i].text)) return true
    if (!/^[\p{Ll}-]+$/u.test(t[i].text)) return false
  }
  return false
}
const NOT_A_WORK =
  /^(?:Award|Awards|Prize|Medal|Fellow|Fellowship|Cup|Championship|Championships|Festival|Games|Olympics|War|Act|Tour|Treaty|Conference|Election|Revolution|Contest|Trophy|Lecture)$/

/**
 * Names the tagger found (any type) that stand right before a year in brackets ("Silas Marner (
 * 1861 )", "Screw ( 1898 )"): works, in encyclopaedic text. The title is run back from the span
 * over capitalised words and joiners ("The Turn of the [Screw]"), not past the sentence's start.
 */
function yearTitles(doc: Tokenized, spans: ReturnType<typeof tagDocument>['spans']): Mention[] {
  const t = doc.tokens
  const out: Mention[] = []
  for (const s of spans) {
    // The tagger's span may run into the bracket ("[Screw ( 1898] )").
    let b = s.last
    for (let k = s.first + 1; k < s.last; k++)
      if (t[k].text === '(' && k + 1 < s.last) {
        b = k
        break
      }
    if (b + 2 >= t.length || t[b].text !== '(' || !YEAR.test(t[b + 1].text) || t[b + 2].text !== ')' || t[b + 1].sent !== t[b].sent)
      continue
    // A person with a year ("Bach ( 1685 )") stays one: a title of one word after a personal title is not one.
    // Persons, organizations and places with a year are as often not works (a founding, a
    // birth); nor are awards, events and laws.
    if ((s.type !== 'MISC' && s.type !== 'OBJ') || NOT_A_WORK.test(t[b - 1].text)) continue
    out.push(titled(mentionFromTokens(doc.text, t, titleStart(doc, s, spans), b, 'OBJ')))
  }
  return out
}

// Verbs of making: before "by" and the maker ("developed by Nokia"), or after the maker and
// before what was made ("Toyota manufactured the Aurion").
const MADE_BY = /^(?:developed|manufactured|produced|built|designed|released|published|marketed|launched|introduced)$/
const MAKES =
  /^(?:develops|developed|manufactures|manufactured|produces|produced|builds|built|designs|designed|releases|released|publishes|published|markets|marketed|launches|launched|introduced|unveiled)$/

// Words after a name that show it is not a noun's modifier.
const NOT_A_NOUN = /^(?:and|or|in|on|at|for|with|to|from|by|which|that|was|is|were|are|as|of|the|a|an|has|had|have)$/
const MADE_BY_GAP = /^(?:which|that|was|were|is|are|has|have|had|been|being|originally|first|later|also|jointly|initially)$/
// Kinds of product written right after a product's name ("the Atari 5200 console").
const MADE_KIND =
  /^(?:console|consoles|device|devices|smartphone|smartphones|brand|brands|franchise|microarchitecture|processors|CPUs|cars|vehicles|aircraft|missiles|rifle|software|series)$/

/** A miscellaneous span s, a copula, up to twelve lower-case words, numbers or miscellaneous names, a verb of making, "by" and its agent. */
function copulaMadeBy(doc: Tokenized, s: TaggedSpan, agentAt: Map<number, TaggedSpan>, miscAt: Map<number, TaggedSpan>): boolean {
  const t = doc.tokens
  let k = s.last
  if (k >= t.length || !/^(?:is|was|are|were)$/.test(t[k].text) || t[k].sent !== t[s.first].sent) return false
  for (k++; k < t.length && k - s.last <= 12 && t[k].sent === t[s.first].sent; k++) {
    if (MADE_BY.test(t[k].text) && t[k + 1]?.text === 'by') {
      for (let j = k + 2; j < t.length && j <= k + 4 && t[j].sent === t[k].sent; j++) {
        if (agentAt.has(j)) return true
        if (!/^\p{Ll}+$/u.test(t[j].text)) break
      }
      return false
    }
    const o = miscAt.get(k)
    if (o) k = o.last - 1
    else if (!/^(?:\p{Ll}+|\p{N}+|-)$/u.test(t[k].text)) return false
  }
  return false
}

/**
 * The tagger's miscellaneous spans that are products or works by what the text says of them: the
 * object of a verb of making with an organization or a person as its agent ("X , developed by
 * [ORG]", "X is a 2003 video game developed by [ORG]", "[ORG] released the X"), a name (or a list of
 * names) right before a kind of product ("the Atari 5200 console"), or a name that opens with the
 * whole of an organization's name found elsewhere in the text ("Google Play" where "Google" is an
 * organization). Not names ending in a lower-case word, an award's or a body's word, nor
 * nationalities. Made objects, marked as titles.
 */
export function madeProducts(doc: Tokenized, spans: TaggedSpan[], ctx: RuleContext): Mention[] {
  const t = doc.tokens
  const out: Mention[] = []
  const agentAt = new Map<number, TaggedSpan>()
  for (const s of spans) if (s.type === 'ORG' || s.type === 'PER') agentAt.set(s.first, s)
  const agentEndingAt = new Map<number, TaggedSpan>()
  for (const s of spans) if (s.type === 'ORG' || s.type === 'PER') agentEndingAt.set(s.last, s)
  const orgNames = new Set<string>()
  for (const s of spans)
    if (s.type === 'ORG')
      orgNames.add(
        t
          .slice(s.first, s.last)
          .map((x) => x.text)
          .join(' '),
      )
  const miscAt = new Map<number, TaggedSpan>()
  for (const s of spans) if (s.type === 'MISC') miscAt.set(s.first, s)
  for (const s of spans) {
    // A name ending in a lower-case word is a kind or a field ("Celtic rock", "neural network"),
    // one ending in an award's, an event's or a body's word is not made ("Booker Prize").
    if (s.type !== 'MISC' || !/^[\p{Lu}\p{N}]/u.test(t[s.first].text) || !/^[\p{Lu}\p{N}+]/u.test(t[s.last - 1].text)) continue
    if (
      NOT_A_WORK.test(t[s.last - 1].text) ||
      /^(?:Society|Consortium|Association|Institute|Council|Committee|League)$/.test(t[s.last - 1].text)
    )
      continue
    // A nationality is no product ("German cars", "Bosnian Serb policemen").
    if (wordGaz(ctx, t[s.last - 1].text) & GAZ_DEMONYM) continue
    let made = false
    // "… Cirit , developed by Roketsan", "which was manufactured by the Japanese company Toyota".
    let k = s.last
    if (k < t.length && t[k].text === ',') k++
    // Only words of a relative clause between ("which was", "originally"): "an American video game
    // developed by …" is a nationality before its noun.
    for (let n = 0; n < 3 && k < t.length && MADE_BY_GAP.test(t[k].text); n++) k++
    if (k + 1 < t.length && MADE_BY.test(t[k].text) && t[k + 1].text === 'by' && t[k].sent === t[s.first].sent) {
      for (let j = k + 2; j < t.length && j <= k + 5 && t[j].sent === t[k].sent; j++) {
        if (agentAt.has(j)) {
          made = true
          break
        }
        if (!/^[\p{Ll}\p{Lu}]/u.test(t[j].text) || (j > k + 2 && /^\p{Lu}/u.test(t[j - 1].text) && !agentAt.has(j - 1))) break
      }
    }
    // "Nexus Q is a discontinued digital media player developed by Google": the name, a copula,
    // then lower-case words, numbers or miscellaneous names (a nationality) up to the verb.
    if (!made && copulaMadeBy(doc, s, agentAt, miscAt)) made = true
    // "the Atari 5200 console", "the Kingdom Hearts series": a kind of product right after the name.
    // So for the names of a list the kind ends ("the Final Fantasy , Dragon Quest , and Kingdom
    // Hearts series", "Its Buick , Chevrolet and Cadillac brands"): commas, "and" / "or" and the
    // tagger's miscellaneous names up to the kind.
    if (!made) {
      let k = s.last
      for (;;) {
        let j = k
        if (j < t.length && t[j].text === ',') j++
        if (j < t.length && /^(?:and|or)$/.test(t[j].text)) j++
        const o = j > k ? miscAt.get(j) : undefined
        if (!o) break
        k = o.last
      }
      made = k < t.length && t[k].sent === t[s.first].sent && MADE_KIND.test(t[k].text)
    }
    // "Roketsan produces the Cirit", "Intel released its Broadwell": the maker, at most three
    // words, the verb, then up to three lower-case words; the name must not modify a noun after
    // it ("built several Buddhist schools").
    const next = s.last < t.length && t[s.last].sent === t[s.first].sent ? t[s.last].text : '.'
    if (!made && !(/^\p{Ll}/u.test(next) && !NOT_A_NOUN.test(next))) {
      let j = s.first - 1
      while (j >= 0 && s.first - j <= 4 && /^\p{Ll}+$/u.test(t[j].text) && !MAKES.test(t[j].text)) j--
      if (j >= 0 && MAKES.test(t[j].text) && t[j].sent === t[s.first].sent)
        for (let a = j; a >= 0 && j - a <= 3 && t[a].sent === t[j].sent; a--)
          if (agentEndingAt.has(a)) {
            made = true
            break
          }
    }
    // "Google Play", "Toyota Aurion": an organization's whole name and more.
    if (!made)
      for (let n = 1; n < s.last - s.first && !made; n++)
        made =
          /^[\p{L}\p{N}]/u.test(t[s.first + n].text) &&
          orgNames.has(
            t
              .slice(s.first, s.first + n)
              .map((x) => x.text)
              .join(' '),
          )
    if (made) out.push(titled(mentionFromTokens(doc.text, t, s.first, s.last, 'OBJ')))
  }
  // The text's other miscellaneous spans of a made name are the same product ("Nexus Q").
  const made = new Set(out.map((m) => m.text))
  const firsts = new Set(out.map((m) => m.first))
  for (const s of spans)
    if (s.type === 'MISC' && !firsts.has(s.first)) {
      const m = mentionFromTokens(doc.text, t, s.first, s.last, 'OBJ')
      if (made.has(m.text)) out.push(titled(m))
    }
  out.sort((x, y) => x.first - y.first)
  return out
}

/**
 * Where a title that the tagger's span s ends starts: run back over capitalised words and title
 * joiners outside other spans ("The Turn of the [Screw]", "Just a [Souvenir]"), not past the
 * sentence's start, and not taking a sentence-initial ordinary word ("In [Silas Marner]").
 */
export function titleStart(doc: Tokenized, s: { first: number; last: number }, spans: { first: number; last: number }[]): number {
  const t = doc.tokens
  let a = s.first
  const sentFirst = doc.sentences[t[a].sent].first
  while (
    a > sentFirst &&
    (/^\p{Lu}/u.test(t[a - 1].text) || TITLE_JOINER.test(t[a - 1].text)) &&
    t[a - 1].text !== 'and' &&
    !spans.some((o) => o !== s && o.first < a && o.last >= a)
  )
    a--
  while (a < s.first && !/^[\p{Lu}\p{N}]/u.test(t[a].text)) a++
  if (a === sentFirst && a < s.first && SENTENCE_OPENER.test(t[a].text)) {
    a++
    while (a < s.first && !/^[\p{Lu}\p{N}]/u.test(t[a].text)) a++
  }
  return a
}
const SENTENCE_OPENER =
  /^(?:In|On|At|For|From|With|By|After|Before|During|His|Her|Their|Its|Both|Then|Later|Also|Since|When|While|As|It|This|That|These|Those|He|She|They|We|I|And|But|Or|So)$/

const MONTH_ABBR = /^(?:Feb|Apr|Aug|Sept?|Oct|Nov|Dec)\.?$/

/** In [a, b): "and" followed by a first name, an initial and a surname (then "of" or the end): the index of "and", else -1. */
function coordinatedPerson(doc: Tokenized, a: number, b: number): number {
  const t = doc.tokens
  for (let k = a + 1; k + 3 < b; k++) {
    if (t[k].text !== 'and') continue
    if (
      TITLE_CASE.test(t[k + 1].text) &&
      /^\p{Lu}\.$/u.test(t[k + 2].text) &&
      TITLE_CASE.test(t[k + 3].text) &&
      (k + 4 === b || (/^of$/i.test(t[k + 4].text) && k + 5 < b))
    )
      return k
  }
  return -1
}

const US_STATE =
  /^(?:Alabama|Alaska|Arizona|Arkansas|California|Colorado|Connecticut|Delaware|Florida|Georgia|Hawaii|Idaho|Illinois|Indiana|Iowa|Kansas|Kentucky|Louisiana|Maine|Maryland|Massachusetts|Michigan|Minnesota|Mississippi|Missouri|Montana|Nebraska|Nevada|Ohio|Oklahoma|Oregon|Pennsylvania|Tennessee|Texas|Utah|Vermont|Virginia|Washington|Wisconsin|Wyoming|D\.C\.)$/
const US_STATE_2 =
  /^(?:New (?:Hampshire|Jersey|Mexico|York)|North (?:Carolina|Dakota)|South (?:Carolina|Dakota)|Rhode Island|West Virginia)$/

/** A US state's abbreviation at token i, after a comma: dotted, or bare where the clause ends right after it. */
function stateAbbrAt(doc: Tokenized, i: number): boolean {
  const t = doc.tokens
  if (i >= t.length || i === 0 || t[i].sent !== t[i - 1].sent) return false
  if (US_STATE_ABBR.test(t[i].text)) return true
  if (!US_STATE_ABBR_BARE.test(t[i].text)) return false
  return i + 1 === t.length || t[i + 1].sent !== t[i].sent || /^[.,;:)]$/.test(t[i + 1].text)
}

/**
 * [a, b) is a town, a comma and a US state, as one span ("Tuscumbia , Ala.", "West Branch ,
 * Iowa"): one to four capitalised words, then the state's abbreviation or name up to b.
 */
function townState(doc: Tokenized, a: number, b: number): boolean {
  const t = doc.tokens
  for (let k = a + 1; k <= a + 4 && k < b - 1; k++) {
    if (t[k].text !== ',') continue
    for (let i = a; i < k; i++) if (!/^\p{Lu}/u.test(t[i].text) || MONTH_OR_DAY.test(t[i].text)) return false
    if (b === k + 2) return stateAbbrAt(doc, k + 1) || US_STATE.test(t[k + 1].text)
    return b === k + 3 && US_STATE_2.test(`${t[k + 1].text} ${t[k + 2].text}`)
  }
  return false
}
// Capitalised titles that stand between an organization's or place's name and a person's.
const JOB_TITLE =
  /^(?:Director|Attorney|Deputy|Commander|Chairman|Chairwoman|Secretary|Minister|Spokesman|Spokeswoman|President|Governor|Mayor|Chief|Ambassador|Envoy|Premier|Senator|Judge|Professor|Economist|Correspondent|Officer|Manager|Editor|Coach)$/

/** Index of a title word inside [a, b) followed by two or three name words up to b, else -1. */
function titleSplit(doc: Tokenized, a: number, b: number): number {
  for (let j = a + 1; j <= b - 3; j++) {
    if (!JOB_TITLE.test(doc.tokens[j].text) || b - j - 1 > 3) continue
    let ok = true
    for (let i = j + 1; i < b; i++) if (!TITLE_CASE.test(doc.tokens[i].text) && !/^\p{Lu}\.$/u.test(doc.tokens[i].text)) ok = false
    if (ok) return j
  }
  return -1
}

/** Gazetteer classes of a name ("Japan" → country), as the tagger's model file knows them. */
export function nameClasses(name: string, tagger: TaggerModel): number {
  const ws = name.toLowerCase().split(/\s+/).filter(Boolean)
  if (!ws.length || ws.length > MAX_GAZ_WORDS) return 0
  return (tagger.gazetteer.get(phraseHash(ws)) ?? 0) & ~GAZ_PREFIX
}

/**
 * Canonical entities, most salient first, at most MAX_ENTITIES_PER_TYPE of each type, each with
 * its confidence; an entity more likely wrong than right (under REPORT_CUT, or `cut`) is dropped
 * unless `all` is set (fitting the confidence model needs them all).
 */
export function extractEntities(doc: Tokenized, models: EntityModels, options: { all?: boolean; cut?: number } = {}): Entity[] {
  const cut = options.cut ?? REPORT_CUT
  const perType = new Map<EntityType, number>()
  const out: Entity[] = []
  for (const { entity: e, features } of entityCandidates(doc, models.tagger)) {
    e.confidence = confidenceOf(models.confidence, features)
    if (!options.all && e.confidence < cut) continue
    const n = perType.get(e.type) ?? 0
    if (n >= MAX_ENTITIES_PER_TYPE) continue
    perType.set(e.type, n + 1)
    out.push(e)
  }
  return out
}

/** Every canonical entity of the document, most salient first, with its confidence features. */
export function entityCandidates(doc: Tokenized, tagger: TaggerModel): { entity: Entity; features: Float64Array }[] {
  const { mentions, noisy } = tagMentions(doc, tagger)
  const tagged = new Map<Mention, EntityType>()
  for (const m of mentions) tagged.set(m, m.type)
  const ordinary = ordinaryTest(tagger)
  const register = registerOf(doc, ordinary)
  register.opening = new Map()
  for (const m of mentions) register.opening.set(m.first, Math.max(register.opening.get(m.first) ?? 0, m.last))
  return buildEntities(mentions, doc.text.length).map((e) => {
    e.classes = nameClasses(e.name, tagger)
    const ev = entityEvidence(doc, e, tagged, noisy, register)
    ev.ordinaryWords = e.name.split(/\s+/).every(ordinary)
    return { entity: e, features: confidenceFeatures(e, ev) }
  })
}

/**
 * Whether a word is an ordinary one to the gazetteer. Asked of every capitalised word and of every
 * entity's words: each word looked up once per document. (Returned unnamed: under tsx a named
 * closure also runs esbuild's `__name` each time it is made.)
 */
function ordinaryTest(tagger: TaggerModel): (w: string) => boolean {
  const ordinaryOf = new Map<string, boolean>()
  return (w) => {
    let o = ordinaryOf.get(w)
    if (o === undefined) ordinaryOf.set(w, (o = (nameClasses(w, tagger) & GAZ_COMMON) !== 0))
    return o
  }
}

// Words that say a work or a product is talked about: its kind, or what is done with one.
const WORK_CUE =
  /^(?:albums?|songs?|singles?|tracks?|EPs?|LPs?|records?|novels?|novellas?|books?|poems?|stories|story|collections?|magazines?|journals?|editions?|series|trilogy|sequel|volumes?|films?|movies?|plays?|operas?|games?|apps?|software|versions?|models?|phones?|released|recorded|wrote|written|published|composed|sang|sung|starring|directed|reprinted|translated|issued|launched)$/i
const CUE_WINDOW = 6

/** A work cue in the mention's sentence within CUE_WINDOW tokens of it. */
function nearWorkCue(doc: Tokenized, m: Mention): boolean {
  const t = doc.tokens
  const s = doc.sentences[m.sent]
  for (let i = Math.max(s.first, m.first - CUE_WINDOW); i < Math.min(s.last, m.last + CUE_WINDOW); i++)
    if ((i < m.first || i >= m.last) && WORK_CUE.test(t[i].text)) return true
  return false
}

// "'s" after a name, or an apostrophe alone ("the Specials ' Ghost Town"; "' s" written apart).
const POSSESSIVE = /^(?:['’]s?)$/

/** What the confidence model reads of an entity besides its name (./confidence.ts). */
function entityEvidence(doc: Tokenized, e: Entity, tagged: Map<Mention, EntityType>, noisy: boolean, register: Register): EntityEvidence {
  let agreeing = 0
  let initial = true
  let stated = false
  let titled = false
  let workCue = false
  let determined = false
  let possessor = false
  for (const m of e.mentions) {
    if (tagged.get(m) === e.type) agreeing++
    if (m.first > 0 && DETERMINER.test(doc.tokens[m.first - 1].text)) determined = true
    if (m.stated && tagged.get(m) === e.type) stated = true
    if (m.titled && tagged.get(m) === e.type) titled = true
    if (!workCue && e.type === 'OBJ') workCue = nearWorkCue(doc, m)
    if (m.first !== doc.sentences[m.sent].first) initial = false
    if (!possessor && m.last < doc.tokens.length && doc.tokens[m.last].sent === m.sent) possessor = POSSESSIVE.test(doc.tokens[m.last].text)
  }
  return {
    margins: e.mentions.map((m) => m.margin ?? NaN),
    agreeing,
    sentenceInitialOnly: initial,
    informal: noisy,
    stated,
    titled,
    workCue,
    determined,
    possessor,
    register,
  }
}
