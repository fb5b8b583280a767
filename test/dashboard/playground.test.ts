// The playground page: login and CSRF required, the API's analysis for the account (counted in
// its daily quota like an API call), refusals shown on the page with a 4xx, never a 500.
import t from 'tap'
import { buildTestApp, DRIVERS, englishText, manualClock } from '../helpers/app.ts'
import { DashboardClient, text } from './client.ts'
import { EXAMPLES } from '../../src/dashboard/examples.ts'

const DAY = '2026-11-22'

/** The visible text of each mark of a page (screen-reader-only text left out), unescaped. */
function markTexts(body: string): string[] {
  const annotated = /<div class="annotated"[^>]*>([\s\S]*?)<\/div>/.exec(body)?.[1] ?? ''
  return [...annotated.matchAll(/<mark class="m[^"]*"[^>]*>([\s\S]*?)<span class="visually-hidden">/g)].map((m) => text(m[1]))
}

for (const driver of DRIVERS) {
  t.test(`[${driver}] the playground needs a session; its form a CSRF token`, async (t) => {
    const { app, repos } = await buildTestApp(t, { driver, clock: manualClock() })
    const c = new DashboardClient(app)
    const anonymous = await c.get('/dashboard/playground')
    t.equal(anonymous.status, 303)
    t.equal(anonymous.location, '/dashboard/login')
    await c.get('/dashboard/login')
    t.equal((await c.post('/dashboard/playground', { text: englishText() })).status, 403, 'a POST without a session is refused')

    await c.newAccount('play@example.com')
    const account = (await repos.accounts.findByEmail('play@example.com'))!
    const noToken = await c.post('/dashboard/playground', { text: englishText(), _csrf: null })
    t.equal(noToken.status, 403)
    t.match(text(noToken.body), /CSRF protection/)
    t.equal((await c.post('/dashboard/playground', { text: englishText(), _csrf: 'x'.repeat(43) })).status, 403, 'a wrong token is refused')
    t.equal(
      (await c.post('/dashboard/playground', { text: englishText() }, { 'sec-fetch-site': 'cross-site' })).status,
      403,
      'a cross-site form is refused',
    )
    t.equal(await repos.usage.usedOn(account.id, DAY), 0, 'nothing was analysed or counted')
  })

  t.test(`[${driver}] analyze: the API's answer drawn on the text, counted like an API call`, async (t) => {
    const { app, repos } = await buildTestApp(t, { driver, clock: manualClock() })
    const c = new DashboardClient(app)
    await c.newAccount('analyze@example.com')
    const account = (await repos.accounts.findByEmail('analyze@example.com'))!

    const form = await c.get('/dashboard/playground')
    t.equal(form.status, 200)
    t.match(form.body, /<a href="\/dashboard\/playground" aria-current="page">Playground<\/a>/, 'the nav link, current')
    t.match(form.body, /<label for="text">Text<\/label>\n<textarea id="text" name="text"/)
    t.match(form.body, /<button type="submit">Analyze<\/button>/)
    t.match(
      text(form.body),
      /Each analysis counts as one request of your daily quota, like a call to POST \/v1\/analyze .*0 of 100 requests used today/,
    )

    const input = '🎧 ' + englishText(1)
    const r = await c.post('/dashboard/playground', { text: input })
    t.equal(r.status, 200)
    t.equal(await repos.usage.usedOn(account.id, DAY), 1, 'counted once')
    t.match(text(r.body), /This analysis counted as one request of your daily quota, like an API call: 1 of 100 requests used today/)
    t.match(
      r.body,
      /<textarea id="text" name="text"[^>]*>\n🎧 Report 1: Tim Cook/,
      'the text stays in the form (the parser drops the line break after the tag)',
    )

    // The same analysis through the API, with a token of the same account.
    const token = /value="(tea_live_[0-9A-Za-z]{38})"/.exec((await c.post('/dashboard/tokens', { name: 'compare' })).body)![1]
    const api = await app.inject({
      method: 'POST',
      url: '/v1/analyze',
      headers: { authorization: `Bearer ${token}` },
      payload: { text: input, options: { include: ['mentions'], offsetEncoding: 'utf16' } },
    })
    t.equal(api.statusCode, 200)
    const answer = api.json<{
      entityDetails: { name: string; type: string; mentions: { text: string; start: number }[] }[]
      relations: { source: string; type: string; target: string }[]
    }>()
    const mentions = answer.entityDetails.flatMap((d) => d.mentions).sort((a, b) => a.start - b.start)
    t.ok(mentions.length >= 3, 'the API finds mentions in the text')
    t.same(
      markTexts(r.body),
      mentions.map((m) => m.text),
      'each highlight is a mention of the API answer, in text order',
    )
    for (const d of answer.entityDetails) {
      t.match(
        r.body,
        new RegExp(`<th scope="row" data-label="Name">${d.name}</th><td data-label="Type"><span class="tag t-${d.type}">`),
        `${d.name} in the entity table`,
      )
    }
    t.equal([...r.body.matchAll(/<tr class="relation"/g)].length, answer.relations.length, 'one row per relation')
    t.ok(answer.relations.length > 0, 'the text has relations')
    t.match(r.body, /<a class="evidence-link" href="#ev0"/)
    t.match(r.body, /<span class="ev" data-ev="ev0" id="ev0">/)
    t.match(r.body, /<svg viewBox="0 0 720 440" role="img" aria-labelledby="graph-title graph-desc"/)

    const again = await c.post('/dashboard/playground', { text: input })
    t.equal(again.status, 200)
    t.match(text(again.body), /from the cache/)
    t.equal(await repos.usage.usedOn(account.id, DAY), 3, 'a cached answer counts too, like on the API (playground twice, API once)')
  })

  t.test(`[${driver}] examples load into the form and cost nothing`, async (t) => {
    const { app, repos } = await buildTestApp(t, { driver, clock: manualClock() })
    const c = new DashboardClient(app)
    await c.newAccount('examples@example.com')
    const account = (await repos.accounts.findByEmail('examples@example.com'))!
    const page = await c.get('/dashboard/playground')
    for (const e of EXAMPLES) t.match(page.body, `<a href="/dashboard/playground?example=${e.key}">${e.label}</a>`)
    const review = EXAMPLES.find((e) => e.key === 'review')!
    const loaded = await c.get('/dashboard/playground?example=review')
    t.equal(loaded.status, 200)
    t.ok(loaded.body.includes(`name="text" rows="9" required aria-describedby="text-hint">\n${review.text}</textarea>`))
    t.equal((await c.get('/dashboard/playground?example=__proto__')).status, 200, 'an unknown example is an empty form')
    t.equal(await repos.usage.usedOn(account.id, DAY), 0)
  })

  t.test(`[${driver}] refusals are shown on the page with a 4xx, the text kept, nothing counted`, async (t) => {
    const { app, repos } = await buildTestApp(t, { driver, clock: manualClock() })
    const c = new DashboardClient(app)
    await c.newAccount('refused@example.com')
    const account = (await repos.accounts.findByEmail('refused@example.com'))!
    await c.get('/dashboard/playground')

    const short = await c.post('/dashboard/playground', { text: 'Tim Cook <b>works</b> for Apple.' })
    t.equal(short.status, 400)
    t.match(text(short.body), /The text must have at least 200 characters; it has 32\. Nothing was counted\./)
    t.match(short.body, /<p class="error" role="alert">/)
    t.match(short.body, />\nTim Cook &lt;b&gt;works&lt;\/b&gt; for Apple\.<\/textarea>/, 'kept, escaped')

    const long = await c.post('/dashboard/playground', { text: englishText().repeat(200).slice(0, 30_001) })
    t.equal(long.status, 400)
    t.match(text(long.body), /The text may have at most 30,000 characters; it has 30001\./)

    const huge = await c.post('/dashboard/playground', { text: 'x'.repeat(400_000) })
    t.equal(huge.status, 413, 'a form far beyond the limit is not even read')

    const noLetters = await c.post('/dashboard/playground', { text: '!?. '.repeat(60) })
    t.equal(noLetters.status, 400)
    t.match(text(noLetters.body), /no letter or digit/)

    const german = await c.post('/dashboard/playground', {
      text: 'Die Bundesregierung hat am Dienstag in Berlin beschlossen, dass die Deutsche Bahn im nächsten Jahr mehr Geld für neue Züge und für die Sanierung der Schienen erhalten soll. Der Verkehrsminister sagte, das sei ein wichtiger Schritt für das ganze Land.',
    })
    t.equal(german.status, 400)
    t.match(text(german.body), /Language "de" is not supported/)
    t.equal(await repos.usage.usedOn(account.id, DAY), 0, 'no refusal was counted')
  })

  t.test(`[${driver}] quota spent: 429 on the page, nothing analysed`, async (t) => {
    const { app, repos } = await buildTestApp(t, { driver, clock: manualClock() })
    const c = new DashboardClient(app)
    await c.newAccount('spent@example.com')
    const account = (await repos.accounts.findByEmail('spent@example.com'))!
    await repos.usage.reserveMany(account.id, DAY, 100, 99)
    await c.get('/dashboard/playground')
    t.equal((await c.post('/dashboard/playground', { text: englishText(7) })).status, 200, 'the last request of the day')
    const r = await c.post('/dashboard/playground', { text: englishText(8) })
    t.equal(r.status, 429)
    t.ok(Number(r.headers['retry-after']) > 0, 'Retry-After')
    t.match(text(r.body), /You have used all 100 requests of today's quota, so the text was not analysed/)
    t.match(text(r.body), /100 of 100 requests used today/)
    t.notMatch(r.body, /class="annotated"/)
    t.equal(await repos.usage.usedOn(account.id, DAY), 100)
  })
}
