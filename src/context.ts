// The explicit dependencies every handler gets (`app.ctx`), instead of module singletons.
import type { Config } from './config.ts'
import type { Database } from './db/client.ts'
import type { Repositories } from './db/repositories/index.ts'
import type { Clock } from './domain/clock.ts'
import type { AnalysisCache } from './analysis/cache.ts'
import type { Analyzer } from './analysis/analyzer.ts'
import type { AnalysisServiceDeps } from './analysis/service.ts'

export interface AppContext extends AnalysisServiceDeps {
  config: Config
  database: Database
  repos: Repositories
  clock: Clock
  cache: AnalysisCache
  analyzer: Analyzer
  tokenPrefix: string
  /** Set when the node begins to stop: new API requests are refused, readiness fails. */
  shuttingDown: boolean
}
