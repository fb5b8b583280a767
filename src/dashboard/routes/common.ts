import type { FastifyReply, FastifyRequest } from 'fastify'
import { html } from '../html.ts'
import { page, type PageUser } from '../layout.ts'
import type { SessionView } from '../../db/repositories/sessions.ts'
import { field, sameSecret } from '../security.ts'

export function sendPage(reply: FastifyReply, status: number, markup: string) {
  return reply.code(status).type('text/html; charset=utf-8').send(markup)
}

export function pageUser(session: SessionView): PageUser {
  return { email: session.email, csrfToken: session.csrfToken }
}

/**
 * The live session, or a reply already sent: a redirect to the login page for a GET, a 403 page
 * for a POST (a form sent after the session ended is not replayed).
 */
export function requireSession(request: FastifyRequest, reply: FastifyReply): SessionView | undefined {
  const session = request.dashboardSession
  if (session) return session
  if (request.method === 'GET' || request.method === 'HEAD') {
    reply.redirect('/dashboard/login', 303)
  } else {
    sendPage(
      reply,
      403,
      page({
        title: 'Session ended',
        section: 'none',
        body: html`<div class="card narrow"><h1>Your session has ended</h1><p>Nothing was changed. <a href="/dashboard/login">Log in</a> and try again.</p></div>`,
      }),
    )
  }
  return undefined
}

/** A logged-in POST: a live session and its CSRF token in the form; otherwise the reply is sent. */
export function requireSessionPost(request: FastifyRequest, reply: FastifyReply): SessionView | undefined {
  const session = requireSession(request, reply)
  if (!session) return undefined
  if (!sameSecret(field(request.body, '_csrf'), session.csrfToken)) {
    csrfRejected(reply)
    return undefined
  }
  return session
}

export function csrfRejected(reply: FastifyReply) {
  return sendPage(
    reply,
    403,
    page({
      title: 'Request refused',
      section: 'none',
      body: html`<div class="card narrow"><h1>Request refused</h1><p>The form's security token was missing or out of date, so nothing was changed (CSRF protection). Go back, reload the page and try again.</p><p><a href="/dashboard">Back to the dashboard</a></p></div>`,
    }),
  )
}

/** A value of a fixed table by a key from the request; own keys only (no `__proto__`, `constructor`). */
export function lookup<T>(table: Record<string, T>, key: unknown): T | undefined {
  return typeof key === 'string' && Object.hasOwn(table, key) ? table[key] : undefined
}
