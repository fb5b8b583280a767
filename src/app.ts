// The application as a plugin tree; src/server.ts is only the process. Tests build exactly
// this, with their own database and clock.
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { randomUUID } from 'node:crypto'
import { stdSerializers } from 'pino'
import type { Config } from './config.ts'
import type { Database } from './db/client.ts'
import { systemClock, type Clock } from './domain/clock.ts'
import type { Analyzer } from './analysis/analyzer.ts'
import { ServiceUnavailableError } from './errors.ts'
import databasePlugin from './plugins/app/database.ts'
import refundsPlugin from './plugins/app/refunds.ts'
import analysisCachePlugin from './plugins/app/analysis-cache.ts'
import analysisPlugin from './plugins/app/analysis.ts'
import errorsPlugin, { clientErrorHandler } from './plugins/app/errors.ts'
import authPlugin from './plugins/app/auth.ts'
import rateLimitPlugin from './plugins/app/rate-limit.ts'
import metricsPlugin from './plugins/app/metrics.ts'
import openapiRoutes from './plugins/app/openapi-routes.ts'
import swaggerPlugin from './plugins/external/swagger.ts'
import dashboard from './dashboard/index.ts'
import { analyzeText } from './routes/analyze.ts'
import { getQuota } from './routes/quota.ts'
import { getHealth, getMetrics, getReadiness } from './routes/operations.ts'

export interface AppOptions {
  config: Config
  database: Database
  clock?: Clock
  /** Defaults to `config.analysisWorkers`: a worker pool, or the main thread when 0. */
  analyzer?: Analyzer
  logger?: FastifyServerOptions['logger']
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/

/**
 * A logged error without the values its SQL statement carried. Drizzle writes a failed
 * statement's parameters (emails, token hashes, cache keys) into its error's message, stack and
 * `params`; PostgreSQL's `detail` quotes the values of a violated key. The SQL text itself has
 * only placeholders and stays, as do every code and the causes' messages.
 */
export function serializeError(err: Error): { [key: string]: unknown; type: string; message: string; stack: string } {
  const out = stdSerializers.err(err) as unknown as { [key: string]: unknown; type: string; message: string; stack: string }
  if (!out || typeof out !== 'object') return out
  const seen = new Set<unknown>()
  for (
    let e = err as { params?: unknown; cause?: unknown } | undefined;
    e && typeof e === 'object' && !seen.has(e);
    e = e.cause as typeof e
  ) {
    seen.add(e)
    if (!Array.isArray(e.params)) continue
    const values = `\nparams: ${String(e.params)}`
    for (const key of ['message', 'stack'] as const) {
      if (typeof out[key] === 'string') out[key] = out[key].replaceAll(values, '\nparams: [redacted]')
    }
  }
  for (const key of ['params', 'parameters', 'args', 'detail']) delete out[key]
  return out
}

export function loggerOptions(level: Config['logLevel']): FastifyServerOptions['logger'] {
  return {
    level,
    // Tokens, cookies and submitted text never reach the logs: headers that carry secrets are
    // redacted and bodies are never logged; URLs are logged without their query string; a
    // database error is logged without its statement's values.
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]'], censor: '[redacted]' },
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, path: req.url.split('?')[0] }),
      err: serializeError,
    },
  }
}

/**
 * Fastify's own number option trusts no hop at all (it cannot tell a proxy from a direct
 * client), so a hop count is given as the function proxy-addr would compile from it: the
 * nearest `hops` addresses are proxies, the one behind them is the client.
 */
export function trustProxyOption(trust: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  if (typeof trust !== 'number') return trust
  return (_address: string, hop: number) => hop < trust
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const { config, database } = opts
  const clock = opts.clock ?? systemClock
  const app = Fastify({
    logger: opts.logger ?? loggerOptions(config.logLevel),
    // Room for 30,000 astral characters written as JSON \u escapes, and no more.
    bodyLimit: 1024 * 1024,
    trustProxy: trustProxyOption(config.trustProxy),
    genReqId: (req) => {
      const given = req.headers['x-request-id']
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : `req-${randomUUID()}`
    },
    ajv: { customOptions: { strict: true } },
    // Start-up has no time limit: the analysis plugin loads the model (or starts the workers,
    // which load it), which on a busy machine takes longer than Fastify's default of 10 s a plugin.
    pluginTimeout: 0,
    // Requests that arrive while the node stops get our own 503 SHUTTING_DOWN (hook below),
    // in the documented error shape, instead of Fastify's built-in one.
    return503OnClosing: false,
    // Requests the HTTP parser refuses get the documented error shape too.
    clientErrorHandler,
  })
  // Only JSON bodies are accepted; any other type is a 400 UNSUPPORTED_MEDIA_TYPE.
  app.removeContentTypeParser('text/plain')

  // The per-request hooks here and in the plugins take a callback instead of returning a
  // promise where they need not wait: one promise and one microtask less each.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id)
    // Every answer (JSON, the docs' HTML and scripts, metrics) is exactly the type it declares.
    reply.header('x-content-type-options', 'nosniff')
    done(null, payload)
  })
  // Graceful stop: once close() begins, requests already running finish, and new /v1 requests
  // (on connections still open) are refused with 503 SHUTTING_DOWN so that clients retry elsewhere.
  let shuttingDown = false
  app.addHook('preClose', async () => {
    shuttingDown = true
  })
  app.addHook('onRequest', (request, _reply, done) => {
    if (shuttingDown && request.url.startsWith('/v1/')) {
      return done(new ServiceUnavailableError('SHUTTING_DOWN', 'This node is shutting down; retry the request', 1))
    }
    done()
  })

  // Each resource plugin creates what it owns and closes it in its own onClose hook. Fastify
  // runs those in reverse order of registration: the analyzer stops, then the refunds the
  // finished requests left are written (the database itself closes after the app: src/server.ts).
  await app.register(databasePlugin, {
    database,
    // Its request was answered 503: the count the database applied late is refunded. The queue
    // is registered next, before any request can run.
    onLateCount: (accountId, day, k) => {
      for (let i = 0; i < k; i++) app.refunds.defer({ accountId, day, used: 0 })
    },
  })
  await app.register(refundsPlugin, { shutdownGraceMs: config.shutdownGraceMs })
  await app.register(analysisCachePlugin, { clock, maxBytes: config.cacheMaxBytes })
  await app.register(analysisPlugin, { config, clock, analyzer: opts.analyzer })
  await app.register(metricsPlugin)
  await app.register(authPlugin, { clock, tokenPrefix: config.tokenPrefix })
  await app.register(rateLimitPlugin, { limits: config.rateLimits, clock })
  await app.register(errorsPlugin)
  await app.register(swaggerPlugin)
  // Each handler gets what it uses, nothing more.
  await app.register(openapiRoutes, {
    handlers: {
      analyzeText: analyzeText({ service: app.analysis }),
      getQuota: getQuota({ clock }),
      getHealth: getHealth(),
      getReadiness: getReadiness({ ping: () => database.ping(), analyzer: app.analyzer, shuttingDown: () => shuttingDown }),
      getMetrics: getMetrics({ registry: app.metrics.registry }),
    },
    // Checked by the statement that counts the request: one round trip instead of two.
    deferTokenCheck: ['analyzeText'],
    // The quota read answers a small object many times a second.
    compiledResponses: ['getQuota'],
  })
  await app.register(dashboard, {
    prefix: '/dashboard',
    repos: app.repos,
    clock,
    tokenPrefix: config.tokenPrefix,
    analysis: app.analysis,
  })
  return app
}
