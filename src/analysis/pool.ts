// The extraction in a pool of worker threads (piscina), so that a 30,000-character analysis
// never stalls the event loop that answers quota look-ups and cached results.
// - Each worker loads the model once, when it starts (src/analysis/worker.ts imports the engine;
//   the workers run it as one plain-JavaScript bundle, src/bundle.mjs).
// - The queue is bounded: past `queueMax` waiting analyses the pool refuses work (503 OVERLOADED).
// - Each analysis has a time limit; a timed-out analysis has its worker terminated and replaced
//   (piscina terminates the thread running an aborted task and starts another to keep minThreads).
// - A client that goes never costs a worker: its analysis is skipped if not yet started, else
//   finished and dropped (task-state.ts).
// - A worker that dies mid-analysis is replaced the same way; its task fails with 503 ANALYSIS_FAILED.
import { Piscina } from 'piscina'
import { overloadedError, ServiceUnavailableError } from '../errors.ts'
import type { Analysis } from '../nlp/types.ts'
import type { Analyzer, AnalyzerCall } from './analyzer.ts'
import type { WorkerResult, WorkerTask } from './worker.ts'
import { bundleEntry } from '../bundle.mjs'
import { cancelTask, newTaskState } from './task-state.ts'

export interface PoolOptions {
  workers: number
  queueMax: number
  timeoutMs: number
  /** The worker module; the real one by default (tests substitute misbehaving workers). */
  filename?: string
  /** Where pool-level problems (a worker that died) are reported. */
  onWorkerError?: (err: unknown) => void
  /** Where the worker bundle is written (tests); see src/bundle.mjs. */
  bundleDir?: string
  /** Told when the bundle could not be built and the workers load the sources through tsx. */
  onBundleFallback?: (err: unknown) => void
}

const WORKER_SOURCE = new URL('./worker.ts', import.meta.url)

/** The worker entry that loads the TypeScript sources through tsx: slower to start, ~20 MB more per worker. */
export const TSX_WORKER = new URL('./worker.mjs', import.meta.url).href

async function workerFile(opts: PoolOptions): Promise<string> {
  if (opts.filename) return opts.filename
  try {
    return await bundleEntry(WORKER_SOURCE, 'worker', opts.bundleDir)
  } catch (err) {
    // A read-only install directory, say: the service still runs, only heavier.
    opts.onBundleFallback?.(err)
    return TSX_WORKER
  }
}

/**
 * V8 heap limits of each worker. A worker holds ~40 MB of live model and engine data and
 * little else (analyses are pure), yet with V8's defaults on a large machine (an old generation
 * allowed to grow to gigabytes, a 48 MB young generation) each worker's heap grew by another
 * 50–90 MB of garbage under load before collecting it. An old-generation limit of 256 MB makes
 * V8 grow the heap conservatively (its growing factor is 1.3 at or below that size, up to 4 on
 * big heaps), and a 16 MB young generation keeps scavenges cheap without promoting analysis
 * temporaries: peak RSS per worker ~50 MB lower, CPU time per analysis unchanged (measured on
 * 2,000- and 30,000-character texts). 256 MB is several times a 30,000-character analysis'
 * need; a worker that exceeds it anyway is stopped by V8 and replaced like a crashed one.
 */
export const WORKER_RESOURCE_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 16 } as const

/** A short text run once per worker at start-up, so that readiness means "model loaded". */
const WARM_UP: WorkerTask = {
  text: 'Tim Cook is the chief executive of Apple, which is based in Cupertino, California.',
  options: { language: 'en' },
}

export interface PoolAnalyzer extends Analyzer {
  /** The piscina pool itself (tests use its `threads` to kill a worker mid-analysis). */
  readonly pool: Piscina
}

export async function createPoolAnalyzer(opts: PoolOptions): Promise<PoolAnalyzer> {
  const pool = new Piscina<WorkerTask, WorkerResult>({
    filename: await workerFile(opts),
    minThreads: opts.workers,
    maxThreads: opts.workers,
    maxQueue: opts.queueMax,
    concurrentTasksPerWorker: 1,
    idleTimeout: Number.POSITIVE_INFINITY,
    resourceLimits: WORKER_RESOURCE_LIMITS,
  })
  // Without a listener, a worker's start-up error would be rethrown as an uncaught exception.
  pool.on('error', (err) => opts.onWorkerError?.(err))
  // Analyses submitted to piscina and not settled (running or queued), and places admitted but
  // not yet submitted. Their sum is bounded here: piscina's own maxQueue does not hold for tasks
  // with an abort signal (ours all have the time limit), which it keeps in a second queue that
  // its limit does not count, so a burst of submissions would all be queued (known upstream:
  // piscinajs/piscina issues 1029 and 899, open for 5.x when this was written).
  let inFlight = 0
  let admitted = 0
  const capacity = opts.workers + opts.queueMax
  const full = () => closed || inFlight + admitted >= capacity
  let ready = false
  let closed = false

  // Every worker takes one warm-up task: concurrent tasks with one task per worker land on
  // distinct workers, and each worker has loaded its model once its task has answered.
  await Promise.all(Array.from({ length: opts.workers }, () => pool.run(WARM_UP)))
  ready = true

  const analyzer: PoolAnalyzer = {
    pool,
    async analyze(text: string, { signal, place, ...options }: AnalyzerCall): Promise<Analysis> {
      if (closed) throw new ServiceUnavailableError('SHUTTING_DOWN', 'The server is shutting down; retry on another node', 1)
      signal?.throwIfAborted()
      // The task takes over its place (same turn: no other call can slip in between).
      if (place) place.release()
      else if (full()) throw overloadedError()
      // Only the time limit aborts the task in piscina (which terminates a worker running it);
      // a client that goes cancels it through `state` instead (task-state.ts).
      const timeout = AbortSignal.timeout(opts.timeoutMs)
      const state = newTaskState()
      inFlight++
      const task = pool
        .run({ text, options, state }, { signal: timeout })
        .then((result) => {
          if (!('skipped' in result)) analyzer.observe?.(result.ms / 1000)
          return result
        })
        .finally(() => inFlight--)
      try {
        const result = await (signal ? whileWanted(task, signal, state) : task)
        if ('skipped' in result) throw signal?.reason ?? new Error('analysis skipped')
        return result.analysis
      } catch (err) {
        if (timeout.aborted) {
          throw new ServiceUnavailableError(
            'ANALYSIS_TIMEOUT',
            `The analysis took longer than ${opts.timeoutMs} ms and was stopped; retry later or send a shorter text`,
            1,
          )
        }
        if (signal?.aborted) throw signal.reason
        if (err instanceof Error && /queue is at limit/i.test(err.message)) throw overloadedError()
        if (err instanceof Error && /terminated|exited|worker/i.test(err.message) && !(err instanceof ServiceUnavailableError)) {
          opts.onWorkerError?.(err)
          throw new ServiceUnavailableError('ANALYSIS_FAILED', 'The analysis worker stopped unexpectedly; it has been replaced, retry the request', 1)
        }
        throw err
      }
    },
    ready: () => ready && !closed,
    admit() {
      if (full()) return undefined
      admitted++
      let held = true
      return {
        release() {
          if (!held) return
          held = false
          admitted--
        },
      }
    },
    stats: () => ({
      queued: pool.queueSize,
      utilization: Math.min(1, Math.max(0, inFlight - pool.queueSize) / opts.workers),
    }),
    async close() {
      closed = true
      await pool.close({ force: false })
    },
  }
  return analyzer
}

/**
 * The task's outcome while the client waits; when the client goes first, its reason at once (the
 * task is cancelled if it has not started, else it runs on and its result is dropped).
 */
function whileWanted<T>(task: Promise<T>, signal: AbortSignal, state: Int32Array): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const gone = () => {
      cancelTask(state)
      reject(signal.reason)
    }
    // Handlers first: the task's failure is handled even once the client has gone.
    task.then(resolve, reject).finally(() => signal.removeEventListener('abort', gone))
    if (signal.aborted) return gone()
    signal.addEventListener('abort', gone, { once: true })
  })
}
