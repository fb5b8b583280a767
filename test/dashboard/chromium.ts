// What the dashboard's browser tests share: Debian's Chromium, its flags, where screenshots go,
// and a phone-sized context holding the laptop context's session.
import type { FastifyInstance } from 'fastify'
import { chromium, type Browser, type BrowserContext } from 'playwright-core'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const OUT = 'test-output/dashboard'
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** A phone viewport signed in as the given context's session. */
export async function phoneContext(browser: Browser, signedIn: BrowserContext): Promise<BrowserContext> {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true })
  await phone.addCookies((await signedIn.cookies()).filter((c) => c.name === 'tea_session'))
  return phone
}

/**
 * The app on a free local port and headless Chromium with a laptop-sized context, both closed
 * when the test ends.
 */
export async function openInChromium(
  t: { teardown(fn: () => unknown): void },
  app: FastifyInstance,
): Promise<{ base: string; browser: Browser; context: BrowserContext }> {
  const base = await app.listen({ port: 0, host: '127.0.0.1' })
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS })
  t.teardown(() => browser.close())
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
  return { base, browser, context }
}
