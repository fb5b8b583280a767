// Typed errors with stable codes. Domain code throws these; src/plugins/app/errors.ts maps
// them (and Fastify's own errors) to HTTP responses in one place.

/** The operations of openapi.yaml (operationId) that take a token. */
const V1 = ['analyzeText', 'getQuota'] as const

/**
 * Every code the API answers with: its status and the operations (operationId) that can send
 * it. `ApiError` takes only these codes, so this table is what the server can send, and
 * openapi.yaml lists exactly these per operation (test/contract/error-codes.test.ts). NOT_FOUND
 * and METHOD_NOT_ALLOWED belong to paths, not operations, and the parser's codes to the connection; CLIENT_CLOSED_REQUEST is never sent.
 */
export const ERROR_CODES = {
  INVALID_JSON: { status: 400, operations: ['analyzeText'] },
  UNSUPPORTED_MEDIA_TYPE: { status: 400, operations: ['analyzeText'] },
  BODY_TOO_LARGE: { status: 400, operations: ['analyzeText'] },
  INVALID_BODY: { status: 400, operations: ['analyzeText'] },
  MISSING_FIELD: { status: 400, operations: ['analyzeText'] },
  UNKNOWN_FIELD: { status: 400, operations: ['analyzeText'] },
  INVALID_FIELD_TYPE: { status: 400, operations: ['analyzeText'] },
  TEXT_TOO_SHORT: { status: 400, operations: ['analyzeText'] },
  TEXT_TOO_LONG: { status: 400, operations: ['analyzeText'] },
  INVALID_TEXT: { status: 400, operations: ['analyzeText'] },
  INVALID_MAX_ENTITIES: { status: 400, operations: ['analyzeText'] },
  INVALID_LANGUAGE_HINT: { status: 400, operations: ['analyzeText'] },
  UNSUPPORTED_LANGUAGE: { status: 400, operations: ['analyzeText'] },
  VALIDATION_ERROR: { status: 400, operations: ['analyzeText'] },
  BAD_REQUEST: { status: 400, operations: ['analyzeText'] },
  INVALID_TOKEN: { status: 401, operations: V1 },
  NOT_FOUND: { status: 404, operations: [] },
  METHOD_NOT_ALLOWED: { status: 405, operations: [] },
  // Refused by the HTTP parser before any route: they belong to the connection, not an operation.
  MALFORMED_REQUEST: { status: 400, operations: [] },
  REQUEST_TIMEOUT: { status: 408, operations: [] },
  HEADERS_TOO_LARGE: { status: 431, operations: [] },
  RATE_LIMITED: { status: 429, operations: V1 },
  QUOTA_EXCEEDED: { status: 429, operations: ['analyzeText'] },
  CLIENT_CLOSED_REQUEST: { status: 499, operations: [] },
  INTERNAL_ERROR: { status: 500, operations: V1 },
  OVERLOADED: { status: 503, operations: ['analyzeText'] },
  DATABASE_UNAVAILABLE: { status: 503, operations: V1 },
  ANALYSIS_TIMEOUT: { status: 503, operations: ['analyzeText'] },
  ANALYSIS_FAILED: { status: 503, operations: ['analyzeText'] },
  SHUTTING_DOWN: { status: 503, operations: V1 },
} as const satisfies Record<string, { status: number; operations: readonly string[] }>

export type ErrorCode = keyof typeof ERROR_CODES

export class ApiError extends Error {
  readonly statusCode: number
  readonly error: string
  readonly code: ErrorCode
  readonly headers: Record<string, string>
  constructor(statusCode: number, error: string, code: ErrorCode, message: string, headers: Record<string, string> = {}) {
    super(message)
    this.name = 'ApiError'
    this.statusCode = statusCode
    this.error = error
    this.code = code
    this.headers = headers
  }
  body(): Record<string, unknown> {
    return { error: this.error, message: this.message, code: this.code }
  }
}

export class BadRequestError extends ApiError {
  constructor(code: ErrorCode, message: string) {
    super(400, 'Bad Request', code, message)
  }
}

/** One body for every cause, so a caller cannot probe which tokens exist (product decision). */
export class UnauthorizedError extends ApiError {
  constructor() {
    super(401, 'Unauthorized', 'INVALID_TOKEN', 'Invalid or missing API token', { 'www-authenticate': 'Bearer' })
  }
}

export class QuotaExceededError extends ApiError {
  readonly retryAfter: number
  constructor(limit: number, resetAt: Date, retryAfter: number) {
    super(429, 'Rate Limited', 'QUOTA_EXCEEDED', `Daily quota of ${limit} requests exceeded; it resets at ${isoSeconds(resetAt)}`, {
      'retry-after': String(retryAfter),
    })
    this.retryAfter = retryAfter
  }
  override body() {
    return { ...super.body(), retryAfter: this.retryAfter }
  }
}

/** The token's request rate (burst limit, src/domain/rate-limit.ts); distinct from the daily quota. */
export class RateLimitedError extends ApiError {
  readonly retryAfter: number
  constructor(perSecond: number, retryAfter: number) {
    super(
      429,
      'Rate Limited',
      'RATE_LIMITED',
      `Too many requests for this token: at most ${perSecond} per second on its plan; retry after ${retryAfter} second${retryAfter === 1 ? '' : 's'}`,
      { 'retry-after': String(retryAfter) },
    )
    this.retryAfter = retryAfter
  }
  override body() {
    return { ...super.body(), retryAfter: this.retryAfter }
  }
}

export class UnsupportedLanguageError extends BadRequestError {
  constructor(language: string, supported: readonly string[]) {
    super('UNSUPPORTED_LANGUAGE', `Language "${language}" is not supported (supported: ${supported.join(', ')})`)
  }
}

export class ServiceUnavailableError extends ApiError {
  constructor(code: ErrorCode, message: string, retryAfterSeconds: number) {
    super(503, 'Service Unavailable', code, message, { 'retry-after': String(retryAfterSeconds) })
  }
}

/** The analysis queue is full, or the caller's account holds its share of it (src/analysis/pool.ts). */
export function overloadedError(): ServiceUnavailableError {
  return new ServiceUnavailableError('OVERLOADED', 'The analysis queue is full; retry after 1 second', 1)
}

/**
 * The client closed the connection before the answer: nothing can be sent, and the request is
 * refunded like any failed one. The error handler drops the response instead of sending it.
 */
export class ClientClosedError extends ApiError {
  constructor() {
    super(499, 'Client Closed Request', 'CLIENT_CLOSED_REQUEST', 'The client closed the connection before the answer')
  }
}

export class NotFoundError extends ApiError {
  constructor(message: string) {
    super(404, 'Not Found', 'NOT_FOUND', message)
  }
}

/** A known path called with a method it does not have; `Allow` lists the ones it has (RFC 9110). */
export class MethodNotAllowedError extends ApiError {
  constructor(method: string, path: string, allowed: readonly string[]) {
    // A browser's CORS preflight lands here: say why, since the API deliberately sends no CORS headers.
    const cors =
      method === 'OPTIONS' ? '; the API sends no CORS headers: call it from a server, since a token must never be in client-side code' : ''
    super(405, 'Method Not Allowed', 'METHOD_NOT_ALLOWED', `${method} is not a method of ${path}; it allows ${allowed.join(', ')}${cors}`, {
      allow: allowed.join(', '),
    })
  }
}

/** For the admin CLI and the dashboard: a domain rule was broken (limit reached, no such account…). */
export class DomainError extends Error {
  readonly code: string
  constructor(code: string, message: string) {
    super(message)
    this.name = 'DomainError'
    this.code = code
  }
}

/** `2026-11-23T00:00:00Z`: ISO 8601 without the noise of milliseconds. */
export function isoSeconds(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z')
}
