// The page frame: head, navigation ("Overview", "Tokens", "Plan", "Playground"), the "Log out" button, and
// the notice/error banners. Every page goes through `page()`.
import { html, type Html } from './html.ts'

export type Section = 'overview' | 'tokens' | 'plan' | 'playground' | 'none'

export interface PageUser {
  email: string
  csrfToken: string
}

export interface PageOptions {
  title: string
  section?: Section
  user?: PageUser
  notice?: string
  error?: string
  body: Html
}

const NAV: { section: Section; href: string; label: string }[] = [
  { section: 'overview', href: '/dashboard', label: 'Overview' },
  { section: 'tokens', href: '/dashboard/tokens', label: 'Tokens' },
  { section: 'plan', href: '/dashboard/plan', label: 'Plan' },
  { section: 'playground', href: '/dashboard/playground', label: 'Playground' },
]

export function csrfField(token: string): Html {
  return html`<input type="hidden" name="_csrf" value="${token}">`
}

export function page(o: PageOptions): string {
  const user = o.user
  return `<!doctype html>\n${
    html`<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${o.title} · Text Entity Analysis dashboard</title>
<link rel="icon" href="/dashboard/assets/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/dashboard/assets/dashboard.css">
<script src="/dashboard/assets/dashboard.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top"><div class="inner">
<a class="brand" href="/dashboard">Text Entity Analysis</a>
${
  user
    ? html`<nav aria-label="Dashboard"><ul>${NAV.map(
        (n) => html`<li><a href="${n.href}"${n.section === o.section ? html` aria-current="page"` : ''}>${n.label}</a></li>`,
      )}</ul></nav>
<div class="who"><span>${user.email}</span><form method="post" action="/dashboard/logout" class="inline">${csrfField(user.csrfToken)}<button type="submit" class="secondary small">Log out</button></form></div>`
    : html`<nav aria-label="Account"><ul><li><a href="/dashboard/login"${o.section === 'none' && o.title === 'Log in' ? html` aria-current="page"` : ''}>Log in</a></li><li><a href="/dashboard/signup"${o.title === 'Sign up' ? html` aria-current="page"` : ''}>Sign up</a></li></ul></nav>`
}
</div></header>
<main id="main">
${o.notice ? html`<p class="notice" role="status">${o.notice}</p>` : ''}
${o.error ? html`<p class="error" role="alert">${o.error}</p>` : ''}
${o.body}
</main>
<footer>API reference: <a href="/docs">/docs</a>. Times are UTC.</footer>
</body>
</html>`.value
  }`
}

/** `2026-11-22 14:05 UTC` */
export function formatTime(d: Date | null | undefined): string {
  if (!d) return '—'
  return d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC'
}

export function formatDate(d: Date): string {
  return d.toISOString().slice(0, 10)
}

/** `$12.34` from cents; negative amounts as `−$1.00`. */
export function money(cents: number): string {
  const sign = cents < 0 ? '−' : ''
  return `${sign}$${(Math.abs(cents) / 100).toFixed(2)}`
}
