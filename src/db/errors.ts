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
