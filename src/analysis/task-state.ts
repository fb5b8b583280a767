// Who decides the fate of an analysis whose client has gone: the worker that starts it or the
// main thread that cancels it, settled by one compare-and-swap on memory both share.
// piscina's own abort terminates the worker thread when the task has already been handed to it,
// and a fresh worker reloads the model and recompiles the extraction (about a second of CPU and
// slower analyses for the next few hundred requests), so a client that hangs up must never cost
// a worker: a task not yet started is skipped by the worker, a started one runs to its end and
// its result is dropped. Only the time limit still terminates a worker (a runaway extraction).

const PENDING = 0
const STARTED = 1
const CANCELLED = 2

/** The shared cell of one task, sent with it to the worker. */
export function newTaskState(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4))
}

/** In the worker, before the extraction: true when it may run, false when it was cancelled first. */
export function claimTask(state: Int32Array | undefined): boolean {
  return !state || Atomics.compareExchange(state, 0, PENDING, STARTED) === PENDING
}

/** On the main thread, when the client has gone: true when the task will be skipped, false when it already runs. */
export function cancelTask(state: Int32Array): boolean {
  return Atomics.compareExchange(state, 0, PENDING, CANCELLED) === PENDING
}
