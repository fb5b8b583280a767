// ISO 639-1: the codes `options.languageHint` may hold. openapi.yaml checks only the form (two
// lower-case letters) and documents the one supported language instead of listing ~180 codes
// nobody can use; the list itself is checked here, so that "xx" is an invalid hint (400
// INVALID_LANGUAGE_HINT) while "de" is a valid but unsupported one (400 UNSUPPORTED_LANGUAGE).
import { BadRequestError } from '../errors.ts'

const ISO_639_1: ReadonlySet<string> = new Set([
  'aa', 'ab', 'ae', 'af', 'ak', 'am', 'an', 'ar', 'as', 'av', 'ay', 'az', 'ba', 'be', 'bg', 'bi',
  'bm', 'bn', 'bo', 'br', 'bs', 'ca', 'ce', 'ch', 'co', 'cr', 'cs', 'cu', 'cv', 'cy', 'da', 'de',
  'dv', 'dz', 'ee', 'el', 'en', 'eo', 'es', 'et', 'eu', 'fa', 'ff', 'fi', 'fj', 'fo', 'fr', 'fy',
  'ga', 'gd', 'gl', 'gn', 'gu', 'gv', 'ha', 'he', 'hi', 'ho', 'hr', 'ht', 'hu', 'hy', 'hz', 'ia',
  'id', 'ie', 'ig', 'ii', 'ik', 'io', 'is', 'it', 'iu', 'ja', 'jv', 'ka', 'kg', 'ki', 'kj', 'kk',
  'kl', 'km', 'kn', 'ko', 'kr', 'ks', 'ku', 'kv', 'kw', 'ky', 'la', 'lb', 'lg', 'li', 'ln', 'lo',
  'lt', 'lu', 'lv', 'mg', 'mh', 'mi', 'mk', 'ml', 'mn', 'mr', 'ms', 'mt', 'my', 'na', 'nb', 'nd',
  'ne', 'ng', 'nl', 'nn', 'no', 'nr', 'nv', 'ny', 'oc', 'oj', 'om', 'or', 'os', 'pa', 'pi', 'pl',
  'ps', 'pt', 'qu', 'rm', 'rn', 'ro', 'ru', 'rw', 'sa', 'sc', 'sd', 'se', 'sg', 'si', 'sk', 'sl',
  'sm', 'sn', 'so', 'sq', 'sr', 'ss', 'st', 'su', 'sv', 'sw', 'ta', 'te', 'tg', 'th', 'ti', 'tk',
  'tl', 'tn', 'to', 'tr', 'ts', 'tt', 'tw', 'ty', 'ug', 'uk', 'ur', 'uz', 've', 'vi', 'vo', 'wa',
  'wo', 'xh', 'yi', 'yo', 'za', 'zh', 'zu'
])

export function isIso639_1(code: string): boolean {
  return ISO_639_1.has(code)
}

/** The 400 for a hint that is not an ISO 639-1 code, quoting (the start of) the value sent. */
export function invalidLanguageHint(value: unknown): BadRequestError {
  const shown = JSON.stringify(value)?.slice(0, 40)
  return new BadRequestError('INVALID_LANGUAGE_HINT', `"options.languageHint" must be a lower-case ISO 639-1 code such as "en"; got ${shown}`)
}
