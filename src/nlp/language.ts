// Language identification. eld (small n-gram database) was chosen by measurement on
// ../shared/data/langid/dev.jsonl: see MODEL.md (franc-all, tinyld and eld's other sizes compared).
import { eld } from 'eld/small'

// eld names Norwegian Bokmål by the macrolanguage code; written Norwegian is ~90% Bokmål,
// and the service speaks ISO 639-1 codes of the written standard.
const RENAME: Record<string, string> = { no: 'nb' }

/** Fallback when the text has no usable letters (digits, emoji, symbols only). */
const DEFAULT_LANGUAGE = 'en'

export function detectLanguage(text: string): string {
  // eld only looks at a bounded prefix anyway; capping keeps the cost flat on 30k inputs.
  const sample = text.length > 4000 ? text.slice(0, 4000) : text
  let code = ''
  try {
    code = eld.detect(sample).language
  } catch {
    code = ''
  }
  if (!code) return DEFAULT_LANGUAGE
  return RENAME[code] ?? code
}
