// The dashboard in a real browser: Debian's Chromium driven by playwright-core against the real
// server on a real port. Flows: sign up → create a token → GET /v1/quota with it over HTTP →
// revoke it → 401; spend the free quota through the API → upgrade to starter → the next call
// succeeds and the ledger shows the prorated charge; the chart shows the day's count.
// Screenshots of every page (laptop and phone) go to test-output/dashboard/ (git-ignored).
import t from 'tap'
import { mkdirSync, existsSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { buildTestApp, englishText, manualClock } from '../helpers/app.ts'
import { CHROMIUM, OUT, openInChromium, phoneContext } from './chromium.ts'

if (!existsSync(CHROMIUM)) {
  // Not a silent pass: the run shows the test as failed with the reason.
  t.fail(`Chromium not found at ${CHROMIUM}; install Debian's chromium package (apt-get install chromium) or set CHROMIUM_PATH`)
} else {
  t.test('the dashboard in Chromium', async (t) => {
    mkdirSync(OUT, { recursive: true })
    // Fixed time, so the billing arithmetic and the chart's "today" are known; moved by hand below.
    const clock = manualClock(new Date('2026-11-22T12:00:00Z'))
    const { app } = await buildTestApp(t, { clock })
    const { base, browser, context } = await openInChromium(t, app)
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base })
    const page = await context.newPage()
    const consoleErrors: string[] = []
    page.on('response', (r) => {
      if (r.status() >= 400 && !r.url().includes('/v1/')) consoleErrors.push(`${r.status()} ${new URL(r.url()).pathname}`)
    })
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text())
    })
    // Every page that is photographed is also checked: each visible field has a <label>.
    const unlabelled: string[] = []
    const shot = async (name: string, p: Page = page) => {
      const missing = await p.evaluate(() =>
        [...document.querySelectorAll<HTMLInputElement | HTMLSelectElement>('input:not([type=hidden]), select, textarea')]
          .filter((el) => !el.labels || el.labels.length === 0)
          .map((el) => el.name || el.id),
      )
      unlabelled.push(...missing.map((m) => `${name}: ${m}`))
      await p.screenshot({ path: `${OUT}/${name}.png`, fullPage: true })
    }
    const api = (path: string, token: string, body?: unknown) =>
      fetch(base + path, {
        method: body ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      })
    const email = 'browser.user@example.com'
    const password = 'a long enough passphrase'

    await t.test('sign up and log in, by keyboard', async (t) => {
      await page.goto(base + '/dashboard')
      t.equal(new URL(page.url()).pathname, '/dashboard/login', 'logged out: sent to the login page')
      await page.getByRole('link', { name: 'Sign up', exact: true }).click()
      await shot('01-signup')
      await page.getByLabel('Email').fill(email)
      await page.getByLabel('Password').fill(password)
      await page.getByLabel('Password').press('Enter') // submits the form: no mouse needed
      await page.waitForURL('**/dashboard/signup')
      t.match(await page.getByRole('status').innerText(), /Sign-up received for browser\.user@example\.com/)
      await shot('02-login')
      t.equal(await page.getByLabel('Email').inputValue(), email, 'the email is filled in')
      await page.getByLabel('Password').fill(password)
      await page.getByRole('button', { name: 'Log in' }).click()
      await page.waitForURL(base + '/dashboard')
      t.ok(await page.getByRole('heading', { name: 'Overview' }).isVisible())
      const cookies = await context.cookies()
      const session = cookies.find((c) => c.name === 'tea_session')!
      t.equal(session.httpOnly, true)
      t.equal(session.sameSite, 'Lax')
      t.equal(session.path, '/dashboard')
      t.equal(await page.evaluate(() => document.cookie), '', 'no cookie is readable by script')
    })

    let token = ''
    await t.test('create a token, use it over HTTP, revoke it: the API answers 401', async (t) => {
      await page.getByRole('link', { name: 'Tokens', exact: true }).click()
      await page.waitForURL('**/dashboard/tokens')
      await page.getByLabel('Token name').fill('laptop script')
      await page.getByRole('button', { name: 'Create token' }).click()
      await page.getByText('Copy it now: it cannot be shown again').waitFor()
      token = await page.getByLabel('New token').inputValue()
      t.match(token, /^tea_live_[0-9A-Za-z]{38}$/)
      await page.getByRole('button', { name: 'Copy' }).click()
      await page.getByText('Copied to the clipboard.').waitFor()
      t.equal(await page.evaluate(() => navigator.clipboard.readText()), token, 'the copy button copies the token')
      await shot('03-token-created')

      const quota = await api('/v1/quota', token)
      t.equal(quota.status, 200, 'GET /v1/quota works with the new token')
      t.same(((await quota.json()) as { daily: unknown }).daily, { limit: 100, used: 0, remaining: 100 })

      await page.getByRole('link', { name: 'Tokens', exact: true }).click()
      t.notOk((await page.content()).includes(token), 'the token is not shown again')
      const row = page.getByRole('row', { name: /laptop script/ })
      t.match(await row.innerText(), /laptop script\s+tea_live_\S{4}…\s+2026-11-22 12:00 UTC\s+2026-11-22 12:00 UTC\s+valid/)
      await shot('04-tokens')
      await row.getByRole('button', { name: 'Revoke' }).click()
      await page.getByRole('heading', { name: /Revoke token “laptop script”\?/ }).waitFor()
      await shot('05-revoke-confirm')
      t.equal(await page.evaluate(() => document.activeElement?.textContent), 'Revoke', 'the confirm button has the focus')
      await page.keyboard.press('Enter')
      await page.getByText('Token revoked.').waitFor()
      t.match(await page.getByRole('row', { name: /laptop script/ }).innerText(), /revoked/)
      const after = await api('/v1/quota', token)
      t.equal(after.status, 401, 'the revoked token is refused at once')
      t.equal(((await after.json()) as { code: string }).code, 'INVALID_TOKEN')
    })

    await t.test(
      'spend the free quota, upgrade to starter mid-cycle: the next call succeeds; the ledger shows the proration',
      async (t) => {
        await page.getByLabel('Token name').fill('batch job')
        await page.getByRole('button', { name: 'Create token' }).click()
        token = await page.getByLabel('New token').inputValue()

        // Half-way through the first billing cycle (Nov 22 12:00 → Dec 22 12:00).
        clock.set('2026-12-07T12:00:00Z')
        const text = englishText(7)
        for (let i = 0; i < 100; i++) {
          const r = await api('/v1/analyze', token, { text })
          if (r.status !== 200) t.fail(`call ${i + 1} answered ${r.status}`)
          await r.arrayBuffer()
        }
        const spent = await api('/v1/analyze', token, { text })
        t.equal(spent.status, 429, 'the 101st call of the day is refused')

        // The session went idle for 15 days: the dashboard asks for a login again.
        await page.getByRole('link', { name: 'Plan', exact: true }).click()
        await page.waitForURL('**/dashboard/login')
        await page.getByLabel('Email').fill(email)
        await page.getByLabel('Password').fill(password)
        await page.getByRole('button', { name: 'Log in' }).click()
        await page.waitForURL(base + '/dashboard')
        await page.getByRole('link', { name: 'Plan', exact: true }).click()
        await page.waitForURL('**/dashboard/plan')
        t.match(await page.locator('dl.stats').first().innerText(), /free[\s\S]*100 of 100/)
        await shot('06-plan')
        await page.getByLabel('Plan').selectOption('starter')
        await page.getByRole('button', { name: 'Preview change' }).click()
        await page.waitForURL('**/dashboard/plan/change?plan=starter')
        t.equal(await page.getByTestId('quote-amount').innerText(), '$14.50')
        t.match(await page.getByTestId('quote').innerText(), /\$14\.50 charged now: \(\$29\.00 − \$0\.00\) × 15 of 30 days left/)
        await shot('07-plan-preview')
        t.equal((await api('/v1/analyze', token, { text })).status, 429, 'nothing changes before confirming')
        await page.getByRole('button', { name: 'Change plan' }).click()
        await page.waitForURL('**/dashboard/plan?notice=upgrade')

        const next = await api('/v1/analyze', token, { text })
        t.equal(next.status, 200, 'the next API call succeeds at once')
        t.equal(next.headers.get('x-ratelimit-limit'), '1000')
        await page.reload()
        const ledger = page.getByRole('table', { name: 'Every plan change and what it cost' })
        t.match(
          await ledger.innerText(),
          /2026-12-07 12:00 UTC\s+free → starter\s+Upgrade \(prorated\)\s+50\.0% of the cycle left \(2026-11-22 – 2026-12-22\)\s+2026-12-07 12:00 UTC\s+\$14\.50/,
        )
        await shot('08-plan-upgraded')
      },
    )

    await t.test("the usage chart shows the day's count", async (t) => {
      await page.getByRole('link', { name: 'Overview', exact: true }).click()
      await page.waitForURL(base + '/dashboard')
      const today = page.locator('svg g.bar.today')
      t.equal(await today.getAttribute('data-used'), '101')
      t.equal(await today.locator('text.value').textContent(), '101', 'the count is written on the bar')
      t.equal(await today.locator('title').textContent(), '2026-12-07 (today): 101 requests of 1000')
      t.equal(await page.locator('svg g.bar').count(), 30)
      t.match(await page.locator('figure.chart figcaption').innerText(), /Today: 101 of 1000/)
      const box = await page.locator('figure.chart svg').boundingBox()
      t.ok(box && box.width > 600 && box.height > 150, 'the chart is drawn at a readable size')
      await shot('09-overview')
    })

    await t.test('the keyboard reaches every control of the tokens page, in reading order', async (t) => {
      await page.goto(base + '/dashboard/tokens')
      const seen: string[] = []
      for (let i = 0; i < 12; i++) {
        await page.keyboard.press('Tab')
        seen.push(
          await page.evaluate(() => {
            const el = document.activeElement as HTMLElement | null
            if (!el) return ''
            const labelled = (el as HTMLInputElement).labels?.[0]?.textContent
            return labelled ? `field ${labelled}` : `${el.tagName.toLowerCase()} ${el.textContent?.trim()}`
          }),
        )
      }
      const want = [
        'a Skip to content',
        'a Text Entity Analysis',
        'a Overview',
        'a Tokens',
        'a Plan',
        'a Playground',
        'button Log out',
        'field Token name',
        'button Create token',
        'button Revoke',
      ]
      t.same(seen.slice(0, want.length), want, seen.join(' | '))
      // Skip link works: Enter on it moves focus past the navigation.
      await page.goto(base + '/dashboard/tokens')
      await page.keyboard.press('Tab')
      await page.keyboard.press('Enter')
      t.equal(new URL(page.url()).hash, '#main')
    })

    await t.test('pages fit a phone', async (t) => {
      const phone = await phoneContext(browser, context)
      const p = await phone.newPage()
      for (const [path, name] of [
        ['/dashboard', 'phone-overview'],
        ['/dashboard/tokens', 'phone-tokens'],
        ['/dashboard/plan', 'phone-plan'],
      ] as const) {
        await p.goto(base + path)
        const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
        t.ok(overflow <= 0, `${path}: no sideways scrolling of the page (${overflow}px)`)
        await shot(name, p)
      }
      await phone.close()
    })

    await t.test('log out', async (t) => {
      await page.getByRole('button', { name: 'Log out' }).click()
      await page.waitForURL('**/dashboard/login?notice=logged-out')
      t.match(await page.getByRole('status').innerText(), /You are logged out/)
      t.notOk(
        (await context.cookies()).some((c) => c.name === 'tea_session'),
        'the session cookie is gone',
      )
      await page.goto(base + '/dashboard/tokens')
      t.equal(new URL(page.url()).pathname, '/dashboard/login')
    })

    t.same(unlabelled, [], 'every field on every page has a <label>')
    t.same(consoleErrors, [], 'no script or CSP errors in the console')
  })
}
