// The extraction in a pool of worker threads (piscina), so that a 30,000-character analysis
// never stalls the event loop that answers quota look-ups and cached results.
// - The models load once, here, into shared memory that every worker reads (nlp/shared-models.ts);
//   each worker builds its engine over them when it starts (src/analysis/worker.ts; the workers
//   run it as one plain-JavaScript bundle, src/bundle.mjs).
// - The queue is bounded: past `queueMax` waiting analyses the pool refuses work (503 OVERLOADED).
// - The queue is shared fairly between accounts (places, turns and eviction below): one account
//   flooding a node neither fills the queue against the others nor makes them wait behind it.
// - Each analysis has a time limit; a timed-out analysis has its worker terminated and replaced
//   (piscina terminates the thread running an aborted task and starts another to keep minThreads).
// - A client that goes never costs a worker: its analysis is skipped if not yet started, else
//   finished and dropped (task-state.ts); a dropped one ends the call with AbandonedExtraction
//   (the work was done, so the request counts).
// - A worker that dies mid-analysis is replaced the same way; its task fails with 503 ANALYSIS_FAILED.
import { Piscina } from 'piscina'
import { overloadedError, ServiceUnavailableError } from '../errors.ts'
import type { Analysis } from '../nlp/types.ts'
import { analysisFromJson, analysisJson } from './analysis-json.ts'
import { viewText, type ViewOptions } from './view.ts'
import {
  AbandonedExtraction,
  type AnalysisPlace,
  type AnalyzedText,
  type Analyzer,
  type AnalyzerCall,
  type PlaceOwner,
} from './analyzer.ts'
import type { WorkerData, WorkerResult, WorkerTask } from './worker.ts'
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
  /**
   * Fraction of the places (workers + queue) one account may hold while other accounts hold
   * places too, by plan; a plan not listed (and a call without an owner) is not capped.
   */
  shares?: Record<string, number>
}

const WORKER_SOURCE = new URL('./worker.ts', import.meta.url)

/** The worker entry that loads the TypeScript sources through tsx: slower to start and larger (a loader and a second copy of the sources per worker). */
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
 * V8 heap limits of each worker. A worker's live data is the model and engine (analyses are
 * pure), yet with V8's defaults on a large machine a worker's heap grows by a lot of garbage
 * under load before collecting it. An old-generation limit of 256 MB makes V8 grow the heap
 * conservatively (a smaller growing factor at or below that size than on big heaps), and a small
 * young generation keeps scavenges cheap without promoting analysis temporaries: lower peak RSS
 * per worker at the same CPU per analysis (figures: docs/performance.md). 256 MB is several times
 * a 30,000-character analysis' need; a worker that exceeds it anyway is stopped by V8 and
 * replaced like a crashed one.
 * V8 lets its command-line flags override an isolate's limits: under `npm start`'s
 * `--max-old-space-size=512 --max-semi-space-size=8` every worker has a 512 MB old generation
 * and 8 MB semi-spaces (the young generation of 16 MB below gives the same 8 MB semi-spaces:
 * V8 takes a third of it and rounds up to a power of two). These limits hold where the process
 * runs without those flags (tests, tools, another start command).
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

/** The models every worker of a pool running the real worker reads; a stand-in worker (tests) gets none. */
async function workerData(opts: PoolOptions): Promise<WorkerData> {
  if (opts.filename && opts.filename !== TSX_WORKER) return {}
  const [{ loadEngineModels }, { shareEngineModels }] = await Promise.all([import('../nlp/index.ts'), import('../nlp/shared-models.ts')])
  return { models: shareEngineModels(loadEngineModels()) }
}

export async function createPoolAnalyzer(opts: PoolOptions): Promise<PoolAnalyzer> {
  const pool = new Piscina<WorkerTask, WorkerResult>({
    filename: await workerFile(opts),
    // Every worker, and each one started to replace another, is handed the same shared memory.
    workerData: await workerData(opts),
    minThreads: opts.workers,
    maxThreads: opts.workers,
    // The bound is kept here (below): piscina is handed at most one task per worker, so its own
    // queue, this size, never refuses one.
    maxQueue: opts.workers,
    concurrentTasksPerWorker: 1,
    idleTimeout: Number.POSITIVE_INFINITY,
    resourceLimits: WORKER_RESOURCE_LIMITS,
  })
  // Without a listener, a worker's start-up error would be rethrown as an uncaught exception.
  pool.on('error', (err) => opts.onWorkerError?.(err))
  // Workers removed (died, or terminated by a time limit). piscina removes a worker before it
  // fails the task that worker was running, so a task that fails after a removal may have lost
  // its worker; piscina's errors carry no code or class to tell that otherwise.
  let workersRemoved = 0
  pool.on('workerDestroy', () => workersRemoved++)
  // Fair share. Every analysis holds a place from admission (before its quota is counted) until
  // it settles; the pool has `workers + queueMax` places, and keeps the bound itself (piscina's
  // own maxQueue does not hold for tasks with an abort signal, which it keeps in a second queue
  // that its limit does not count; re-check before relying on it after a piscina upgrade).
  // Three rules share them between accounts:
  // - places: while other accounts hold places, an account holding its plan's share
  //   (`shares`) is refused (503 OVERLOADED); alone, it may use them all;
  // - eviction: when every place is held, an account under its share takes the place of the
  //   newest waiting analysis of the account furthest over its share, which ends with
  //   503 OVERLOADED before it started (refunded), so a full queue never locks a customer out;
  // - turns: analyses wait here, one FIFO per account, and are handed to piscina only when a
  //   worker is free, the accounts with waiting analyses taking turns, and an account with no
  //   analysis running going ahead of those with some; so an analysis waits for at most one
  //   analysis of each other waiting account, not for a whole queue of them.
  // Holders exist only while they hold places (at most one per place): memory is bounded.
  const capacity = opts.workers + opts.queueMax
  const shares = opts.shares ?? {}
  const holders = new Map<string, Holder>()
  /** Accounts with waiting analyses, in turn order. */
  const turns: Holder[] = []
  let used = 0
  /** Analyses handed to piscina and not settled. */
  let running = 0
  let waiting = 0
  let ready = false
  let closed = false

  const shareOf = (plan: string) => Math.max(1, Math.floor(capacity * (shares[plan] ?? 1)))

  function claim(owner: PlaceOwner): Slot | undefined {
    if (closed) return undefined
    const mine = holders.get(owner.account)?.places ?? 0
    const share = shareOf(owner.plan)
    if (mine >= share && used - mine > 0) return undefined
    if (used >= capacity && !(mine < share && evictOne(owner.account))) return undefined
    let holder = holders.get(owner.account)
    if (!holder) {
      holder = { account: owner.account, share, places: 0, running: 0, waiting: [] }
      holders.set(owner.account, holder)
    }
    holder.share = share
    holder.places++
    used++
    return new Slot(holder, free)
  }

  function free(slot: Slot): void {
    if (!slot.held) return
    slot.held = false
    const holder = slot.holder
    holder.places--
    used--
    if (holder.places === 0) holders.delete(holder.account)
  }

  /** Ends the newest waiting analysis of the account furthest over its share, if any: true when a place was freed. */
  function evictOne(except: string): boolean {
    let victim: Holder | undefined
    for (const h of holders.values()) {
      if (h.account === except || h.waiting.length === 0 || h.places <= h.share) continue
      if (!victim || h.places - h.share > victim.places - victim.share) victim = h
    }
    if (!victim) return false
    const turn = victim.waiting.pop()!
    waiting--
    if (victim.waiting.length === 0) turns.splice(turns.indexOf(victim), 1)
    free(turn.slot)
    turn.fail(overloadedError())
    return true
  }

  /** Hands analyses to free workers, the accounts with waiting analyses taking turns. */
  function dispatch(): void {
    while (running < opts.workers && turns.length > 0) {
      const holder = turns.shift()!
      const turn = holder.waiting.shift()!
      waiting--
      if (holder.waiting.length > 0) turns.push(holder)
      running++
      holder.running++
      turn.go()
    }
  }

  /** Resolves once the analysis may go to a worker (`running` already counts it); rejects when its client or its time limit goes first. */
  function awaitTurn(slot: Slot, signal: AbortSignal | undefined, timeout: AbortSignal): Promise<void> {
    if (running < opts.workers && turns.length === 0) {
      running++
      slot.holder.running++
      return Promise.resolve()
    }
    return new Promise<void>((resolve, reject) => {
      const holder = slot.holder
      const leave = (reason: unknown) => {
        const at = holder.waiting.indexOf(turn)
        if (at < 0) return
        holder.waiting.splice(at, 1)
        waiting--
        if (holder.waiting.length === 0) turns.splice(turns.indexOf(holder), 1)
        settle()
        reject(reason)
      }
      const onAbort = () => leave(signal!.reason)
      const onTimeout = () => leave(timeout.reason)
      const settle = () => {
        signal?.removeEventListener('abort', onAbort)
        timeout.removeEventListener('abort', onTimeout)
      }
      const turn: Turn = {
        slot,
        go: () => {
          settle()
          resolve()
        },
        fail: (err) => {
          settle()
          reject(err)
        },
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      timeout.addEventListener('abort', onTimeout, { once: true })
      if (holder.waiting.length === 0) {
        // Nothing running: it has had no worker lately, so it goes ahead of those that have one.
        const at = holder.running === 0 ? turns.findIndex((h) => h.running > 0) : -1
        if (at < 0) turns.push(holder)
        else turns.splice(at, 0, holder)
      }
      holder.waiting.push(turn)
      waiting++
    })
  }

  // Every worker takes one warm-up task: concurrent tasks with one task per worker land on
  // distinct workers, and each worker has loaded its model once its task has answered.
  await Promise.all(Array.from({ length: opts.workers }, () => pool.run(WARM_UP)))
  ready = true

  const timeoutError = () =>
    new ServiceUnavailableError(
      'ANALYSIS_TIMEOUT',
      `The analysis took longer than ${opts.timeoutMs} ms and was stopped; retry later or send a shorter text`,
      1,
    )

  /** One extraction on a worker, in its turn; `view`: the request's options, whose view the worker writes too. */
  async function extract(
    text: string,
    { signal, place, ...options }: AnalyzerCall,
    view: ViewOptions | undefined,
  ): Promise<Exclude<WorkerResult, { skipped: true }>> {
    if (closed) throw new ServiceUnavailableError('SHUTTING_DOWN', 'The server is shutting down; retry on another node', 1)
    signal?.throwIfAborted()
    // The analysis takes over its place (same turn: no other call can slip in between); a
    // call without one claims one as an account of its own.
    const slot = place instanceof Slot && place.held ? place : claim(ANONYMOUS)
    if (!slot) throw overloadedError()
    slot.taken = true
    // The time limit covers the wait; only it aborts the task in piscina (which terminates a
    // worker running it); a client that goes cancels it through `state` instead (task-state.ts).
    const timeout = AbortSignal.timeout(opts.timeoutMs)
    try {
      await awaitTurn(slot, signal, timeout)
    } catch (err) {
      free(slot)
      if (timeout.aborted && err === timeout.reason) throw timeoutError()
      throw err
    }
    const state = newTaskState()
    const removedBefore = workersRemoved
    const task = pool
      .run({ text, options, state, view } satisfies WorkerTask, { signal: timeout })
      .then((result) => {
        if (!('skipped' in result)) analyzer.observe?.(result.ms / 1000)
        return result
      })
      .finally(() => {
        running--
        slot.holder.running--
        free(slot)
        dispatch()
      })
    try {
      const result = await (signal ? whileWanted(task, signal, state) : task)
      if ('skipped' in result) throw signal?.reason ?? new Error('analysis skipped')
      return result
    } catch (err) {
      if (timeout.aborted) throw timeoutError()
      if (err instanceof AbandonedExtraction || signal?.aborted) throw err
      // A worker removed meanwhile: this task's, most likely (an extraction that throws, a bug,
      // at the moment another worker goes would be reported the same way; both are retryable).
      if (workersRemoved > removedBefore && !(err instanceof ServiceUnavailableError)) {
        opts.onWorkerError?.(err)
        throw new ServiceUnavailableError(
          'ANALYSIS_FAILED',
          'The analysis worker stopped unexpectedly; it has been replaced, retry the request',
          1,
        )
      }
      throw err
    }
  }

  const analyzer: PoolAnalyzer = {
    pool,
    async analyze(text: string, call: AnalyzerCall): Promise<Analysis> {
      const result = await extract(text, call, undefined)
      return 'json' in result ? analysisFromJson(result.json) : result.analysis
    },
    async analyzeText(text: string, call: AnalyzerCall, view: ViewOptions): Promise<AnalyzedText> {
      const result = await extract(text, call, view)
      if ('json' in result)
        return {
          json: result.json,
          model: result.model,
          language: result.language,
          view: result.view ?? viewText(analysisFromJson(result.json), view, text),
        }
      // A stand-in worker that answers objects.
      const { analysis } = result
      return { json: analysisJson(analysis), model: analysis.model, language: analysis.language, view: viewText(analysis, view, text) }
    },
    ready: () => ready && !closed,
    admit(owner = ANONYMOUS) {
      return claim(owner)
    },
    stats: () => ({
      queued: waiting + pool.queueSize,
      utilization: Math.min(1, Math.max(0, running - pool.queueSize) / opts.workers),
    }),
    async close() {
      closed = true
      await pool.close({ force: false })
    },
  }
  return analyzer
}

/** Calls without an owner (tests, tools) share one holder that no share caps. */
const ANONYMOUS: PlaceOwner = { account: '', plan: '' }

/** The places and waiting analyses of one account. */
interface Holder {
  account: string
  /** Its plan's share of the places, as a count. */
  share: number
  places: number
  /** Its analyses on a worker. */
  running: number
  /** Its analyses waiting for a worker, oldest first. */
  waiting: Turn[]
}

/** One waiting analysis. */
interface Turn {
  slot: Slot
  go(): void
  fail(err: unknown): void
}

/** One place: held from admission until the analysis that took it over settles. */
class Slot implements AnalysisPlace {
  held = true
  /** Taken over by its analysis, which gives it back when it settles. */
  taken = false
  constructor(
    readonly holder: Holder,
    private readonly free: (slot: Slot) => void,
  ) {}
  release(): void {
    if (!this.taken) this.free(this)
  }
}

/**
 * The task's outcome while the client waits; when the client goes first, at once: its reason
 * when the task had not started (it is skipped), else AbandonedExtraction (it runs on and its
 * result is dropped).
 */
function whileWanted<T>(task: Promise<T>, signal: AbortSignal, state: Int32Array): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const gone = () => {
      reject(cancelTask(state) ? signal.reason : new AbandonedExtraction(signal.reason))
    }
    // Handlers first: the task's failure is handled even once the client has gone.
    task.then(resolve, reject).finally(() => signal.removeEventListener('abort', gone))
    if (signal.aborted) return gone()
    signal.addEventListener('abort', gone, { once: true })
  })
}
