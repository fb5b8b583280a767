// Where the extraction runs, and the analyze flow over it (src/analysis/service.ts): the
// analyzer (a worker pool, or the main thread when there are no workers) and the language
// detector, which is the only model this thread loads (now, not on the first request; the
// entity model loads where the analysis runs: here for the inline analyzer, in each worker for
// the pool). Closing the app closes the analyzer, also one it was given.
import fp from 'fastify-plugin'
import type { Config } from '../../config.ts'
import type { Clock } from '../../domain/clock.ts'
import { createInlineAnalyzer, type Analyzer } from '../../analysis/analyzer.ts'
import { createPoolAnalyzer } from '../../analysis/pool.ts'
import { createAnalysisService, type AnalysisService } from '../../analysis/service.ts'
import { MODEL_NAME, SUPPORTED_LANGUAGES } from '../../nlp/types.ts'

declare module 'fastify' {
  interface FastifyInstance {
    analyzer: Analyzer
    analysis: AnalysisService
  }
}

export interface AnalysisPluginOptions {
  config: Pick<Config, 'analysisWorkers' | 'analysisQueueMax' | 'analysisTimeoutMs' | 'queueShares'>
  clock: Clock
  /** Defaults to `config.analysisWorkers`: a worker pool, or the main thread when 0. */
  analyzer?: Analyzer
}

export default fp<AnalysisPluginOptions>(
  async (app, { config, clock, ...opts }) => {
    const { detectLanguage, eldData } = await import('../../nlp/language.ts')
    eldData()
    const analyzer =
      opts.analyzer ??
      (config.analysisWorkers > 0
        ? await createPoolAnalyzer({
            workers: config.analysisWorkers,
            queueMax: config.analysisQueueMax,
            timeoutMs: config.analysisTimeoutMs,
            shares: config.queueShares,
            onWorkerError: (err) => app.log.error({ err }, 'analysis worker failed; replaced'),
            onBundleFallback: (err) => app.log.warn({ err }, 'worker bundle not built; workers load the sources through tsx'),
          })
        : await createInlineAnalyzer())
    app.decorate('analyzer', analyzer)
    app.addHook('onClose', async () => analyzer.close())
    app.decorate(
      'analysis',
      createAnalysisService({
        usage: app.repos.usage,
        clock,
        cache: app.analysisCache,
        analyzer,
        detectLanguage,
        supportedLanguages: SUPPORTED_LANGUAGES,
        model: MODEL_NAME,
        refunds: app.refunds,
        warn: (err, message) => app.log.warn({ err }, message),
      }),
    )
  },
  { name: 'analysis', dependencies: ['database', 'refunds', 'analysis-cache'] },
)
