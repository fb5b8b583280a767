// Database errors by SQLSTATE. Drizzle wraps a driver's error (postgres.js's PostgresError,
// PGlite's DatabaseError, both carrying `code`) in a DrizzleQueryError whose `cause` it is, so
// the code is looked for along the cause chain.

/** The SQLSTATE of a database error, wrapped or not; undefined for any other error. */
export function sqlState(err: unknown): string | undefined {
  const seen = new Set<unknown>()
  for (let e = err; e && typeof e === 'object' && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e)
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code
  }
  return undefined
}

/** A statement refused by a unique index or constraint (SQLSTATE 23505 unique_violation). */
export function isUniqueViolation(err: unknown): boolean {
  return sqlState(err) === '23505'
}

/**
 * Errors of a database that does not answer, by code: Node's socket errors, postgres.js's
 * connection errors, our statement deadline (src/db/deadline.ts), and PostgreSQL's SQLSTATEs
 * for a server that is going away, starting, out of connections or that cancelled a statement
 * at its statement_timeout. Any connection exception (class 08) counts too.
 */
const DATABASE_DOWN = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'DATABASE_TIMEOUT',
  '53300', // too_many_connections
  '57014', // query_canceled (statement_timeout)
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '57P05', // idle_session_timeout
])

export function isDatabaseDown(err: unknown): boolean {
  const e = err as { code?: unknown; cause?: unknown } | undefined
  if (!e || typeof e !== 'object') return false
  if (typeof e.code === 'string' && (DATABASE_DOWN.has(e.code) || /^08[0-9A-Z]{3}$/.test(e.code))) return true
  return e.cause !== undefined && e.cause !== err && isDatabaseDown(e.cause)
}
