// Language identification. eld (small n-gram database) was chosen by measurement on
// ../shared/data/langid/dev.jsonl: see MODEL.md (franc-all, tinyld and eld's other sizes compared).
//
// eld ships its n-gram database as one 1.6 MB JavaScript object literal (eld/small), and
// compiling that module costs ~105 MB of resident memory (44 MB of it V8 heap), most of it
// parser and boilerplate memory that stays with the process. The same data read as JSON costs
// ~43 MB (23 MB heap), so it is read that way: the literal's text is turned into JSON and given
// to eld's own detector through the hook its entry files use (`createEld().loadData`). The
// detector code is eld's, unchanged; only the way its data is loaded differs.
// It is loaded on first use (the service does so at start-up, on the main thread): analysis
// workers import the engine, which re-exports detectLanguage, but never detect, and so never
// pay for the table.
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
  throw new Error(`language: eld's detector module (${new URL('../languageDetector.js', ELD_ENTRY).href}) has no createEld(); eld's layout changed`)
}
const { createEld } = eldModule as EldModule

/**
 * JSON text of eld's data module (`export const ngramsData = {type:'S60',ngrams:{' de ':{0:12},L_QL:{0:148}…}}`):
 * single-quoted strings and bare keys become JSON strings; numbers, booleans and punctuation stay.
 */
export function eldLiteralToJson(source: string): string {
  const open = source.indexOf('{', source.indexOf('ngramsData'))
  const close = source.lastIndexOf('}')
  if (source.indexOf('ngramsData') < 0 || open < 0 || close < open) throw new Error('language: eld data module has no "ngramsData = {…}"')
  return source.slice(open, close + 1).replace(/'((?:[^'\\]|\\.)*)'|([^\s{}[\],:'"]+)(?=\s*:)/g, (_, quoted: string | undefined, key: string | undefined) => {
    if (key !== undefined) return JSON.stringify(key)
    return JSON.stringify(
      quoted!.replace(/\\(.)/g, (esc: string, c: string) => {
        if (c === "'" || c === '"' || c === '\\') return c
        throw new Error(`language: unexpected escape ${esc} in eld's data`)
      }),
    )
  })
}

let eld: Eld | undefined

/** eld's detector with its small database, built on the first call (about 40 MB, once per thread). */
export function languageDetector(): Eld {
  if (!eld) {
    const { instance, loadData } = createEld()
    if (!loadData(JSON.parse(eldLiteralToJson(readFileSync(ELD_DATA, 'utf8'))))) throw new Error(`language: eld loaded no data from ${ELD_DATA.href}`)
    eld = instance
  }
  return eld
}

export function detectLanguage(text: string): string {
  // eld only looks at a bounded prefix anyway; capping keeps the cost flat on 30k inputs.
  const sample = text.length > 4000 ? text.slice(0, 4000) : text
  const detector = languageDetector()
  let code = ''
  try {
    code = detector.detect(sample).language
  } catch {
    code = ''
  }
  if (!code) return DEFAULT_LANGUAGE
  return RENAME[code] ?? code
}
