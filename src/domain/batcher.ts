// Coalescing of hot-path statements, per node. Each key is a lane: a lone call starts its
// statement at once (never delayed); calls that arrive while the lane's statement is in flight
// wait, and are then served together by the lane's next statement. Under load, N concurrent
// requests cost about N / batch statements instead of N, and the database, the socket writes
// and the driver's queue do that much less work.
//
// Why this keeps "what the database says now" semantics: a waiting call is served by a statement
// sent after the call arrived, so it sees everything committed before its arrival (a revoked
// token, a changed plan, another node's count), exactly as its own statement would have.
// Nothing is remembered between statements.

export interface Waiter<T, R> {
  item: T
  resolve(result: R): void
  reject(err: unknown): void
}

export interface BatcherOptions<T, R> {
  /** How many of the waiting calls one statement serves at most (≥ 1), given the first of them. */
  maxBatch: (first: T) => number
  /**
   * Serves one batch: settles each waiter. A throw rejects the waiters not settled yet; a waiter
   * left unsettled is rejected too, so no caller ever hangs on a bug here.
   */
  run: (key: string, batch: Waiter<T, R>[]) => Promise<void>
}

export class BatchNotSettledError extends Error {
  constructor(key: string) {
    super(`batcher: a call in lane ${JSON.stringify(key)} was left unanswered by its batch`)
    this.name = 'BatchNotSettledError'
  }
}

export function createBatcher<T, R>(opts: BatcherOptions<T, R>): (key: string, item: T) => Promise<R> {
  /** Per key: the calls waiting for the statement after the one in flight. */
  const lanes = new Map<string, Waiter<T, R>[]>()

  async function pump(key: string, waiting: Waiter<T, R>[]): Promise<void> {
    try {
      while (waiting.length > 0) {
        const n = Math.max(1, Math.min(waiting.length, opts.maxBatch(waiting[0].item)))
        const batch = waiting.splice(0, n)
        const settled = batch.map(() => false)
        const tracked = batch.map((w, i) => ({
          item: w.item,
          resolve: (r: R) => ((settled[i] = true), w.resolve(r)),
          reject: (e: unknown) => ((settled[i] = true), w.reject(e)),
        }))
        try {
          await opts.run(key, tracked)
        } catch (err) {
          tracked.forEach((w, i) => settled[i] || w.reject(err))
        }
        tracked.forEach((w, i) => settled[i] || w.reject(new BatchNotSettledError(key)))
      }
    } finally {
      lanes.delete(key)
    }
  }

  return (key, item) =>
    new Promise<R>((resolve, reject) => {
      const waiting = lanes.get(key)
      if (waiting) {
        waiting.push({ item, resolve, reject })
        return
      }
      const fresh: Waiter<T, R>[] = [{ item, resolve, reject }]
      lanes.set(key, fresh)
      void pump(key, fresh)
    })
}
