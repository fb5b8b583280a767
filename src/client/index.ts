// The SDK for API consumers: openapi-fetch over the generated types, plus the retry policy the
// spec asks callers to follow: on 429 wait `retryAfter` seconds (60 when absent) and retry with
// exponential backoff; on 503 wait `Retry-After`. Delays are capped, attempts bounded.
import createClient, { type Client } from 'openapi-fetch'
import type { paths, components } from '../../generated/api-types.ts'

export type { paths, components }
export type AnalyzeRequest = components['schemas']['AnalyzeRequest']
export type AnalyzeResult = components['schemas']['AnalyzeResult']
export type Quota = components['schemas']['Quota']
export type ApiErrorBody = components['schemas']['Error']

export interface RetryOptions {
  /** Retries after the first attempt (default 3). */
  maxRetries?: number
  /** Longest single wait in milliseconds (default 5 minutes). */
  maxDelayMs?: number
  /** Waits; replaceable so tests and schedulers can observe delays. */
  sleep?: (ms: number) => Promise<void>
}

export interface TeaClientOptions extends RetryOptions {
  baseUrl: string
  token: string
  fetch?: typeof globalThis.fetch
}

const DEFAULT_429_SECONDS = 60
const DEFAULT_503_SECONDS = 1

/** The wait before retry number `attempt` (0-based): the server's hint doubled per attempt, capped. */
export function retryDelayMs(hintSeconds: number, attempt: number, maxDelayMs: number): number {
  return Math.min(maxDelayMs, hintSeconds * 1000 * 2 ** attempt)
}

async function hintSeconds(res: Response): Promise<number> {
  if (res.status === 429) {
    const body = (await res.clone().json().catch(() => undefined)) as { retryAfter?: unknown } | undefined
    if (typeof body?.retryAfter === 'number' && Number.isFinite(body.retryAfter) && body.retryAfter >= 0) return body.retryAfter
  }
  const header = Number(res.headers.get('retry-after'))
  if (res.headers.has('retry-after') && Number.isFinite(header) && header >= 0) return header
  return res.status === 429 ? DEFAULT_429_SECONDS : DEFAULT_503_SECONDS
}

/** A fetch that retries 429 and 503 answers as the API documents. */
export function retryingFetch(base: typeof globalThis.fetch, opts: RetryOptions = {}): typeof globalThis.fetch {
  const maxRetries = opts.maxRetries ?? 3
  const maxDelayMs = opts.maxDelayMs ?? 5 * 60 * 1000
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
  return async (input, init) => {
    const request = new Request(input, init)
    for (let attempt = 0; ; attempt++) {
      const res = await base(request.clone())
      if ((res.status !== 429 && res.status !== 503) || attempt >= maxRetries) return res
      const wait = retryDelayMs(await hintSeconds(res), attempt, maxDelayMs)
      await res.body?.cancel()
      await sleep(wait)
    }
  }
}

/** A typed client: `client.POST('/v1/analyze', { body })`, `client.GET('/v1/quota')`. */
export function createTeaClient(opts: TeaClientOptions): Client<paths> {
  return createClient<paths>({
    baseUrl: opts.baseUrl.replace(/\/$/, ''),
    headers: { Authorization: `Bearer ${opts.token}` },
    fetch: retryingFetch(opts.fetch ?? globalThis.fetch, opts),
  })
}
