// Where the extraction runs. The service sees only this interface, so running it on the main
// thread (tests, small deployments) or in a worker pool is a start-up choice.
import type { Analysis, AnalyzeOptions } from '../nlp/types.ts'

/** Room for one analysis in a bounded analyzer, claimed before the quota is touched (`Analyzer.admit`). */
export interface AnalysisPlace {
  /** Gives the room back; does nothing the second time. `analyze` takes the place over from it. */
  release(): void
}

export interface AnalyzerCall extends AnalyzeOptions {
  /** Aborted when the answer is no longer wanted (client gone): the call ends at once; an analysis not yet started is skipped. */
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

export interface Analyzer {
  analyze(text: string, options: AnalyzerCall): Promise<Analysis>
  /** Model loaded and able to take work (readiness). */
  ready(): boolean
  /**
   * Claims room for one analysis, or undefined when there is none (503 OVERLOADED). Claimed, not
   * merely checked, before the quota is touched: requests that pass this point in the same turn
   * of the event loop (their cache look-ups answered by one statement) cannot together overfill
   * the queue. Absent: the analyzer takes every call (the inline one).
   */
  admit?(): AnalysisPlace | undefined
  stats?(): AnalyzerStats
  /** Set by the application: called with the extraction time of every analysis, in seconds. */
  observe?: (seconds: number) => void
  close(): Promise<void>
}

/** Runs the extraction on the calling thread. */
export async function createInlineAnalyzer(): Promise<Analyzer> {
  const nlp = await import('../nlp/index.ts')
  let running = 0
  const analyzer: Analyzer = {
    async analyze(text, { signal, place: _place, ...options }) {
      signal?.throwIfAborted()
      const started = performance.now()
      running++
      try {
        return nlp.analyze(text, options)
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
