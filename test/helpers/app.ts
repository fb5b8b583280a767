// Builds the real application for a test, on a fresh database of the chosen driver, with a
// controllable clock, and checks every response it sends against openapi.yaml.
// Drivers: PGlite always; PostgreSQL too when TEST_DATABASE_URL is set. Each app gets an empty
// migrated database of its own (test/helpers/databases.ts).
import type { Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { randomBytes } from 'node:crypto'
import { buildApp } from '../../src/app.ts'
import { loadConfig, type Config } from '../../src/config.ts'
import type { Database } from '../../src/db/client.ts'
import { createRepositories } from '../../src/db/repositories/index.ts'
import { createAccount } from '../../src/domain/accounts.ts'
import { createToken } from '../../src/domain/tokens.ts'
import { systemClock } from '../../src/domain/clock.ts'
import type { Analyzer } from '../../src/analysis/analyzer.ts'
import { checkContract } from './contract.ts'
import { leaseTestDatabase, newPostgresDatabase } from './databases.ts'

export type Driver = 'pglite' | 'postgres'

/** The drivers this run covers: the database suite runs once per driver. */
export const DRIVERS: Driver[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite']

/** A fresh, empty PostgreSQL database on the TEST_DATABASE_URL server (not migrated); dropped by `drop`. */
export function freshPostgresUrl(): Promise<{ url: string; drop: () => Promise<void> }> {
  return newPostgresDatabase(false)
}

/**
 * An empty migrated database of `driver` for this test, taken from the ones earlier tests of this
 * process handed back (emptied first) or made new; handed back when the test ends.
 */
export async function openTestDatabase(t: Test, driver: Driver): Promise<{ database: Database; url?: string }> {
  const lease = await leaseTestDatabase(driver)
  t.teardown(lease.giveBack)
  return { database: lease.database, url: lease.url }
}

/** A clock the test moves by hand. */
export function manualClock(start = new Date('2026-11-22T12:00:00Z')) {
  let now = start.getTime()
  const clock = () => new Date(now)
  clock.set = (d: Date | string) => {
    now = new Date(d).getTime()
  }
  clock.advance = (ms: number) => {
    now += ms
  }
  return clock
}

export interface TestAppOptions {
  driver?: Driver
  clock?: ReturnType<typeof manualClock> | (() => Date)
  analyzer?: Analyzer
  config?: Partial<Config>
  /** Reuse an open database instead of making a fresh one (several nodes on one database). */
  database?: Database
}

export async function buildTestApp(t: Test, opts: TestAppOptions = {}) {
  const database = opts.database ?? (await openTestDatabase(t, opts.driver ?? 'pglite')).database
  // No burst limit unless a test sets one (`config.rateLimits`): most tests send requests
  // faster than any plan's rate, on purpose.
  const config: Config = { ...loadConfig({ LOG_LEVEL: 'silent', ANALYSIS_WORKERS: '0', RATE_LIMITS: 'off' }), ...opts.config }
  const app: FastifyInstance = await buildApp({ config, database, clock: opts.clock, analyzer: opts.analyzer, logger: false })
  const violations: string[] = []
  // A violation fails the running test at once, where the response was received.
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload === 'string' || payload === null || payload === undefined || Buffer.isBuffer(payload)) {
      const found = checkContract({
        method: request.method,
        route: request.routeOptions.url,
        url: request.url,
        status: reply.statusCode,
        headers: reply.getHeaders(),
        body: payload === null || payload === undefined ? '' : String(payload),
      })
      for (const v of found) t.fail(`contract: ${v}`)
      violations.push(...found)
    }
    return payload
  })
  await app.ready()
  t.teardown(() => app.close())
  const repos = createRepositories(database.db)
  const deps = { repos, clock: opts.clock ?? systemClock, tokenPrefix: config.tokenPrefix }
  return {
    app,
    database,
    repos,
    violations,
    /** A new account on `plan` with one token; returns both. */
    async account(plan = 'free', email = `user-${randomBytes(5).toString('hex')}@example.com`) {
      const account = await createAccount(deps, { email, plan })
      const token = await createToken(deps, account.id, 'test token')
      return { account, token: token.token, tokenId: token.id }
    },
  }
}

/** A 200+ character English text; `n` makes distinct texts (distinct cache keys). */
export function englishText(n = 0): string {
  return (
    `Report ${n}: Tim Cook is the chief executive of Apple, which is based in Cupertino, California. ` +
    'Apple acquired Beats Electronics in 2014. Analysts in London said the company would open a new office in Berlin next year.'
  )
}
