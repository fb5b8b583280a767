// Where the extraction runs. The service sees only this interface, so running it on the main
// thread (tests, small deployments) or in a worker pool is a start-up choice.
import type { Analysis, AnalyzeOptions } from '../nlp/types.ts'
import type { AnalysisText } from './cache.ts'
import type { ViewOptions } from './view.ts'

/** Room for one analysis in a bounded analyzer, claimed before the quota is touched (`Analyzer.admit`). */
export interface AnalysisPlace {
  /** Gives the room back; does nothing the second time. `analyze` takes the place over from it. */
  release(): void
}

/** Whose analysis a place is for: the pool shares its places fairly between accounts, by plan. */
export interface PlaceOwner {
  account: string
  plan: string
}

/**
 * How a call ends when its signal aborted after its extraction had started: the work was done
 * (the request counts), and `reason` is the signal's. Before the start, the call ends with the
 * signal's reason itself (nothing was done).
 */
export class AbandonedExtraction extends Error {
  constructor(readonly reason: unknown) {
    super('the client went after its extraction had started')
    this.name = 'AbandonedExtraction'
  }
}

export interface AnalyzerCall extends AnalyzeOptions {
  /**
   * Aborted when the answer is no longer wanted (client gone): the call ends at once; an analysis
   * not yet started is skipped, a started one runs on and the call ends with AbandonedExtraction.
   */
  signal?: AbortSignal
  /** The place `admit` gave this analysis; without one, a full analyzer refuses the call. */
  place?: AnalysisPlace
}

export interface AnalyzerStats {
  /** Analyses waiting for a worker. */
  queued: number
  /** Share of worker capacity busy right now, 0..1. */
  utilization: number
}

/** An analysis as JSON text, with the caller's view of it as response text (view.ts). */
export interface AnalyzedText extends AnalysisText {
  view: string
}

export interface Analyzer {
  analyze(text: string, options: AnalyzerCall): Promise<Analysis>
  /**
   * The same analysis as text, with the response text of its view for the request's options
   * (`view`). The pool's workers write both, so the main thread neither parses nor serialises
   * the result; absent: the service calls `analyze` (the inline analyzer).
   */
  analyzeText?(text: string, options: AnalyzerCall, view: ViewOptions): Promise<AnalyzedText>
  /** Model loaded and able to take work (readiness). */
  ready(): boolean
  /**
   * Claims room for one analysis, or undefined when there is none (503 OVERLOADED). Claimed, not
   * merely checked, before the quota is touched: requests that pass this point in the same turn
   * of the event loop (their cache look-ups answered by one statement) cannot together overfill
   * the queue. The pool also refuses an account that holds its plan's share of the places while
   * other accounts hold some (src/analysis/pool.ts). Absent: the analyzer takes every call (the inline one).
   */
  admit?(owner?: PlaceOwner): AnalysisPlace | undefined
  stats?(): AnalyzerStats
  /** Set by the application: called with the extraction time of every analysis, in seconds. */
  observe?: (seconds: number) => void
  close(): Promise<void>
}

/** Runs the extraction on the calling thread. */
export async function createInlineAnalyzer(): Promise<Analyzer> {
  const nlp = await import('../nlp/index.ts')
  const engine = nlp.createEngine(nlp.loadEngineModels())
  let running = 0
  const analyzer: Analyzer = {
    async analyze(text, { signal, place: _place, ...options }) {
      signal?.throwIfAborted()
      const started = performance.now()
      running++
      try {
        return engine.analyze(text, options)
      } finally {
        running--
        analyzer.observe?.((performance.now() - started) / 1000)
      }
    },
    ready: () => true,
    stats: () => ({ queued: 0, utilization: running > 0 ? 1 : 0 }),
    async close() {},
  }
  return analyzer
}
