// Typed errors with stable codes. Domain code throws these; src/plugins/app/errors.ts maps
// them (and Fastify's own errors) to HTTP responses in one place.

export class ApiError extends Error {
  readonly statusCode: number
  readonly error: string
  readonly code: string
  readonly headers: Record<string, string>
  constructor(statusCode: number, error: string, code: string, message: string, headers: Record<string, string> = {}) {
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
  constructor(code: string, message: string) {
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
    super(
      429,
      'Rate Limited',
      'QUOTA_EXCEEDED',
      `Daily quota of ${limit} requests exceeded; it resets at ${isoSeconds(resetAt)}`,
      { 'retry-after': String(retryAfter) },
    )
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
  constructor(code: string, message: string, retryAfterSeconds: number) {
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
