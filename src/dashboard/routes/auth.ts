// Sign-up, log in, log out.
//
// No page reveals whether an email is registered:
// - Log in answers "Email or password is incorrect" for an unknown email and for a wrong
//   password alike, and spends the same argon2 work on both.
// - Sign-up always answers the same way: the login page with the same notice, whether the
//   email was new (the account is created) or already registered (nothing changes). The
//   password is hashed in both cases, so timing tells nothing either.
// Failed logins are throttled per email (whether or not registered) and per client IP;
// sign-ups per client IP.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { DomainError } from '../../errors.ts'
import { assertEmail, createAccount, normalizeEmail } from '../../domain/accounts.ts'
import { hashPassword, PASSWORD_MIN_LENGTH, verifyPassword } from '../../domain/passwords.ts'
import { html } from '../html.ts'
import { csrfField, formatTime, page } from '../layout.ts'
import { clearSessionCookie, CSRF_COOKIE, field, preSessionCsrf, sameSecret, SESSION_COOKIE, setSessionCookie } from '../security.ts'
import type { Repositories } from '../../db/repositories/index.ts'
import { randomSecret } from '../../db/repositories/sessions.ts'
import type { Clock } from '../../domain/clock.ts'
import { csrfRejected, lookup, requireSession, sendPage } from './common.ts'

export const PASSWORD_MAX_LENGTH = 1024
export const LOGIN_FAILED = 'Email or password is incorrect'

const NOTICES: Record<string, string> = {
  'logged-out': 'You are logged out.',
}

function loginPage(csrf: string, o: { email?: string; notice?: string; error?: string } = {}) {
  return page({
    title: 'Log in',
    section: 'none',
    notice: o.notice,
    error: o.error,
    body: html`<div class="card narrow"><h1>Log in</h1>
<form method="post" action="/dashboard/login" novalidate>
${csrfField(csrf)}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${o.email ?? ''}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions"><button type="submit">Log in</button><a href="/dashboard/signup">Create an account</a></div>
</form></div>`,
  })
}

function signupPage(csrf: string, o: { email?: string; error?: string } = {}) {
  return page({
    title: 'Sign up',
    section: 'none',
    error: o.error,
    body: html`<div class="card narrow"><h1>Sign up</h1>
<p>Start on the free plan: ${100} requests a day, up to 3 API tokens. Upgrade any time.</p>
<form method="post" action="/dashboard/signup" novalidate>
${csrfField(csrf)}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="email" required value="${o.email ?? ''}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="new-password" required minlength="${PASSWORD_MIN_LENGTH}" aria-describedby="password-hint">
<p class="hint" id="password-hint">At least ${PASSWORD_MIN_LENGTH} characters.</p>
<div class="actions"><button type="submit">Sign up</button><a href="/dashboard/login">I have an account</a></div>
</form></div>`,
  })
}

/** Logged-out POSTs: the hidden field must match the double-submit cookie. */
function preSessionCsrfOk(request: FastifyRequest): boolean {
  return sameSecret(field(request.body, '_csrf'), request.cookies[CSRF_COOKIE])
}

export async function authRoutes(
  app: FastifyInstance,
  deps: { repos: Pick<Repositories, 'accounts' | 'sessions' | 'loginThrottle' | 'signupThrottle'>; clock: Clock },
) {
  const { repos, clock } = deps
  const { sessions, loginThrottle: throttle, signupThrottle: signups } = repos
  // Verified against when the email is unknown, so both failures cost the same time.
  let dummyHash: Promise<string> | undefined
  const dummy = () => (dummyHash ??= hashPassword(randomSecret()))

  app.get('/login', async (request, reply) => {
    if (request.dashboardSession) return reply.redirect('/dashboard', 303)
    const notice = lookup(NOTICES, (request.query as Record<string, unknown>).notice)
    return sendPage(reply, 200, loginPage(preSessionCsrf(request, reply), { notice }))
  })

  app.get('/signup', async (request, reply) => {
    if (request.dashboardSession) return reply.redirect('/dashboard', 303)
    return sendPage(reply, 200, signupPage(preSessionCsrf(request, reply)))
  })

  app.post('/signup', async (request, reply) => {
    if (!preSessionCsrfOk(request)) return csrfRejected(reply)
    const csrf = preSessionCsrf(request, reply)
    const email = normalizeEmail(field(request.body, 'email'))
    const password = field(request.body, 'password')
    const badEmail = emailProblem(email)
    if (badEmail) return sendPage(reply, 400, signupPage(csrf, { email, error: badEmail }))
    const length = [...password].length
    if (length < PASSWORD_MIN_LENGTH) {
      return sendPage(
        reply,
        400,
        signupPage(csrf, { email, error: `The password must have at least ${PASSWORD_MIN_LENGTH} characters; it has ${length}.` }),
      )
    }
    if (length > PASSWORD_MAX_LENGTH) {
      return sendPage(reply, 400, signupPage(csrf, { email, error: `The password may have at most ${PASSWORD_MAX_LENGTH} characters.` }))
    }
    const now = clock()
    const blocked = await signups.hit(request.ip, now)
    if (blocked) {
      const seconds = Math.ceil((blocked.getTime() - now.getTime()) / 1000)
      const minutes = Math.max(1, Math.ceil(seconds / 60))
      reply.header('retry-after', String(seconds))
      return sendPage(
        reply,
        429,
        signupPage(csrf, {
          email,
          error: `Too many sign-ups from your network. Try again in ${minutes} minute${minutes === 1 ? '' : 's'} (after ${formatTime(blocked)}).`,
        }),
      )
    }
    const passwordHash = await hashPassword(password)
    try {
      await createAccount(deps, { email, plan: 'free', passwordHash })
    } catch (err) {
      // Already registered: answer exactly as for a new account (see the top of this file).
      if (!(err instanceof DomainError && err.code === 'EMAIL_TAKEN')) throw err
    }
    return sendPage(
      reply,
      200,
      loginPage(csrf, {
        email,
        notice: `Sign-up received for ${email}. Log in with your email and password to continue. (If this email already had an account, use that account's password.)`,
      }),
    )
  })

  app.post('/login', async (request: FastifyRequest, reply: FastifyReply) => {
    if (!preSessionCsrfOk(request)) return csrfRejected(reply)
    const csrf = preSessionCsrf(request, reply)
    const email = normalizeEmail(field(request.body, 'email'))
    const password = field(request.body, 'password')
    // No account can have it, and the database could not even look it up (a NUL): a plain 400,
    // neither counted nor checked.
    const badEmail = emailProblem(email)
    if (badEmail) return sendPage(reply, 400, loginPage(csrf, { email, error: badEmail }))
    const now = clock()
    // Counted before the password is checked, so concurrent guesses cannot all be checked.
    const attempt = await throttle.begin(email, request.ip, now)
    if (attempt.blockedUntil) {
      const blocked = attempt.blockedUntil
      const minutes = Math.max(1, Math.ceil((blocked.getTime() - now.getTime()) / 60_000))
      reply.header('retry-after', String(Math.ceil((blocked.getTime() - now.getTime()) / 1000)))
      return sendPage(
        reply,
        429,
        loginPage(csrf, {
          email,
          error: `Too many failed login attempts for this account or from your network. Try again in ${minutes} minute${minutes === 1 ? '' : 's'} (after ${formatTime(blocked)}).`,
        }),
      )
    }
    const account = await repos.accounts.findByEmail(email)
    let ok = false
    if (account?.passwordHash && password.length <= PASSWORD_MAX_LENGTH) ok = await verifyPassword(account.passwordHash, password)
    else await verifyPassword(await dummy(), password.slice(0, PASSWORD_MAX_LENGTH))
    // A failure stays counted (it was counted above).
    if (!ok || !account) return sendPage(reply, 400, loginPage(csrf, { email, error: LOGIN_FAILED }))
    await throttle.succeeded(attempt)
    // Rotation: whatever session this browser had is ended and a new id issued.
    const previous = request.cookies[SESSION_COOKIE]
    if (previous) await sessions.delete(previous)
    const created = await sessions.create(account.id, now)
    setSessionCookie(request, reply, created.cookie, Math.floor(sessions.policy.absoluteMs / 1000))
    return reply.redirect('/dashboard', 303)
  })

  app.post('/logout', async (request, reply) => {
    const session = requireSession(request, reply)
    if (!session) return reply
    if (!sameSecret(field(request.body, '_csrf'), session.csrfToken)) return csrfRejected(reply)
    await sessions.delete(request.cookies[SESSION_COOKIE]!)
    clearSessionCookie(request, reply)
    return reply.redirect('/dashboard/login?notice=logged-out', 303)
  })
}

/** Why an email cannot be an account's (the message to show on the form), or undefined. */
function emailProblem(email: string): string | undefined {
  try {
    assertEmail(email)
    return undefined
  } catch (err) {
    if (err instanceof DomainError) return err.message
    throw err
  }
}
