// Measures the language detectors available on npm on langid dev (accuracy and time per text);
// the basis of the choice of eld in src/nlp/language.ts. Usage: npx tsx scripts/nlp/compare-language.ts
import { eld as eldLarge } from 'eld/large'
import { eld as eldMedium } from 'eld/medium'
import { eld as eldSmall } from 'eld/small'
import { detect as tinyld } from 'tinyld'
import { franc } from 'franc-all'
import { readJsonl } from './data.ts'

// franc answers ISO 639-3; only the codes of the dev set and their usual confusions are mapped.
const ISO3: Record<string, string> = {
  eng: 'en',
  deu: 'de',
  fra: 'fr',
  spa: 'es',
  ita: 'it',
  por: 'pt',
  nld: 'nl',
  swe: 'sv',
  dan: 'da',
  nob: 'nb',
  pol: 'pl',
  ces: 'cs',
  rus: 'ru',
  ukr: 'uk',
  tur: 'tr',
  arb: 'ar',
  cmn: 'zh',
  kor: 'ko',
  hin: 'hi',
  nno: 'nn',
  glg: 'gl',
  bul: 'bg',
  slk: 'sk',
}
const detectors: Record<string, (t: string) => string> = {
  'eld large': (t) => eldLarge.detect(t).language,
  'eld medium': (t) => eldMedium.detect(t).language,
  'eld small': (t) => eldSmall.detect(t).language,
  'eld small, no→nb': (t) => (eldSmall.detect(t).language === 'no' ? 'nb' : eldSmall.detect(t).language),
  tinyld: (t) => tinyld(t),
  'franc-all': (t) => {
    const c = franc(t, { minLength: 10 })
    return ISO3[c] ?? c
  },
}
const rows = readJsonl('langid/dev.jsonl')
for (const [name, detect] of Object.entries(detectors)) {
  detect('warm-up text for the detector')
  let ok = 0
  const t0 = performance.now()
  for (const r of rows) if (detect(r.text) === r.language) ok++
  const ms = (performance.now() - t0) / rows.length
  console.log(`${name.padEnd(18)} accuracy ${((100 * ok) / rows.length).toFixed(2)}%  ${ms.toFixed(3)} ms per text`)
}
