// A hot-path statement sent to the driver itself, its rows as arrays of column values. Drizzle
// builds the statement's text once; per call it would also fill its placeholders through its
// entity checks, open tracing spans, and map each row into an object field by field, which
// costs a few microseconds per request beside the statement's own round trip. Both drivers
// (postgres.js and PGlite, each behind its deadline: src/db/deadline.ts) are reached through the
// client Drizzle was given, so the statement runs on the same pool, with the same deadline and
// the same type parsers. A failed statement is wrapped as Drizzle wraps it (DrizzleQueryError,
// the driver's error as its cause), so that error handling and log redaction see no difference.
import { DrizzleQueryError, is, Param, Placeholder } from 'drizzle-orm'
import type { Db } from './client.ts'

/** Runs the statement with these placeholder values; its rows, each an array of column values. */
export type RawStatement = (values: Record<string, unknown>) => Promise<unknown[][]>

interface PostgresJsClient {
  unsafe(query: string, params: unknown[], options: { prepare: boolean }): { values(): Promise<unknown[][]> }
}
interface PgliteClient {
  query(query: string, params: unknown[], options: { rowMode: 'array' }): Promise<{ rows: unknown[][] }>
}

/** How one parameter of the statement is filled: a placeholder (encoded as its column encodes) or a constant. */
type Fill = (values: Record<string, unknown>) => unknown

function filler(p: unknown): Fill {
  if (is(p, Placeholder)) {
    const name = p.name
    return (values) => required(values, name)
  }
  if (is(p, Param) && is(p.value, Placeholder)) {
    const { encoder } = p
    const name = p.value.name
    return (values) => encoder.mapToDriverValue(required(values, name))
  }
  return () => p
}

function required(values: Record<string, unknown>, name: string): unknown {
  if (!(name in values)) throw new Error(`No value for placeholder "${name}" was provided`)
  return values[name]
}

/**
 * The statement `query` builds, run through `db`'s own client; undefined when `db` is not a
 * database Drizzle opened on one of the two drivers (a transaction, say): use Drizzle then.
 */
export function rawStatement(db: Db, query: { toSQL(): { sql: string; params: unknown[] } }): RawStatement | undefined {
  const client = (db as { $client?: unknown }).$client
  // postgres.js's client is a function (a tagged template), PGlite's an object.
  if (!client || (typeof client !== 'object' && typeof client !== 'function')) return undefined
  const { sql: text, params } = query.toSQL()
  const fills = params.map(filler)
  const fill = (values: Record<string, unknown>) => fills.map((f) => f(values))
  // A missing value is a rejection, as with Drizzle's `execute`, not a throw.
  const run = (values: Record<string, unknown>, send: (params: unknown[]) => Promise<unknown[][]>): Promise<unknown[][]> => {
    let params: unknown[]
    try {
      params = fill(values)
    } catch (err) {
      return Promise.reject(err)
    }
    return send(params)
  }
  const wrapped = (params: unknown[]) => (err: unknown) => {
    throw new DrizzleQueryError(text, params, err as Error)
  }
  if (typeof (client as Partial<PostgresJsClient>).unsafe === 'function') {
    const pg = client as PostgresJsClient
    return (values) => run(values, (params) => pg.unsafe(text, params, { prepare: true }).values().catch(wrapped(params)))
  }
  if (typeof (client as Partial<PgliteClient>).query === 'function') {
    const lite = client as PgliteClient
    return (values) => run(values, (params) => lite.query(text, params, { rowMode: 'array' }).then((r) => r.rows, wrapped(params)))
  }
  return undefined
}
