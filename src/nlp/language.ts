// Language identification. eld (small n-gram database) was chosen by measurement on
// ../shared/data/langid/dev.jsonl: see MODEL.md (franc-all, tinyld and eld's other sizes compared).
//
// eld ships its n-gram database as one 1.6 MB JavaScript object literal (eld/small), and
// compiling that module cost the main thread ~138 MB of resident memory (44 MB of V8 heap: an
// object per n-gram, and the parser's memory, which stays with the process). Here the data is
// read from the module's text into a compact table, ~10 MB. `detectLanguage` runs eld's
// detection over that table (eldLanguage: eld's steps, its scoring on typed arrays); eld's own
// detector (`createEld()`, given its data through `loadData`, the hook eld's entry files use)
// reads the same table through a read-only view that answers `ngrams[key]` exactly as the literal
// would (see ngramView), and is the reference the tests compare with. The table loads on first
// use: the service does so at start-up, on the main thread; analysis workers import the engine,
// which re-exports detectLanguage, but never detect, and so never pay for the table.
import { readFileSync } from 'node:fs'

// eld names Norwegian Bokmål by the macrolanguage code; written Norwegian is ~90% Bokmål,
// and the service speaks ISO 639-1 codes of the written standard.
const RENAME: Record<string, string> = { no: 'nb' }

/** Fallback when the text has no usable letters (digits, emoji, symbols only). */
const DEFAULT_LANGUAGE = 'en'

interface Eld {
  detect(text: string): { language: string }
}
interface EldModule {
  createEld(): { instance: Eld; loadData(data: unknown): string }
}

// eld 2.1's layout: src/entries/static.small.js imports ../languageDetector.js and ../ngrams/small.js.
const ELD_ENTRY = import.meta.resolve('eld/small')
const ELD_DATA = new URL('../ngrams/small.js', ELD_ENTRY)
const eldModule = (await import(new URL('../languageDetector.js', ELD_ENTRY).href)) as Partial<EldModule>
if (typeof eldModule.createEld !== 'function') {
  throw new Error(
    `language: eld's detector module (${new URL('../languageDetector.js', ELD_ENTRY).href}) has no createEld(); eld's layout changed`,
  )
}
const { createEld } = eldModule as EldModule
// The separator pattern and byte dictionary of eld's own text processing (see eldWords).
const { separators } = (await import(new URL('../regexPatterns.js', ELD_ENTRY).href)) as { separators: RegExp }
const { dictionary } = (await import(new URL('../dictionary.js', ELD_ENTRY).href)) as { dictionary: string[] }
if (!(separators instanceof RegExp) || !Array.isArray(dictionary) || dictionary.length !== 256)
  throw new Error(`language: eld's separators or byte dictionary are not as expected; eld's layout changed`)

const QUOTED_OR_BARE = String.raw`'(?:[^'\\]|\\.)*'|[^\s{}[\],:'"]+`

/** A key or value of eld's literal as a string: quotes and escapes removed. */
function unquote(token: string): string {
  if (!token.startsWith("'")) return token
  return token.slice(1, -1).replace(/\\(.)/g, (esc: string, c: string) => {
    if (c === "'" || c === '"' || c === '\\') return c
    throw new Error(`language: unexpected escape ${esc} in eld's data`)
  })
}

/** eld's data with `ngrams` as a compact table: n-gram → run of (language id, score) pairs. */
export interface EldData {
  type: string
  languages: Record<string, string>
  ngrams: Map<string, number>
  /** Run k is pairs offsets[k] .. offsets[k + 1] - 1 of `langs` and `scores`. */
  offsets: Int32Array
  langs: Int32Array
  scores: Int32Array
}

/**
 * Reads eld's data module (`export const ngramsData = {type:'S60',languages:{0:'am',…},
 * isSubset:false,ngrams:{' de ':{0:12,5:3},L_QL:{0:148},…}}`) without evaluating it.
 */
export function readEldData(source: string): EldData {
  const fail = (what: string): never => {
    throw new Error(`language: eld's data module is not as expected (${what})`)
  }
  const header =
    /ngramsData\s*=\s*\{\s*type\s*:\s*'([^']*)'\s*,\s*languages\s*:\s*\{([^{}]*)\}\s*,(?:\s*isSubset\s*:\s*\w+\s*,)?\s*ngrams\s*:\s*\{/.exec(
      source,
    ) ?? fail('header')
  const languages: Record<string, string> = {}
  for (const m of header[2].matchAll(new RegExp(`(${QUOTED_OR_BARE})\\s*:\\s*(${QUOTED_OR_BARE})`, 'g')))
    languages[unquote(m[1])] = unquote(m[2])
  const ngrams = new Map<string, number>()
  const offsets: number[] = [0]
  const langs: number[] = []
  const scores: number[] = []
  const entry = new RegExp(`\\s*(${QUOTED_OR_BARE})\\s*:\\s*\\{([^{}]*)\\}\\s*(,|\\})`, 'y')
  entry.lastIndex = header.index + header[0].length
  for (;;) {
    const m = entry.exec(source) ?? fail(`n-gram entry at offset ${entry.lastIndex}`)
    for (const pair of m[2].split(',')) {
      const [lang, score] = pair.split(':').map(Number)
      if (!Number.isInteger(lang) || !Number.isInteger(score)) fail(`scores "${m[2]}"`)
      langs.push(lang)
      scores.push(score)
    }
    ngrams.set(unquote(m[1]), offsets.length - 1)
    offsets.push(langs.length)
    if (m[3] === '}') break
  }
  if (!/^\s*\}\s*;?\s*(export\s+default\s+\w+\s*;?\s*)?$/.test(source.slice(entry.lastIndex))) fail('text after the n-grams')
  return {
    type: header[1],
    languages,
    ngrams,
    offsets: Int32Array.from(offsets),
    langs: Int32Array.from(langs),
    scores: Int32Array.from(scores),
  }
}

/**
 * What eld's detector reads as `ngrams`: `ngrams[key]` is a fresh `{ [language id]: score }`
 * object, as in the literal, or undefined. eld only ever reads single keys of it (and iterates
 * the returned object), a few hundred per detection.
 */
function ngramView(d: EldData): Record<string, Record<number, number>> {
  return new Proxy(
    {},
    {
      get(_, key) {
        const k = typeof key === 'string' ? d.ngrams.get(key) : undefined
        if (k === undefined) return undefined
        const scores: Record<number, number> = {}
        for (let p = d.offsets[k]; p < d.offsets[k + 1]; p++) scores[d.langs[p]] = d.scores[p]
        return scores
      },
    },
  )
}

let table: (EldData & { languageCount: number }) | undefined

/** eld's small database as the compact table, read on the first call (once per thread). */
export function eldData(): EldData & { languageCount: number } {
  if (!table) {
    const data = readEldData(readFileSync(ELD_DATA, 'utf8'))
    table = { ...data, languageCount: Object.keys(data.languages).length }
  }
  return table
}

let eld: Eld | undefined

/**
 * eld's own detector over the same table, through the view. The service detects with
 * `detectLanguage`, which scores the table directly; this one is the reference it is tested
 * against (test/nlp/language.test.ts).
 */
export function languageDetector(): Eld {
  if (!eld) {
    const { instance, loadData } = createEld()
    const data = eldData()
    if (!loadData({ type: data.type, languages: data.languages, ngrams: ngramView(data) }))
      throw new Error(`language: eld loaded no data from ${ELD_DATA.href}`)
    eld = instance
  }
  return eld
}

// eld's detection, step by step as eld 2.1's `detect` does it without a language subset or text
// cleaning (src/languageDetector.js: textProcessor, strToUtf8Bytes, getByteNgrams,
// calculateScores, getMaxLang), with its own separator pattern and byte dictionary. Only the
// scoring differs in form: each n-gram's run of the table is added into a typed array, where eld
// reads it through the view as a fresh object and iterates its keys as strings. That was two
// thirds of a detection's CPU on the main thread, which detects for every uncached request.

/** eld's minimum n-gram score, subtracted from the stored scores to keep its database small. */
const BASE_NGRAM_SCORE = 53

/** The text's words as eld sees them: separators to spaces, lower case, UTF-8 bytes as characters. */
function eldWords(text: string): string[] {
  const str = text.replace(separators, ' ').trim().toLowerCase()
  const words: string[] = []
  let encoded = ''
  let countBytes = 0
  for (let i = 0; i < str.length; i++) {
    let c = str.charCodeAt(i)
    if (c < 0x80) {
      if (c === 32) {
        if (encoded !== '') {
          words.push(encoded)
          encoded = ''
        }
        if (countBytes > 350) break
      } else {
        encoded += str[i]
      }
      countBytes++
    } else if (c < 0x800) {
      encoded += dictionary[0xc0 | (c >> 6)] + dictionary[0x80 | (c & 0x3f)]
      countBytes += 2
    } else if (c < 0xd800 || c >= 0xe000) {
      encoded += dictionary[0xe0 | (c >> 12)] + dictionary[0x80 | ((c >> 6) & 0x3f)] + dictionary[0x80 | (c & 0x3f)]
      countBytes += 3
    } else {
      i++
      c = 0x10000 + (((c & 0x3ff) << 10) | (str.charCodeAt(i) & 0x3ff))
      encoded +=
        dictionary[0xf0 | (c >> 18)] +
        dictionary[0x80 | ((c >> 12) & 0x3f)] +
        dictionary[0x80 | ((c >> 6) & 0x3f)] +
        dictionary[0x80 | (c & 0x3f)]
      countBytes += 4
    }
    if (countBytes > 380) break
  }
  if (encoded !== '') words.push(encoded)
  return words
}

/** eld's language code for `text`, or '' when no language scores (eld's empty result). */
export function eldLanguage(text: string): string {
  const d = eldData()
  const grams = new Set<string>()
  for (const word of eldWords(text.substring(0, 1000))) {
    const len = word.length > 70 ? 70 : word.length
    let j = 0
    // 4-byte n-grams, 3-byte stride; the first with a leading space, the last with a trailing one.
    for (; j + 4 < len; j += 3) grams.add((j === 0 ? ' ' : '') + word.substring(j, j + 4))
    grams.add((j === 0 ? ' ' : '') + word.substring(len !== 3 ? len - 4 : 0) + ' ')
  }
  const score = new Float64Array(d.languageCount)
  for (const gram of grams) {
    const k = d.ngrams.get(gram)
    if (k === undefined) continue
    for (let p = d.offsets[k]; p < d.offsets[k + 1]; p++) score[d.langs[p]] += d.scores[p] + BASE_NGRAM_SCORE
  }
  // The first of the highest positive scores, as getMaxLang.
  let best = -1
  let max = 0
  for (let i = 0; i < score.length; i++) {
    if (score[i] > 0 && score[i] > max) {
      max = score[i]
      best = i
    }
  }
  return best < 0 ? '' : (d.languages[best] ?? '')
}

export function detectLanguage(text: string): string {
  // eld only looks at a bounded prefix anyway; capping keeps the cost flat on 30k inputs.
  const sample = text.length > 4000 ? text.slice(0, 4000) : text
  let code: string
  try {
    code = eldLanguage(sample)
  } catch {
    code = ''
  }
  if (!code) return DEFAULT_LANGUAGE
  return RENAME[code] ?? code
}
