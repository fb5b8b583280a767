// Coalescing of hot-path statements, per node. Each key is a lane. A call waits for the end of
// the event loop's turn it arrived in (setImmediate, after the turn's other I/O callbacks), and
// then goes in one statement with every call of that turn; calls that arrive while the lane's
// statement is in flight wait, and are then served together by the lane's next statement (which
// waits for the end of one more turn when fewer wait than the last statement carried). Under
// load, N concurrent requests cost about N / batch statements instead of N, and the database,
// the socket writes and the driver's queue do that much less work. A lone call on an idle node
// waits for nothing: its turn has nothing else to do.
//
// Why the end of the turn and not at once: under load one turn parses several requests. Sending
// the first at once made it a statement of its own; a lone statement costs postgres.js several
// times the CPU of a pipelined one, and its socket write wakes the database's process, which on
// a small machine often takes the core. Figures: docs/architecture.md, "Batching at the end of
// the turn".
//
// A lane may have more than one statement in flight (`maxInFlight`, for statements that do not
// contend with each other, such as reads). One statement per lane makes the lane's throughput
// its batch size over one round trip, and the node then waits on the database while the CPU is
// idle; with a second in flight, the calls of one turn go together at the end of that turn
// instead of waiting for the first statement to come back.
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
  /**
   * Statements of one lane in flight at once (default 1). Above 1, only for statements that do
   * not contend (reads): concurrent writes to one row would just queue on its lock.
   */
  maxInFlight?: number
}

export class BatchNotSettledError extends Error {
  constructor(key: string) {
    super(`batcher: a call in lane ${JSON.stringify(key)} was left unanswered by its batch`)
    this.name = 'BatchNotSettledError'
  }
}

export function createBatcher<T, R>(opts: BatcherOptions<T, R>): (key: string, item: T) => Promise<R> {
  const maxInFlight = Math.max(1, opts.maxInFlight ?? 1)
  interface Lane {
    waiting: Waiter<T, R>[]
    inFlight: number
    scheduled: boolean
  }
  /** Per key: the calls waiting for a statement, and how many of the lane's statements are in flight. */
  const lanes = new Map<string, Lane>()

  async function runBatch(key: string, batch: Waiter<T, R>[]): Promise<void> {
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

  function start(key: string, lane: Lane): void {
    const n = Math.max(1, Math.min(lane.waiting.length, opts.maxBatch(lane.waiting[0].item)))
    const batch = lane.waiting.splice(0, n)
    lane.inFlight++
    const size = batch.length
    void runBatch(key, batch).finally(() => {
      lane.inFlight--
      if (lane.waiting.length >= size || (size === 1 && lane.waiting.length > 0)) start(key, lane)
      else if (lane.waiting.length > 0) hold(key, lane)
      else if (lane.inFlight === 0) lanes.delete(key)
    })
  }

  /**
   * Fewer calls wait than the statement that just ended carried: the rest of that load is likely
   * still on its way (its callers' next requests), so the next statement waits for the end of
   * the next turn instead of going at once with a few. A lane whose statements carry one call
   * each (an idle node) never waits.
   */
  function hold(key: string, lane: Lane): void {
    if (lane.scheduled) return
    lane.scheduled = true
    setImmediate(() =>
      setImmediate(() => {
        lane.scheduled = false
        if (lane.waiting.length > 0 && lane.inFlight < maxInFlight) start(key, lane)
      }),
    )
  }

  function openLane(key: string): Lane {
    const lane: Lane = { waiting: [], inFlight: 0, scheduled: false }
    lanes.set(key, lane)
    return lane
  }

  return (key, item) =>
    new Promise<R>((resolve, reject) => {
      const lane = lanes.get(key) ?? openLane(key)
      lane.waiting.push({ item, resolve, reject })
      // A statement may go now (none in flight, or fewer than maxInFlight): at the end of this
      // turn of the event loop, with every call that arrived in it.
      if (lane.inFlight < maxInFlight && !lane.scheduled) {
        lane.scheduled = true
        setImmediate(() => {
          lane.scheduled = false
          if (lane.waiting.length > 0 && lane.inFlight < maxInFlight) start(key, lane)
        })
      }
    })
}
