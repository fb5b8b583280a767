// What the client throws. An answer of the API becomes the class of its status (and, for 429,
// of its code), whose `code` is typed with exactly the codes openapi.yaml lists for it, so
// `switch (err.code)` narrows to the class. Failures without an answer (network, timeout) and
// answers outside the contract (a proxy's HTML page) have classes of their own.
import type { components } from './generated/api-types.js'
import type { RateLimit } from './rate-limit.js'

type Schemas = components['schemas']

export type BadRequestCode = Schemas['AnalyzeBadRequestError']['code']
export type UnauthorizedCode = Schemas['UnauthorizedError']['code']
export type NotFoundCode = Schemas['NotFoundError']['code']
export type MethodNotAllowedCode = Schemas['MethodNotAllowedError']['code']
export type TooManyRequestsCode = Schemas['RateLimitError']['code'] | Schemas['BurstLimitError']['code']
export type InternalErrorCode = Schemas['InternalError']['code']
export type ServiceUnavailableCode = Schemas['AnalyzeUnavailableError']['code'] | Schemas['QuotaUnavailableError']['code']
/** Every `code` the API documents. */
export type ApiErrorCode =
  BadRequestCode | UnauthorizedCode | NotFoundCode | MethodNotAllowedCode | TooManyRequestsCode | InternalErrorCode | ServiceUnavailableCode

/** The documented error body. */
export interface ApiErrorBody {
  error: string
  message: string
  code: string
  retryAfter?: number
  requestId?: string
}

/** What an answer tells besides its body. */
export interface AnswerInfo {
  status: number
  /** `X-RateLimit-*`, when the answer carries them (every answer to a valid token). */
  rateLimit: RateLimit | undefined
  /** `X-Request-Id`: quote it when reporting a problem. */
  requestId: string | undefined
  /** `Retry-After` in seconds, when sent. */
  retryAfterHeader: number | undefined
}

/** The base of everything this client throws (except the caller's own abort reason). */
export class TeaError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
  }
}

/** An error answer of the API, in the documented shape. */
export class TeaApiError extends TeaError {
  readonly status: number
  readonly code: ApiErrorCode
  /** The status text the server sent (`Bad Request`, `Rate Limited`...). */
  readonly error: string
  readonly rateLimit: RateLimit | undefined
  readonly requestId: string | undefined
  readonly body: ApiErrorBody
  constructor(body: ApiErrorBody, info: AnswerInfo) {
    super(body.message)
    this.status = info.status
    // A newer server may add codes; the types list the ones this client was built with.
    this.code = body.code as ApiErrorCode
    this.error = body.error
    this.rateLimit = info.rateLimit
    this.requestId = info.requestId
    this.body = body
  }
}

/** 400: invalid input (never counted). `code` names the rule; fix the request, do not retry it. */
export class BadRequestError extends TeaApiError {
  declare readonly code: BadRequestCode
}

/** 401: missing, malformed, unknown or revoked token. */
export class UnauthorizedError extends TeaApiError {
  declare readonly code: UnauthorizedCode
}

/** 404: no such path (a wrong `baseUrl`?). */
export class NotFoundError extends TeaApiError {
  declare readonly code: NotFoundCode
}

/** 405: the path exists with other methods, listed in `allow`. */
export class MethodNotAllowedError extends TeaApiError {
  declare readonly code: MethodNotAllowedCode
  readonly allow: string[]
  constructor(body: ApiErrorBody, info: AnswerInfo, allow: string | null) {
    super(body, info)
    this.allow = allow
      ? allow
          .split(',')
          .map((m) => m.trim())
          .filter(Boolean)
      : []
  }
}

/** 429 `RATE_LIMITED`: the token's burst limit; retried by the client when the wait is short. */
export class RateLimitedError extends TeaApiError {
  declare readonly code: 'RATE_LIMITED'
  /** Seconds to wait before retrying. */
  readonly retryAfter: number
  constructor(body: ApiErrorBody, info: AnswerInfo) {
    super(body, info)
    this.retryAfter = body.retryAfter ?? info.retryAfterHeader ?? 1
  }
}

/**
 * 429 `QUOTA_EXCEEDED`: the account's daily quota is used up until `resetAt` (midnight UTC).
 * Thrown at once unless the caller allowed waiting that long (`retry.maxQuotaWaitSeconds`).
 */
export class QuotaExceededError extends TeaApiError {
  declare readonly code: 'QUOTA_EXCEEDED'
  /** Seconds until the quota resets. */
  readonly retryAfter: number
  /** When the quota resets. */
  readonly resetAt: Date
  constructor(body: ApiErrorBody, info: AnswerInfo, now: number) {
    super(body, info)
    this.retryAfter = body.retryAfter ?? info.retryAfterHeader ?? 0
    this.resetAt = info.rateLimit?.reset ?? new Date(now + this.retryAfter * 1000)
  }
}

/** 500: an unexpected server error; quote `requestId` when reporting it. */
export class InternalServerError extends TeaApiError {
  declare readonly code: InternalErrorCode
}

/** 503: temporarily unable to serve (never counted); retried by the client. */
export class ServiceUnavailableError extends TeaApiError {
  declare readonly code: ServiceUnavailableCode
  /** Seconds the server asked to wait, when it said. */
  readonly retryAfter: number | undefined
  constructor(body: ApiErrorBody, info: AnswerInfo) {
    super(body, info)
    this.retryAfter = info.retryAfterHeader
  }
}

/** Every API error, discriminated by `code`. */
export type ApiError =
  | BadRequestError
  | UnauthorizedError
  | NotFoundError
  | MethodNotAllowedError
  | RateLimitedError
  | QuotaExceededError
  | InternalServerError
  | ServiceUnavailableError

export function isApiError(err: unknown): err is ApiError {
  return err instanceof TeaApiError
}

/** An answer outside the contract: not the documented error shape (a proxy's page, say). */
export class UnexpectedResponseError extends TeaError {
  readonly status: number
  readonly requestId: string | undefined
  /** The start of the body as text. */
  readonly bodyText: string
  constructor(info: Pick<AnswerInfo, 'status' | 'requestId'>, bodyText: string, cause?: unknown) {
    super(`Unexpected response ${info.status} from the API: ${bodyText.slice(0, 200)}`, { cause })
    this.status = info.status
    this.requestId = info.requestId
    this.bodyText = bodyText.slice(0, 2000)
  }
}

/** No answer: the connection failed (after the retries the policy allowed). `cause` is fetch's error. */
export class NetworkError extends TeaError {
  constructor(cause: unknown) {
    super(`Could not reach the API: ${(cause as Error)?.message ?? String(cause)}`, { cause })
  }
}

/** The call's `timeoutMs` passed, retries and waits included. */
export class TimeoutError extends TeaError {
  readonly timeoutMs: number
  constructor(timeoutMs: number) {
    super(`The API call did not finish within ${timeoutMs} ms`)
    this.timeoutMs = timeoutMs
  }
}

/** The class for an error answer; undefined when the body is not the documented shape. */
export function apiErrorFromAnswer(body: unknown, info: AnswerInfo, allow: string | null, now: number): TeaApiError | undefined {
  if (!isErrorBody(body)) return undefined
  switch (info.status) {
    case 400:
      return new BadRequestError(body, info)
    case 401:
      return new UnauthorizedError(body, info)
    case 404:
      return new NotFoundError(body, info)
    case 405:
      return new MethodNotAllowedError(body, info, allow)
    case 429:
      return body.code === 'QUOTA_EXCEEDED' ? new QuotaExceededError(body, info, now) : new RateLimitedError(body, info)
    case 500:
      return new InternalServerError(body, info)
    case 503:
      return new ServiceUnavailableError(body, info)
  }
  return undefined
}

function isErrorBody(body: unknown): body is ApiErrorBody {
  const b = body as ApiErrorBody | null
  return typeof b === 'object' && b !== null && typeof b.code === 'string' && typeof b.message === 'string' && typeof b.error === 'string'
}
