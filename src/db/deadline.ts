// A deadline on every statement, on the client side: a database that stops answering (frozen,
// unreachable without a reset) would otherwise hold each request until it comes back. The server
// side has its own (`statement_timeout`, src/db/client.ts); this one also covers the wait for a
// connection and a server that answers nothing at all. The statement is not undone by it: one
// already sent may still be applied when the database answers (see `late`).
import type { Sql } from 'postgres'
import type { PGlite } from '@electric-sql/pglite'

/** The database did not answer a statement in time; mapped to 503 DATABASE_UNAVAILABLE. */
export class DatabaseTimeoutError extends Error {
  readonly code = 'DATABASE_TIMEOUT'
  /**
   * The statement's own outcome, if it ever comes (undefined if it failed): a statement sent
   * before the deadline may still be applied, and a caller whose write must not stay applied
   * (a count answered with 503) can undo it from here.
   */
  readonly late: Promise<unknown>
  constructor(ms: number, late: Promise<unknown>) {
    super(`The database did not answer within ${ms} ms`)
    this.name = 'DatabaseTimeoutError'
    this.late = late
  }
}

/** `work`, or a DatabaseTimeoutError after `ms`; `onTimeout` runs when the deadline passes first. */
export function withDeadline<T>(work: Promise<T>, ms: number, onTimeout?: () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      onTimeout?.()
      reject(
        new DatabaseTimeoutError(
          ms,
          work.then(
            (v) => v,
            () => undefined,
          ),
        ),
      )
    }, ms)
    work.then(
      (v) => {
        clearTimeout(timer)
        resolve(v)
      },
      (err) => {
        clearTimeout(timer)
        reject(err)
      },
    )
  })
}

type PendingQuery = ReturnType<Sql['unsafe']> & { state?: unknown }

/**
 * A postgres.js query whose awaiting is bounded. postgres.js runs a query when it is first
 * awaited (`then`), so the deadline starts there. A query still waiting for a connection when
 * its deadline passes is taken out of the queue (`cancel()`; it will never run). One already
 * handed to a connection is left to the server's statement_timeout: a cancel request would
 * reach whatever statement that connection runs when the server reads it, not necessarily this one.
 */
function boundedQuery(q: PendingQuery, ms: number, expired?: () => boolean): PendingQuery {
  const then = q.then
  let raced: Promise<unknown> | undefined
  q.then = function (this: PendingQuery, onFulfilled?: (v: unknown) => unknown, onRejected?: (e: unknown) => unknown) {
    raced ??= expired?.()
      ? Promise.reject(new DatabaseTimeoutError(ms, Promise.resolve(undefined)))
      : withDeadline(
          then.call(q, (v: unknown) => v),
          ms,
          () => {
            if (!q.state) void q.cancel()
          },
        )
    return raced.then(onFulfilled, onRejected)
  } as PendingQuery['then']
  return q
}

/**
 * The postgres.js client as Drizzle uses it (`unsafe` for statements, `begin` for transactions),
 * each bounded by `ms`. A transaction is bounded as a whole; once its deadline has passed, its
 * next statement fails, so that it rolls back instead of committing when the server answers again.
 */
export function postgresWithDeadline(sql: Sql, ms: number): Sql {
  const wrap = (target: Sql, expired?: () => boolean): Sql =>
    new Proxy(target, {
      get(t, prop, receiver) {
        if (prop === 'unsafe') {
          return (query: string, params?: unknown[], options?: object) =>
            boundedQuery(t.unsafe(query, params as never, options) as PendingQuery, ms, expired)
        }
        if (prop === 'begin' && !expired) {
          return (...args: unknown[]) => {
            const fn = args.pop() as (tx: Sql) => unknown
            let late = false
            const work = (t.begin as (...a: unknown[]) => Promise<unknown>)(...args, (tx: Sql) => {
              if (late) throw new DatabaseTimeoutError(ms, Promise.resolve(undefined))
              return fn(wrap(tx, () => late))
            })
            return withDeadline(work, ms, () => {
              late = true
            })
          }
        }
        return Reflect.get(t, prop, receiver) as unknown
      },
    })
  return wrap(sql)
}

/**
 * PGlite runs one statement at a time, in this thread: a statement cannot stall once it runs,
 * but it can wait behind others (a transaction holds the database across its awaits). The
 * deadline bounds that wait. A statement whose deadline passed in the queue still runs later.
 */
export function pgliteWithDeadline(client: PGlite, ms: number): PGlite {
  return new Proxy(client, {
    get(t, prop) {
      if (prop === 'query') {
        return (...args: Parameters<PGlite['query']>) => withDeadline(t.query(...args), ms)
      }
      if (prop === 'transaction') {
        return (fn: Parameters<PGlite['transaction']>[0]) => {
          let late = false
          return withDeadline(
            t.transaction((tx) => {
              if (late) throw new DatabaseTimeoutError(ms, Promise.resolve(undefined))
              return fn(tx)
            }),
            ms,
            () => {
              late = true
            },
          )
        }
      }
      // The target as receiver: PGlite's getters read its private fields.
      const v = Reflect.get(t, prop) as unknown
      return typeof v === 'function' ? (v as (...args: unknown[]) => unknown).bind(t) : v
    },
  })
}
