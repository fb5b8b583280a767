// Environment → typed Config, validated once at start-up; nothing else reads process.env.
import { isIP } from 'node:net'
import { availableParallelism } from 'node:os'
import { resolve } from 'node:path'

export interface Config {
  port: number
  host: string
  /** Set: a PostgreSQL server through postgres.js. Unset: embedded PGlite in `dataDir`. */
  databaseUrl: string | undefined
  dataDir: string
  /** Connections to the PostgreSQL server (postgres.js pool); unused with PGlite. */
  databasePoolMax: number
  /**
   * Deadline of every database statement, in ms: past it the request is answered 503
   * DATABASE_UNAVAILABLE (on PostgreSQL also the server's statement_timeout).
   */
  databaseTimeoutMs: number
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  /** Prefix of every token this deployment issues, `<service>_live_`. */
  tokenPrefix: string
  /**
   * Bound of the in-process cache level, in bytes of serialised results (UTF-16). The cached
   * objects take about that much of the main thread's heap (plus the LRU's own entries), so it
   * is part of a node's peak RSS: the default, 32 MiB (~15,000 results of 2,000-character
   * texts), fits the 400 MB budget of a node with 2 workers (docs/performance.md).
   * The shared database level is not bounded by it.
   */
  cacheMaxBytes: number
  /** Worker threads running the analysis (default: one per core); 0 runs it on the main thread. */
  analysisWorkers: number
  /** Analyses waiting for a worker before the service answers 503. */
  analysisQueueMax: number
  /** An analysis running longer is abandoned (its worker replaced) and answered with 503. */
  analysisTimeoutMs: number
  /**
   * Burst limit: requests per second and bucket size of each token, by plan (token bucket,
   * src/domain/rate-limit.ts); a plan not listed is not limited. Undefined: no burst limit.
   * Kept per node: behind N nodes a token can send up to N times the rate.
   */
  rateLimits: RateLimits | undefined
  /**
   * Fair share of the analysis queue: the fraction of a node's places (workers + queue) one
   * account may hold while other accounts hold places too, by plan (src/analysis/pool.ts).
   */
  queueShares: Record<string, number>
  /**
   * Behind reverse proxies: how many hops to trust, or the proxies' addresses (IPs, CIDR ranges,
   * or proxy-addr's names `loopback`, `linklocal`, `uniquelocal`). Client addresses and HTTPS
   * come from X-Forwarded-* only through those hops. `false`: no proxy, the socket's address.
   */
  trustProxy: TrustProxy
  /** After SIGTERM, how long requests in flight may take before the process exits anyway. */
  shutdownGraceMs: number
}

export type TrustProxy = false | number | string[]

export type RateLimits = Record<string, { perSecond: number; burst: number }>

/** Plan → requests per second / burst; documented in openapi.yaml (info) and README. */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  free: { perSecond: 5, burst: 10 },
  starter: { perSecond: 10, burst: 20 },
  pro: { perSecond: 25, burst: 50 },
  business: { perSecond: 50, burst: 100 },
}

export const DEFAULT_QUEUE_SHARES: Record<string, number> = { free: 0.125, starter: 0.25, pro: 0.5, business: 0.75 }

export class ConfigError extends Error {
  constructor(variable: string, value: string, expected: string) {
    super(`config: ${variable}=${JSON.stringify(value)} is invalid; expected ${expected}`)
    this.name = 'ConfigError'
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const n = Number(raw)
  if (!Number.isInteger(n) || n < min || n > max) throw new ConfigError(name, raw, `an integer from ${min} to ${max}`)
  return n
}

const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal']

function isProxyAddress(entry: string): boolean {
  if (PROXY_NAMES.includes(entry)) return true
  const [address, bits, ...rest] = entry.split('/')
  const version = isIP(address)
  if (!version || rest.length > 0) return false
  if (bits === undefined) return true
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128)
}

/**
 * A hop count or a list of addresses. `true` (trust every hop) is refused: with it the client
 * address is whatever the client writes first in X-Forwarded-For, so per-address limits fail.
 */
function trustProxy(env: NodeJS.ProcessEnv): TrustProxy {
  const raw = (env.TRUST_PROXY ?? '').trim()
  if (raw === '' || /^(0|false|no)$/i.test(raw)) return false
  if (/^(true|yes)$/i.test(raw)) {
    throw new ConfigError(
      'TRUST_PROXY',
      raw,
      'the number of proxies in front of the service (e.g. 1 behind one nginx) or their addresses (e.g. 127.0.0.1 or 10.0.0.0/8, comma-separated); ' +
        '"true" trusted every hop, which lets any client choose its own address through X-Forwarded-For',
    )
  }
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw)
    if (hops > 16) throw new ConfigError('TRUST_PROXY', raw, 'a number of proxy hops from 0 to 16, or proxy addresses')
    return hops === 0 ? false : hops
  }
  const entries = raw.split(',').map((e) => e.trim())
  const bad = entries.find((e) => !isProxyAddress(e))
  if (bad !== undefined) {
    throw new ConfigError(
      'TRUST_PROXY',
      raw,
      `a number of proxy hops, or comma-separated IP addresses or CIDR ranges of the proxies ("${bad}" is neither)`,
    )
  }
  return entries
}

/** `RATE_LIMITS`: `off`, or `plan=perSecond/burst` pairs separated by commas, over the defaults. */
function rateLimits(env: NodeJS.ProcessEnv): RateLimits | undefined {
  const raw = env.RATE_LIMITS
  if (raw === undefined || raw.trim() === '') return DEFAULT_RATE_LIMITS
  if (raw.trim() === 'off') return undefined
  const limits = { ...DEFAULT_RATE_LIMITS }
  for (const part of raw.split(',')) {
    const m = /^\s*([a-z][a-z0-9_-]*)=(\d+(?:\.\d+)?)\/(\d+)\s*$/.exec(part)
    if (!m || Number(m[2]) <= 0 || Number(m[3]) < 1)
      throw new ConfigError('RATE_LIMITS', raw, '"off" or plan=perSecond/burst pairs, e.g. free=5/10,business=50/100')
    limits[m[1]] = { perSecond: Number(m[2]), burst: Number(m[3]) }
  }
  return limits
}

/** `QUEUE_SHARES`: `plan=fraction` pairs (0 < fraction ≤ 1) separated by commas, over the defaults. */
function queueShares(env: NodeJS.ProcessEnv): Record<string, number> {
  const raw = env.QUEUE_SHARES
  const shares = { ...DEFAULT_QUEUE_SHARES }
  if (raw === undefined || raw.trim() === '') return shares
  for (const part of raw.split(',')) {
    const m = /^\s*([a-z][a-z0-9_-]*)=(\d+(?:\.\d+)?)\s*$/.exec(part)
    if (!m || Number(m[2]) <= 0 || Number(m[2]) > 1)
      throw new ConfigError('QUEUE_SHARES', raw, 'plan=fraction pairs with 0 < fraction <= 1, e.g. free=0.125,business=0.75')
    shares[m[1]] = Number(m[2])
  }
  return shares
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const logLevel = (env.LOG_LEVEL || 'info') as Config['logLevel']
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError('LOG_LEVEL', logLevel, LOG_LEVELS.join(', '))
  const tokenPrefix = env.TOKEN_PREFIX || 'tea_live_'
  if (!/^[a-z][a-z0-9]{1,15}_live_$/.test(tokenPrefix)) {
    throw new ConfigError('TOKEN_PREFIX', tokenPrefix, 'lower-case letters and digits followed by "_live_", e.g. tea_live_')
  }
  const databaseUrl = env.DATABASE_URL || undefined
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL', databaseUrl, 'a postgres:// or postgresql:// URL')
  }
  return {
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: env.HOST || '0.0.0.0',
    databaseUrl,
    dataDir: resolve(env.DATA_DIR || './data'),
    databasePoolMax: integer(env, 'DATABASE_POOL_MAX', 10, 2, 1000),
    databaseTimeoutMs: integer(env, 'DATABASE_TIMEOUT_MS', 2000, 100, 600_000),
    logLevel,
    tokenPrefix,
    cacheMaxBytes: integer(env, 'CACHE_MAX_BYTES', 32 * 1024 * 1024, 0, 2 ** 40),
    analysisWorkers: integer(env, 'ANALYSIS_WORKERS', availableParallelism(), 0, 64),
    analysisQueueMax: integer(env, 'ANALYSIS_QUEUE_MAX', 64, 1, 100_000),
    analysisTimeoutMs: integer(env, 'ANALYSIS_TIMEOUT_MS', 10_000, 100, 600_000),
    rateLimits: rateLimits(env),
    queueShares: queueShares(env),
    trustProxy: trustProxy(env),
    shutdownGraceMs: integer(env, 'SHUTDOWN_GRACE_MS', 10_000, 0, 3_600_000),
  }
}
