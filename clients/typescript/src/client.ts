// The client: openapi-fetch over the types generated from openapi.yaml, with the retry policy
// (retry.ts), typed errors (errors.ts), parsed quota headers (rate-limit.ts), a deadline and the
// caller's AbortSignal around every call.
import createClient, { type Client } from 'openapi-fetch'
import type { components, paths } from './generated/api-types.js'
import { apiErrorFromAnswer, NetworkError, TeaApiError, TimeoutError, UnexpectedResponseError, type AnswerInfo } from './errors.js'
import { parseRateLimit, parseRetryAfter, type RateLimit } from './rate-limit.js'
import { DEFAULT_RETRY, retryDelayMs, type Failure, type RetryOptions, type RetryPolicy } from './retry.js'

export type AnalyzeRequest = components['schemas']['AnalyzeRequest']
export type AnalyzeOptions = components['schemas']['AnalyzeOptions']
export type AnalyzeResult = components['schemas']['AnalyzeResult']
export type Relation = components['schemas']['Relation']
export type RelationType = components['schemas']['RelationType']
export type Quota = components['schemas']['Quota']

export interface TeaClientOptions {
  /** The API's origin, e.g. `https://api.example.com` (no `/v1`). */
  baseUrl: string
  /** An API token (`tea_live_…`). Keep it on a server: never in code a browser downloads. */
  token: string
  /** How failed calls are retried (see RetryOptions for the defaults). */
  retry?: RetryOptions
  /** The longest a call may take, retries and waits included, in milliseconds (default 60,000). */
  timeoutMs?: number
  /** A fetch to use instead of the global one. */
  fetch?: (input: Request) => Promise<Response>
}

export interface RequestOptions {
  /** Aborts the call (and any wait between retries); the call rejects with the signal's reason. */
  signal?: AbortSignal
  /** Overrides the client's `timeoutMs` for this call. */
  timeoutMs?: number
  /** Overrides parts of the client's retry policy for this call. */
  retry?: RetryOptions
}

/** A successful answer: the body and what its headers say. */
export interface TeaResponse<T> {
  data: T
  status: number
  /** `X-RateLimit-*` of the answer (undefined only if a proxy stripped them). */
  rateLimit: RateLimit | undefined
  /** `X-Request-Id`: quote it when reporting a problem. */
  requestId: string | undefined
  /** How many attempts the call took (1 when the first one succeeded). */
  attempts: number
}

const DEFAULT_TIMEOUT_MS = 60_000

/** One request; the success body comes back as text so that a body that is not JSON is reported with its status. */
type Attempt = (signal: AbortSignal) => Promise<{ data?: string; error?: unknown; response: Response }>

export class TeaClient {
  /** The underlying openapi-fetch client: typed, authenticated, without retries or typed errors. */
  readonly raw: Client<paths>
  private readonly retry: RetryPolicy
  private readonly timeoutMs: number

  constructor(options: TeaClientOptions) {
    if (!options.baseUrl) throw new TypeError('@tea/client: baseUrl is required, e.g. "https://api.example.com"')
    if (!options.token) throw new TypeError('@tea/client: token is required')
    this.retry = { ...DEFAULT_RETRY, ...definedOnly(options.retry) }
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
    this.raw = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      headers: { authorization: `Bearer ${options.token}` },
      ...(options.fetch ? { fetch: options.fetch } : {}),
    })
  }

  /** POST /v1/analyze: entities, relations and sentiment of 200 to 30,000 characters of English. */
  analyze(request: AnalyzeRequest, options: RequestOptions = {}): Promise<TeaResponse<AnalyzeResult>> {
    return this.call<AnalyzeResult>((signal) => this.raw.POST('/v1/analyze', { body: request, signal, parseAs: 'text' }), options)
  }

  /** GET /v1/quota: today's usage of the account's daily quota (never counted). */
  quota(options: RequestOptions = {}): Promise<TeaResponse<Quota>> {
    return this.call<Quota>((signal) => this.raw.GET('/v1/quota', { signal, parseAs: 'text' }), options)
  }

  private async call<T>(attempt: Attempt, options: RequestOptions): Promise<TeaResponse<T>> {
    const policy: RetryPolicy = { ...this.retry, ...definedOnly(options.retry) }
    const timeoutMs = options.timeoutMs ?? this.timeoutMs
    const deadline = Date.now() + timeoutMs
    const controller = new AbortController()
    const timeout = new TimeoutError(timeoutMs)
    const timer = setTimeout(() => controller.abort(timeout), timeoutMs)
    const onAbort = () => controller.abort(options.signal!.reason)
    if (options.signal?.aborted) onAbort()
    else options.signal?.addEventListener('abort', onAbort, { once: true })
    const signal = controller.signal
    try {
      for (let n = 0; ; n++) {
        signal.throwIfAborted()
        let failure: Failure
        let thrown: Error
        try {
          const { data, error, response } = await attempt(signal)
          const info = answerInfo(response)
          if (response.ok)
            return {
              data: parseJson<T>(data, info),
              status: info.status,
              rateLimit: info.rateLimit,
              requestId: info.requestId,
              attempts: n + 1,
            }
          const apiError = apiErrorFromAnswer(error, info, response.headers.get('allow'), Date.now())
          if (!apiError) throw new UnexpectedResponseError(info, typeof error === 'string' ? error : JSON.stringify(error ?? ''))
          failure = { kind: 'api', error: apiError }
          thrown = apiError
        } catch (err) {
          if (signal.aborted) throw signal.reason
          if (err instanceof TeaApiError || err instanceof UnexpectedResponseError) throw err
          // fetch rejects with a TypeError when there is no answer (refused, reset, DNS...).
          failure = { kind: 'network' }
          thrown = new NetworkError(err)
        }
        const wait = retryDelayMs(failure, n, policy)
        // Not retried, or the wait would outlast the deadline: the caller hears now, not later.
        if (wait === undefined || Date.now() + wait >= deadline) throw thrown
        await sleep(wait, signal)
      }
    } finally {
      clearTimeout(timer)
      options.signal?.removeEventListener('abort', onAbort)
    }
  }
}

/** A client for the API; see TeaClientOptions. */
export function createTeaClient(options: TeaClientOptions): TeaClient {
  return new TeaClient(options)
}

function parseJson<T>(text: string | undefined, info: AnswerInfo): T {
  try {
    return JSON.parse(text ?? '') as T
  } catch (err) {
    throw new UnexpectedResponseError(info, text ?? '', err)
  }
}

function answerInfo(response: Response): AnswerInfo {
  return {
    status: response.status,
    rateLimit: parseRateLimit(response.headers),
    requestId: response.headers.get('x-request-id') ?? undefined,
    retryAfterHeader: parseRetryAfter(response.headers, Date.now()),
  }
}

/** A wait that ends early, rejecting with the reason, when the signal aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal.reason)
    }
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal.addEventListener('abort', onAbort, { once: true })
  })
}

/** `{ a: undefined }` must not override a default with undefined. */
function definedOnly<T extends object>(o: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>
}
