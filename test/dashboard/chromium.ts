// What the dashboard's browser tests share: Debian's Chromium, its flags, where screenshots go,
// and a phone-sized context holding the laptop context's session.
import type { Browser, BrowserContext } from 'playwright-core'

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
export const OUT = 'test-output/dashboard'
export const ARGS = [
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
