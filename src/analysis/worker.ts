// The task run by each pool worker thread: the engine is built once, when the worker starts,
// over the models the pool shares with every worker (`workerData`, see nlp/shared-models.ts),
// or over its own copy of the files when given none; every task after that is one pure extraction.
import { readlinkSync } from 'node:fs'
import { setPriority } from 'node:os'
import { workerData } from 'node:worker_threads'
import { createEngine, loadEngineModels } from '../nlp/index.ts'
import { engineModelsFromShared, type SharedEngineModels } from '../nlp/shared-models.ts'
import type { AnalyzeOptions, Analysis } from '../nlp/types.ts'
import { claimTask } from './task-state.ts'
import { viewText, type ViewOptions } from './view.ts'

export interface WorkerTask {
  text: string
  options: AnalyzeOptions
  /** See task-state.ts: the task is skipped when its client went before it started. */
  state?: Int32Array
  /** The request's options, when the caller wants the response text of its view too (`view` below). */
  view?: ViewOptions
}

export type WorkerResult =
  | {
      /** The analysis as JSON text (analysis-json.ts), or as an object (test stand-ins). */
      json: string
      model: string
      language: string
      /** The caller's view of it as response text (view.ts `viewText`), when the task asked for it. */
      view?: string
      /** Time spent in the extraction itself, without queueing or message passing. */
      ms: number
    }
  | { analysis: Analysis; ms: number }
  | { skipped: true }

// The workers run at a lower scheduling priority than the main thread, so that when analyses
// saturate every core the event loop (quota look-ups, cached answers, accepting connections)
// still gets a core when it needs one. On Linux a thread's priority is set through its thread
// id, which /proc/thread-self names; elsewhere this is skipped.
export const WORKER_NICE = 10
try {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop())
  if (Number.isInteger(tid) && tid > 0) setPriority(tid, WORKER_NICE)
} catch {
  // not Linux, or not permitted: run at the default priority
}

/** What the pool hands each worker when it starts. */
export interface WorkerData {
  models?: SharedEngineModels
}

const shared = (workerData as WorkerData | null)?.models
const engine = createEngine(shared ? engineModelsFromShared(shared) : loadEngineModels())

export default function run(task: WorkerTask): WorkerResult {
  if (!claimTask(task.state)) return { skipped: true }
  const started = performance.now()
  const analysis = engine.analyze(task.text, task.options)
  const ms = performance.now() - started
  // The view is written here, beside the extraction, so that the main thread answers without
  // parsing the analysis (and keeps it in its cache as text).
  const view = task.view === undefined ? undefined : viewText(analysis, task.view, task.text)
  return { json: JSON.stringify(analysis), model: analysis.model, language: analysis.language, view, ms }
}
