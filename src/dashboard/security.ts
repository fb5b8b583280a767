// Cookies, sessions and CSRF for the dashboard.
//
// Session: the cookie `tea_session` holds 32 random bytes (base64url); the database keeps only
// their SHA-256. HttpOnly, SameSite=Lax, Path=/dashboard, Secure when the request came over
// HTTPS. Rotated at login (the old row is deleted, a new id is issued), deleted at logout.
//
// CSRF, two layers on every POST:
// 1. Origin check: a browser's `Sec-Fetch-Site` (or, from older browsers, `Origin`) must say
//    the form came from this very site; cross-site posts are refused before anything else runs.
// 2. A token in a hidden `_csrf` field. Logged in: it must equal the session row's csrf_token
//    (synchroniser token). Logged out (sign-up, log in): it must equal the `tea_csrf` cookie
//    (double-submit cookie: HttpOnly, SameSite=Strict, Path=/dashboard). The nodes share no
//    secret, so that cookie is not signed; layer 1 covers the cookie-injection weakness of an
//    unsigned double submit (a sibling sub-domain cannot forge a same-origin `Origin`).
import type { FastifyReply, FastifyRequest } from 'fastify'
import { timingSafeEqual } from 'node:crypto'
import { randomSecret } from '../db/repositories/sessions.ts'

export const SESSION_COOKIE = 'tea_session'
export const CSRF_COOKIE = 'tea_csrf'
const PATH = '/dashboard'

export function sameSecret(a: string | undefined, b: string | undefined): boolean {
  if (!a || !b) return false
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

export function isHttps(request: FastifyRequest): boolean {
  return request.protocol === 'https'
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, value: string, maxAgeSeconds: number) {
  reply.setCookie(SESSION_COOKIE, value, { path: PATH, httpOnly: true, sameSite: 'lax', secure: isHttps(request), maxAge: maxAgeSeconds })
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, { path: PATH, httpOnly: true, sameSite: 'lax', secure: isHttps(request) })
}

/** The logged-out forms' CSRF token: the existing cookie, or a new one set on this reply. */
export function preSessionCsrf(request: FastifyRequest, reply: FastifyReply): string {
  const existing = request.cookies[CSRF_COOKIE]
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing
  const token = randomSecret()
  reply.setCookie(CSRF_COOKIE, token, { path: PATH, httpOnly: true, sameSite: 'strict', secure: isHttps(request) })
  return token
}

/**
 * Layer 1: does the browser say this POST came from our own origin? `Sec-Fetch-Site` (sent by
 * every current browser) is authoritative and needs no knowledge of how a proxy rewrote the
 * request; older browsers are judged by the host in `Origin`. Requests with neither header
 * (curl, tests) pass on to the token check.
 */
export function sameOrigin(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site']
  if (typeof site === 'string') return site === 'same-origin' || site === 'none'
  const origin = request.headers.origin
  if (origin === undefined) return true
  try {
    // Both through URL, so a default port (":80", ":443") compares equal to none.
    return new URL(origin).host === new URL(`${request.protocol}://${request.host}`).host
  } catch {
    return false // "null" (sandboxed frames, some redirects) or garbage
  }
}

/** The first value of a form field as a string ('' when missing). */
export function field(body: unknown, name: string): string {
  if (!body || typeof body !== 'object') return ''
  const v = (body as Record<string, unknown>)[name]
  if (typeof v === 'string') return v
  if (Array.isArray(v) && typeof v[0] === 'string') return v[0]
  return ''
}
