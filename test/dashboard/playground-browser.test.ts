// The playground in a real browser (Debian's Chromium through playwright-core, the real server
// on a real port): a text with emoji before its entities is analysed; every highlight holds
// exactly a mention of the API's answer for that text; the keyboard focus on a relation
// highlights its evidence in the text; without script the evidence link does it. Screenshots
// go to test-output/dashboard/ (git-ignored).
import t from 'tap'
import { mkdirSync, existsSync } from 'node:fs'
import type { Page } from 'playwright-core'
import { buildTestApp, englishText, manualClock } from '../helpers/app.ts'
import { CHROMIUM, OUT, openInChromium, phoneContext } from './chromium.ts'

interface ApiAnswer {
  entityDetails: { name: string; type: string; mentions: { text: string; start: number; end: number }[] }[]
  relations: { source: string; type: string; target: string; evidence: string; evidenceStart: number; evidenceEnd: number }[]
}

/** Each highlight of the page: its visible text (without the screen-reader text), entity and type. */
function highlights(page: Page) {
  return page.locator('[data-testid=annotated] mark').evaluateAll((marks) =>
    marks.map((m) => {
      const copy = m.cloneNode(true) as HTMLElement
      for (const hidden of copy.querySelectorAll('.visually-hidden')) hidden.remove()
      return {
        text: copy.textContent,
        entity: Number((m as HTMLElement).dataset.entity),
        tag: (m as HTMLElement).dataset.tag,
        label: m.querySelector(':scope > .visually-hidden')?.textContent,
      }
    }),
  )
}

/** The text of the pieces of the annotated text highlighted as evidence. */
function highlightedEvidence(page: Page) {
  return page.locator('[data-testid=annotated] .ev.is-evidence').evaluateAll((els) => {
    // Nested pieces of one range: count the outermost only.
    const outer = els.filter((e) => !els.some((o) => o !== e && o.contains(e)))
    return outer
      .map((e) => {
        const copy = e.cloneNode(true) as HTMLElement
        for (const hidden of copy.querySelectorAll('.visually-hidden')) hidden.remove()
        return copy.textContent
      })
      .join('')
  })
}

if (!existsSync(CHROMIUM)) {
  t.fail(`Chromium not found at ${CHROMIUM}; install Debian's chromium package (apt-get install chromium) or set CHROMIUM_PATH`)
} else {
  t.test('the playground in Chromium', async (t) => {
    mkdirSync(OUT, { recursive: true })
    const { app, account } = await buildTestApp(t, { clock: manualClock(new Date('2026-11-22T12:00:00Z')) })
    const { base, browser, context } = await openInChromium(t, app)
    const page = await context.newPage()
    const problems: string[] = []
    // Pages and assets (GET) must load; a refused form (tested below) is a 4xx on purpose.
    page.on('response', (r) => {
      if (r.status() >= 400 && r.request().method() === 'GET') problems.push(`${r.status()} ${new URL(r.url()).pathname}`)
    })
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text())
    })
    const shot = (name: string, p: Page = page) => p.screenshot({ path: `${OUT}/${name}.png`, fullPage: true })

    // Emoji (one with a skin-tone modifier: two code points, four UTF-16 units) before the entities.
    const input = '🎧👍🏽 ' + englishText(21)

    await t.test('sign up, log in, open the playground from the navigation', async (t) => {
      await page.goto(base + '/dashboard/signup')
      await page.getByLabel('Email').fill('play.browser@example.com')
      await page.getByLabel('Password').fill('a long enough passphrase')
      await page.getByRole('button', { name: 'Sign up' }).click()
      await page.waitForURL('**/dashboard/signup')
      await page.getByLabel('Password').fill('a long enough passphrase')
      await page.getByRole('button', { name: 'Log in' }).click()
      await page.waitForURL(base + '/dashboard')
      await page.getByRole('link', { name: 'Playground', exact: true }).click()
      await page.waitForURL('**/dashboard/playground')
      t.ok(await page.getByRole('heading', { name: 'Playground' }).isVisible())
      t.match(await page.getByTestId('quota-line').innerText(), /counts as one request of your daily quota.*0 of 100 requests used today/)
      await page.getByRole('link', { name: 'Product review' }).click()
      t.match(await page.getByLabel('Text', { exact: true }).inputValue(), /^🎧⭐⭐⭐⭐ I bought the Sony/, 'an example fills the form')
      await shot('playground-01-form')
    })

    let answer: ApiAnswer
    await t.test('analyze a text with emoji before its entities: every highlight is a mention', async (t) => {
      await page.getByLabel('Text', { exact: true }).fill(input)
      await page.getByRole('button', { name: 'Analyze' }).click()
      await page.getByRole('heading', { name: 'Result' }).waitFor()
      t.match(
        await page.getByTestId('quota-line').innerText(),
        /This analysis counted as one request of your daily quota, like an API call: 1 of 100 requests used today/,
      )

      // The API's answer for the same text (another account: the analysis is the same).
      const { token } = await account()
      const res = await fetch(base + '/v1/analyze', {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text: input, options: { include: ['mentions'], offsetEncoding: 'utf16' } }),
      })
      t.equal(res.status, 200)
      answer = (await res.json()) as ApiAnswer
      const mentions = answer.entityDetails
        .flatMap((d, entity) => d.mentions.map((m) => ({ ...m, entity })))
        .sort((a, b) => a.start - b.start)
      t.ok(mentions.length >= 4, `the API finds mentions (${mentions.length})`)
      for (const m of mentions) t.equal(input.slice(m.start, m.end), m.text, `the API's offsets of "${m.text}"`)

      const marks = await highlights(page)
      t.same(
        marks.map((m) => [m.text, m.entity]),
        mentions.map((m) => [m.text, m.entity]),
        'each highlight holds exactly one mention of the answer, of its entity, in text order',
      )
      const tags: Record<string, string> = { person: 'PER', organization: 'ORG', location: 'LOC', object: 'OBJ' }
      for (const m of marks) {
        const d = answer.entityDetails[m.entity]
        t.equal(m.tag, tags[d.type], `${m.text}: its visible tag`)
        t.match(m.label, new RegExp(`\\(${d.type}`), `${m.text}: its type in words for screen readers`)
      }
      t.equal(
        await page.getByTestId('annotated').evaluate((el) => {
          const copy = el.cloneNode(true) as HTMLElement
          for (const hidden of copy.querySelectorAll('.visually-hidden')) hidden.remove()
          return copy.textContent
        }),
        input,
        'the text is shown whole and unchanged',
      )
      // The type tag is drawn (CSS generated content), not only coloured.
      const tag = await page
        .locator('[data-testid=annotated] mark')
        .first()
        .evaluate((m) => getComputedStyle(m, '::after').content)
      t.match(tag, /PER|ORG|LOC|OBJ/)
      const entityRows = page.getByRole('table', { name: /Entities/ }).locator('tbody tr')
      t.equal(await entityRows.count(), answer.entityDetails.length, 'one table row per entity')
      t.ok((await page.locator('figure.graph svg g.node').count()) > 0, 'the graph has nodes')
      t.equal(await page.locator('figure.graph svg g.edge').count(), answer.relations.length, 'an arrow per relation')
      await shot('playground-02-result')
    })

    await t.test('the keyboard focus on a relation highlights its evidence in the text', async (t) => {
      t.ok(answer.relations.length > 0, 'the text has relations')
      t.equal(await page.locator('.ev.is-evidence').count(), 0, 'nothing highlighted at first')
      await page.getByLabel('Text', { exact: true }).focus()
      let focused = ''
      for (let i = 0; i < 60 && !focused; i++) {
        await page.keyboard.press('Tab')
        focused = await page.evaluate(() =>
          document.activeElement?.classList.contains('evidence-link') ? (document.activeElement.textContent ?? '') : '',
        )
      }
      t.equal(focused, answer.relations[0].evidence, 'Tab reaches the first relation’s evidence')
      t.equal(await highlightedEvidence(page), answer.relations[0].evidence, 'its evidence is highlighted in the text')
      t.equal(input.slice(answer.relations[0].evidenceStart, answer.relations[0].evidenceEnd), answer.relations[0].evidence)
      const outline = await page
        .locator('[data-testid=annotated] .ev.is-evidence')
        .first()
        .evaluate((e) => getComputedStyle(e).outlineStyle)
      t.equal(outline, 'dashed', 'marked by an outline, not only a colour')
      await shot('playground-03-evidence-focus')

      // Hovering another relation moves the highlight to its evidence.
      const last = answer.relations.length - 1
      await page.locator('tr.relation').nth(last).hover()
      t.equal(await highlightedEvidence(page), answer.relations[last].evidence, 'hover shows the hovered relation’s evidence')
      // Enter follows the link: the sentence is the page's target.
      await page.locator('a.evidence-link').first().focus()
      await page.keyboard.press('Enter')
      t.match(new URL(page.url()).hash, /^#ev\d+$/)
      t.ok(await page.locator(':target').first().isVisible())
    })

    await t.test('without script: the form works and the evidence link highlights its sentence', async (t) => {
      const noScript = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled: false })
      await noScript.addCookies((await context.cookies()).filter((c) => c.name === 'tea_session'))
      const p = await noScript.newPage()
      await p.goto(base + '/dashboard/playground')
      await p.getByLabel('Text', { exact: true }).fill(input)
      await p.getByRole('button', { name: 'Analyze' }).click()
      await p.getByRole('heading', { name: 'Result' }).waitFor()
      t.match(await p.getByTestId('quota-line').innerText(), /2 of 100 requests used today/, 'counted again')
      await p.locator('a.evidence-link').first().click()
      const target = p.locator('[data-testid=annotated] .ev:target')
      t.equal(await target.count(), 1)
      t.equal(await target.evaluate((e) => getComputedStyle(e).outlineStyle), 'dashed', 'the sentence is highlighted as the target')
      await shot('playground-04-no-script', p)
      await noScript.close()
    })

    await t.test('errors are shown on the page', async (t) => {
      await page.goto(base + '/dashboard/playground')
      await page.getByLabel('Text', { exact: true }).fill('Too short to analyse: Tim Cook and Apple.')
      await page.getByRole('button', { name: 'Analyze' }).click()
      await page.getByRole('alert').waitFor()
      t.match(await page.getByRole('alert').innerText(), /at least 200 characters; it has 41/)
      t.equal(await page.getByLabel('Text', { exact: true }).inputValue(), 'Too short to analyse: Tim Cook and Apple.', 'the text is kept')
      await shot('playground-05-error')
    })

    await t.test('the result fits a phone', async (t) => {
      const phone = await phoneContext(browser, context)
      const p = await phone.newPage()
      await p.goto(base + '/dashboard/playground?example=biography')
      await p.getByRole('button', { name: 'Analyze' }).click()
      await p.getByRole('heading', { name: 'Result' }).waitFor()
      const overflow = await p.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
      t.ok(overflow <= 0, `no sideways scrolling of the page (${overflow}px)`)
      await shot('playground-phone', p)
      await phone.close()
    })

    t.same(problems, [], 'no failed request, no script or CSP error')
  })
}
