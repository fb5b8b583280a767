// The account dashboard under /dashboard: sign-up, login, tokens, plan and billing,
// usage chart, and the playground (an analysis drawn on its text). Server-rendered HTML, no build step. Encapsulated (not fastify-plugin): its form
// parsing, cookies and HTML error pages do not leak into the JSON API.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import formbody from '@fastify/formbody'
import cookie from '@fastify/cookie'
import { readFileSync } from 'node:fs'
import { DomainError } from '../errors.ts'
import { isDatabaseDown } from '../db/errors.ts'
import { html } from './html.ts'
import { page } from './layout.ts'
import type { Repositories } from '../db/repositories/index.ts'
import type { SessionView } from '../db/repositories/sessions.ts'
import type { Clock } from '../domain/clock.ts'
import type { AnalysisService } from '../analysis/service.ts'
import { SESSION_COOKIE, sameOrigin } from './security.ts'
import { lookup, sendPage } from './routes/common.ts'
import { authRoutes } from './routes/auth.ts'
import { tokenRoutes } from './routes/tokens.ts'
import { accountRoutes } from './routes/account.ts'
import { playgroundRoutes } from './routes/playground.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The dashboard session, when the request carried a live one. */
    dashboardSession?: SessionView
  }
}

/** What the dashboard's pages use: the account's repositories, the clock, and the playground's analysis. */
export interface DashboardOptions {
  repos: Pick<Repositories, 'accounts' | 'tokens' | 'usage' | 'billing' | 'sessions' | 'loginThrottle' | 'signupThrottle' | 'transaction'>
  clock: Clock
  tokenPrefix: string
  analysis: AnalysisService
}

const ASSETS: Record<string, { type: string; body: string }> = {
  'dashboard.css': { type: 'text/css; charset=utf-8', body: readFileSync(new URL('./assets/dashboard.css', import.meta.url), 'utf8') },
  'favicon.svg': { type: 'image/svg+xml', body: readFileSync(new URL('./assets/favicon.svg', import.meta.url), 'utf8') },
  'dashboard.js': { type: 'text/javascript; charset=utf-8', body: readFileSync(new URL('./assets/dashboard.js', import.meta.url), 'utf8') },
}

// No inline script or style anywhere, so the policy can be strict.
const CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"

export default async function dashboard(app: FastifyInstance, opts: DashboardOptions) {
  await app.register(formbody, { bodyLimit: 16 * 1024 })
  await app.register(cookie)
  const { repos, clock, tokenPrefix, analysis } = opts
  const { sessions, loginThrottle: throttle, signupThrottle: signups } = repos

  app.decorateRequest('dashboardSession', undefined)

  // Dead sessions and spent login counters go in the background; every node may do it, the
  // DELETEs are idempotent.
  const prune = setInterval(
    () => {
      const now = clock()
      Promise.all([sessions.prune(now), throttle.prune(now), signups.prune(now)]).catch((err) =>
        app.log.warn({ err }, 'dashboard prune failed'),
      )
    },
    10 * 60 * 1000,
  )
  prune.unref()
  app.addHook('onClose', async () => clearInterval(prune))

  app.addHook('onSend', async (_request, reply, payload) => {
    reply.headers({
      'content-security-policy': CSP,
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
      // Pages show account data and, once, a plain token: never cached anywhere.
      'cache-control': 'no-store',
    })
    return payload
  })

  app.addHook('preHandler', async (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method === 'POST' && !sameOrigin(request)) {
      return sendPage(
        reply,
        403,
        errorPage('Request refused', 'This form was not sent from this site, so it was not processed (CSRF protection).'),
      )
    }
    const value = request.cookies[SESSION_COOKIE]
    if (value) request.dashboardSession = await sessions.find(value, clock())
  })

  app.get('/assets/:name', async (request, reply) => {
    const asset = lookup(ASSETS, (request.params as { name: string }).name)
    if (!asset) return sendPage(reply, 404, notFoundPage())
    return reply.type(asset.type).send(asset.body)
  })

  await authRoutes(app, { repos, clock })
  await tokenRoutes(app, { repos, clock, tokenPrefix })
  await accountRoutes(app, { repos, clock })
  await playgroundRoutes(app, { repos, clock, analysis })

  app.setNotFoundHandler((_request, reply) => sendPage(reply, 404, notFoundPage()))

  app.setErrorHandler((err: Error & { statusCode?: number; code?: string }, request, reply) => {
    if (err instanceof DomainError) return sendPage(reply, 400, errorPage('That did not work', err.message))
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      const message = err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'The form was too large.' : 'The request could not be read.'
      return sendPage(reply, err.statusCode === 413 ? 413 : 400, errorPage('Bad request', message))
    }
    if (isDatabaseDown(err)) {
      request.log.warn({ err }, 'dashboard: database unavailable')
      reply.header('retry-after', '5')
      return sendPage(
        reply,
        503,
        errorPage('Service unavailable', 'The service cannot reach its database just now; try again in a few seconds.'),
      )
    }
    request.log.error({ err }, 'dashboard error')
    return sendPage(
      reply,
      500,
      errorPage('Something went wrong', `An unexpected error occurred; quote request id ${request.id} when reporting it.`),
    )
  })
}

function errorPage(title: string, message: string): string {
  return page({
    title,
    section: 'none',
    body: html`<div class="card narrow"><h1>${title}</h1><p>${message}</p><p><a href="/dashboard">Back to the dashboard</a></p></div>`,
  })
}

function notFoundPage(): string {
  return errorPage('Page not found', 'There is no dashboard page at this address.')
}
