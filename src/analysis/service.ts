// POST /v1/analyze as a domain function: cache, language, quota, extraction, options.
// Order of checks (product decisions): the caller is already authenticated and within its burst limit; invalid input
// (400, including an unsupported language) comes before the quota (429).
import { BadRequestError, overloadedError, UnsupportedLanguageError } from '../errors.ts'
import type { UsageRepository } from '../db/repositories/usage.ts'
import type { Clock } from '../domain/clock.ts'
import { invalidLanguageHint, isIso639_1 } from '../domain/languages.ts'
import { refundRequest, reserveRequest, reserveRequestLookingUp, type Caller, type Reservation } from '../domain/quota.ts'
import type { RefundQueue } from '../domain/refunds.ts'
import type { components } from '../../generated/api-types.ts'
import type { Analysis } from '../nlp/types.ts'
import { AbandonedExtraction, type AnalysisPlace, type Analyzer } from './analyzer.ts'
import { CachedAnalysis, cacheKey, type AnalysisCache } from './cache.ts'
import { usesDefaults } from './view.ts'

export interface AnalyzeInput {
  text: string
  options?: components['schemas']['AnalyzeOptions']
}

export interface AnalysisServiceDeps {
  /** Where the request is counted (and refunded when it fails). */
  usage: Pick<UsageRepository, 'reserve' | 'reserveWithToken' | 'reserveWithTokenLookingUp' | 'refund'>
  clock: Clock
  cache: AnalysisCache
  analyzer: Analyzer
  detectLanguage: (text: string) => string
  supportedLanguages: readonly string[]
  /** The analyzer's model (`meta.model`): cached results are kept per model. */
  model: string
  /** Refunds that failed (database down) are written later instead of being lost. */
  refunds?: RefundQueue
  /** Problems that do not fail the request (a cache write that did not happen). */
  warn?: (err: unknown, message: string) => void
}

export interface AnalysisOutcome {
  readonly analysis: Analysis
  readonly cached: boolean
  /** The cache entry the analysis came from or was written to. */
  readonly entry?: CachedAnalysis
  /** The response text of the caller's view, when the analyzer wrote it (response-body.ts). */
  readonly view?: string
}

/** An outcome whose analysis is its entry's, read (and, for a worker's text, parsed) only when asked for. */
class EntryOutcome implements AnalysisOutcome {
  constructor(
    readonly entry: CachedAnalysis,
    readonly cached: boolean,
    readonly view?: string,
  ) {}
  get analysis(): Analysis {
    return this.entry.analysis
  }
}

/** The analyze flow over its dependencies, as the API's handler and the dashboard's playground call it. */
export interface AnalysisService {
  /** Its dependencies; `deps.model` names the model whose results it caches. */
  readonly deps: AnalysisServiceDeps
  analyze(account: Caller, input: AnalyzeInput, client?: ClientConnection): Promise<AnalysisOutcome>
}

export function createAnalysisService(deps: AnalysisServiceDeps): AnalysisService {
  return { deps, analyze: (account, input, client) => analyzeForAccount(deps, account, input, client) }
}

/** The caller's connection, as the service sees it (src/routes/analyze.ts). */
export interface ClientConnection {
  /** Throws (a ClientClosedError) once the client has gone. */
  throwIfGone(): void
  /** Aborted when the client goes: passed to the extraction, so that a queued one is dropped. */
  readonly signal: AbortSignal
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u
// With the u flag a pair is one astral code point, so only a lone surrogate is in \p{Cs}.
const LONE_SURROGATE = /\p{Cs}/u

/**
 * Text the engine cannot analyse, although it has the right length (product decision): a lone
 * UTF-16 surrogate is no character at all (and would hash like U+FFFD in the cache key), and
 * text without any letter or digit has nothing to find in it. Both are 400 `INVALID_TEXT`.
 */
export function assertAnalyzableText(text: string): void {
  const lone = LONE_SURROGATE.exec(text)
  if (lone) {
    const hex = lone[0].charCodeAt(0).toString(16).toUpperCase()
    throw new BadRequestError(
      'INVALID_TEXT',
      `"text" contains a lone UTF-16 surrogate (\\u${hex} at UTF-16 offset ${lone.index}), which is not a character; send well-formed Unicode text`,
    )
  }
  if (!LETTER_OR_DIGIT.test(text))
    throw new BadRequestError('INVALID_TEXT', '"text" has no letter or digit, so there is nothing to analyse')
}

export async function analyzeForAccount(
  deps: AnalysisServiceDeps,
  /** Its token may still be unchecked: the reservation checks it (a 401 then, nothing counted). */
  account: Caller,
  input: AnalyzeInput,
  /**
   * When the client has gone, the request ends in an error; it is refunded unless its
   * extraction had started (the work was done).
   */
  client?: ClientConnection,
): Promise<AnalysisOutcome> {
  assertAnalyzableText(input.text)
  const hint = input.options?.languageHint
  if (hint !== undefined && !isIso639_1(hint)) throw invalidLanguageHint(hint)
  const key = cacheKey(deps.model, account.accountId, hint, input.text)
  const mine = deps.cache.getLocal(key)
  let hit = mine.hit
  let language: string | undefined
  let place: AnalysisPlace | undefined
  /** The shared level's look-up, left to the statement that counts the request. */
  let lookUp = mine.lookUp
  if (lookUp && !account.unverifiedTokenHash) {
    // A checked caller has no token check to share the look-up with: the shared level first.
    lookUp = undefined
    hit = await deps.cache.get(key)
  }
  if (!hit) {
    // A miss (or, with a look-up pending, a miss in process: the text is checked and given its
    // place in the queue before the one statement that checks the token, counts the request and
    // reads the shared level; a hit there has paid a language detection it did not need).
    language = hint ?? deps.detectLanguage(input.text)
    if (!deps.supportedLanguages.includes(language)) throw new UnsupportedLanguageError(language, deps.supportedLanguages)
    if (deps.analyzer.admit) {
      // Its account's share of the queue (plan of an unchecked token: the last one seen).
      place = deps.analyzer.admit({ account: account.accountId, plan: account.plan })
      if (!place) {
        // A full queue still answers a cached text, and is answered before the quota is
        // touched: an overloaded node costs no writes.
        if (lookUp) {
          lookUp = undefined
          hit = await deps.cache.get(key)
        }
        if (!hit) throw overloadedError()
      }
    }
  }
  try {
    client?.throwIfGone()
    let reservation: Reservation
    if (lookUp) {
      const counted = await reserveRequestLookingUp(deps, account as Caller & { unverifiedTokenHash: string }, lookUp)
      reservation = counted.reservation
      hit = deps.cache.found(key, counted.cached)
    } else {
      reservation = await reserveRequest(deps, account)
    }
    let extracted = false
    try {
      let outcome: AnalysisOutcome
      if (hit) {
        outcome = new EntryOutcome(hit, true)
      } else {
        const call = { language: language!, signal: client?.signal, place }
        // The answer is good without the cache write; a database hiccup here must not turn a
        // finished analysis into an error (and a refund).
        const unwritten = (err: unknown) => {
          deps.warn?.(err, 'cache write failed')
          return undefined
        }
        if (deps.analyzer.analyzeText) {
          // From a worker: the analysis and the response as text, neither parsed nor serialised here.
          const text = await deps.analyzer.analyzeText(input.text, call, input.options ?? {})
          extracted = true
          const body = usesDefaults(input.options) ? text.view : undefined
          const entry = (await deps.cache.putText(key, text, body).catch(unwritten)) ?? new CachedAnalysis(text, deps.clock(), body)
          outcome = new EntryOutcome(entry, false, text.view)
        } else {
          const analysis = await deps.analyzer.analyze(input.text, call)
          extracted = true
          const entry = (await deps.cache.put(key, analysis).catch(unwritten)) ?? new CachedAnalysis(analysis, deps.clock())
          outcome = new EntryOutcome(entry, false)
        }
      }
      client?.throwIfGone()
      return outcome
    } catch (err) {
      // A client that went once its extraction had started is not refunded: the work was done.
      if (err instanceof AbandonedExtraction) throw err.reason
      if (extracted) throw err
      try {
        await refundRequest(deps, reservation, account)
      } catch (refundErr) {
        if (!deps.refunds) throw refundErr
        deps.refunds.defer(reservation)
        deps.warn?.(refundErr, 'refund deferred until the database answers')
      }
      throw err
    }
  } finally {
    // A request that ends before its analysis (a 429, a client gone) gives its place back.
    place?.release()
  }
}

export { applyOptions, DEFAULT_MAX_ENTITIES, resolveOptions } from './view.ts'
