// Language identification. eld (small n-gram database) was chosen by measurement on
// ../shared/data/langid/dev.jsonl: see MODEL.md (franc-all, tinyld and eld's other sizes compared).
//
// eld ships its n-gram database as one 1.6 MB JavaScript object literal (eld/small), and
// compiling that module cost the main thread ~138 MB of resident memory (44 MB of V8 heap: an
// object per n-gram, and the parser's memory, which stays with the process). The detector here
// is eld's own, unchanged (`createEld()`, given its data through `loadData`, the hook eld's
// entry files use), but the data is read from the module's text into a compact table, ~10 MB,
// and eld reads it through a read-only view that answers `ngrams[key]` exactly as the literal
// would (see ngramView). It loads on first use: the service does so at start-up, on the main
// thread; analysis workers import the engine, which re-exports detectLanguage, but never
// detect, and so never pay for the table.
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

let eld: Eld | undefined

/** eld's detector with its small database, built on the first call (once per thread). */
export function languageDetector(): Eld {
  if (!eld) {
    const { instance, loadData } = createEld()
    const data = readEldData(readFileSync(ELD_DATA, 'utf8'))
    if (!loadData({ type: data.type, languages: data.languages, ngrams: ngramView(data) }))
      throw new Error(`language: eld loaded no data from ${ELD_DATA.href}`)
    eld = instance
  }
  return eld
}

export function detectLanguage(text: string): string {
  // eld only looks at a bounded prefix anyway; capping keeps the cost flat on 30k inputs.
  const sample = text.length > 4000 ? text.slice(0, 4000) : text
  const detector = languageDetector()
  let code: string
  try {
    code = detector.detect(sample).language
  } catch {
    code = ''
  }
  if (!code) return DEFAULT_LANGUAGE
  return RENAME[code] ?? code
}
