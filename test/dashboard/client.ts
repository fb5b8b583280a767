// A tiny cookie-keeping client over app.inject for the dashboard tests: it remembers cookies
// like a browser (per path, honouring Max-Age=0) and the last page's hidden CSRF field.
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'

export const PASSWORD = 'correct horse battery staple'

export interface Response {
  status: number
  body: string
  headers: LightMyRequestResponse['headers']
  location?: string
  setCookies: string[]
}

export function csrfOf(body: string): string | undefined {
  return /name="_csrf" value="([^"]*)"/.exec(body)?.[1]
}

export class DashboardClient {
  readonly cookies = new Map<string, string>()
  /** The CSRF token of the last page that had a form. */
  csrf: string | undefined
  headers: Record<string, string> = {}
  email: string | undefined
  /** The client IP the server sees. */
  remoteAddress = '127.0.0.1'

  constructor(readonly app: FastifyInstance) {}

  private cookieHeader(): string | undefined {
    if (this.cookies.size === 0) return undefined
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }

  private remember(r: LightMyRequestResponse): Response {
    const raw = r.headers['set-cookie']
    const setCookies = raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)]
    for (const c of setCookies) {
      const [pair, ...attrs] = c.split(';').map((s) => s.trim())
      const eq = pair.indexOf('=')
      const name = pair.slice(0, eq)
      const value = pair.slice(eq + 1)
      const expired = attrs.some((a) => /^max-age=0$/i.test(a) || (/^expires=/i.test(a) && new Date(a.slice(8)).getTime() < Date.now()))
      if (expired || value === '') this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    const csrf = csrfOf(r.body)
    if (csrf) this.csrf = csrf
    return { status: r.statusCode, body: r.body, headers: r.headers, location: r.headers.location, setCookies }
  }

  async get(url: string): Promise<Response> {
    const cookie = this.cookieHeader()
    return this.remember(
      await this.app.inject({
        method: 'GET',
        url,
        remoteAddress: this.remoteAddress,
        headers: { ...this.headers, ...(cookie ? { cookie } : {}) },
      }),
    )
  }

  /** POSTs a form; `_csrf` is the last page's token unless the form sets it (null: leave it out). */
  async post(url: string, form: Record<string, string | null> = {}, extraHeaders: Record<string, string> = {}): Promise<Response> {
    const fields: Record<string, string> = {}
    if (!('_csrf' in form) && this.csrf) fields._csrf = this.csrf
    for (const [k, v] of Object.entries(form)) if (v !== null) fields[k] = v
    const cookie = this.cookieHeader()
    return this.remember(
      await this.app.inject({
        method: 'POST',
        url,
        remoteAddress: this.remoteAddress,
        headers: { ...this.headers, 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}), ...extraHeaders },
        payload: new URLSearchParams(fields).toString(),
      }),
    )
  }

  async signUp(email: string, password = PASSWORD): Promise<Response> {
    await this.get('/dashboard/signup')
    return this.post('/dashboard/signup', { email, password })
  }

  async logIn(email: string, password = PASSWORD): Promise<Response> {
    await this.get('/dashboard/login')
    return this.post('/dashboard/login', { email, password })
  }

  /** Sign up and log in; returns the account id. */
  async newAccount(email: string): Promise<void> {
    this.email = email
    await this.signUp(email)
    const r = await this.logIn(email)
    if (r.status !== 303 || r.location !== '/dashboard') throw new Error(`login failed: ${r.status}`)
    await this.get('/dashboard')
  }

  /** After a jump of the test clock the session may have expired: log in again if so. */
  async stayLoggedIn(): Promise<void> {
    if ((await this.get('/dashboard')).status === 303) {
      const r = await this.logIn(this.email!)
      if (r.status !== 303) throw new Error(`login failed: ${r.status}`)
      await this.get('/dashboard')
    }
  }
}

/** The visible text of some HTML, whitespace collapsed (for readable assertions). */
export function text(body: string): string {
  return body
    .replace(/<script[\s\S]*?<\/script>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim()
}
