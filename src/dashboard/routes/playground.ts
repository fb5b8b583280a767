// The playground: paste a text (or load an example), press Analyze, see the API's answer for
// it drawn on the text. A plain form POST (works without script), with the session's CSRF token.
// It runs the very analysis POST /v1/analyze runs for the account, through the same request
// check, so it is counted against the daily quota like an API call.
import type { FastifyInstance } from 'fastify'
import type { components } from '../../../generated/api-types.ts'
import { analyzeText as validateRequest } from '../../../generated/validators.js'
import { ApiError } from '../../errors.ts'
import { validationError } from '../../plugins/app/openapi-routes.ts'
import { applyOptions, type AnalysisService } from '../../analysis/service.ts'
import { effectivePlan } from '../../domain/billing.ts'
import { nextUtcMidnight, utcDay, type Clock } from '../../domain/clock.ts'
import type { Caller } from '../../domain/quota.ts'
import { html, type Html } from '../html.ts'
import { csrfField, formatTime, page } from '../layout.ts'
import type { Repositories } from '../../db/repositories/index.ts'
import type { SessionView } from '../../db/repositories/sessions.ts'
import { field } from '../security.ts'
import { annotateText, entityTable, legend, relationTable, type AnalysisView } from '../analysis-view.ts'
import { relationGraph } from '../graph.ts'
import { EXAMPLES } from '../examples.ts'
import { lookup, pageUser, requireSession, requireSessionPost, sendPage } from './common.ts'

type AnalyzeRequest = components['schemas']['AnalyzeRequest']

/** UTF-16 offsets: the page slices the text as a JavaScript string does. */
const ENCODING = 'utf16' as const

// The form's largest honest body: 30,000 code points of 4 UTF-8 bytes each, every byte
// percent-encoded, plus the CSRF field. Anything larger is refused before it is read (413).
const BODY_LIMIT = 30_000 * 4 * 3 + 4096

/** What the page says for some of the API's refusals, by code; the API's own message otherwise. */
const MESSAGES: Partial<Record<ApiError['code'], (caller: Caller, text: string) => string>> = {
  TEXT_TOO_SHORT: (_c, text) => `The text must have at least 200 characters; it has ${codePoints(text)}. Nothing was counted.`,
  TEXT_TOO_LONG: (_c, text) => `The text may have at most 30,000 characters; it has ${codePoints(text)}. Nothing was counted.`,
  QUOTA_EXCEEDED: (c) =>
    `You have used all ${c.limit} requests of today's quota, so the text was not analysed. The quota resets at midnight UTC; a larger plan applies at once.`,
  OVERLOADED: () => 'The analysis service is busy just now; nothing was counted. Try again in a few seconds.',
}

/** Characters as the API counts them: Unicode code points. */
function codePoints(text: string): number {
  let n = 0
  for (const _ of text) n++
  return n
}

const EXAMPLE_BY_KEY = Object.fromEntries(EXAMPLES.map((e) => [e.key, e]))

export async function playgroundRoutes(
  app: FastifyInstance,
  deps: { repos: Pick<Repositories, 'accounts' | 'usage'>; clock: Clock; analysis: AnalysisService },
) {
  const { repos, clock } = deps

  /** The account as the quota sees it right now (plan in force, its limit, today's count). */
  async function callerOf(session: SessionView): Promise<Caller> {
    const now = clock()
    const account = (await repos.accounts.findById(session.accountId))!
    const plan = (await repos.accounts.findPlan(effectivePlan(account, now)))!
    const used = Math.min(await repos.usage.usedOn(account.id, utcDay(now)), plan.dailyLimit)
    return { accountId: account.id, plan: plan.name, limit: plan.dailyLimit, used }
  }

  function quotaLine(caller: Caller, counted: boolean): Html {
    const reset = nextUtcMidnight(clock())
    const state = html`<span data-testid="playground-used">${caller.used}</span> of ${caller.limit} requests used today; the quota resets at <time datetime="${reset.toISOString()}">${formatTime(reset)}</time>.`
    return counted
      ? html`<p class="hint" data-testid="quota-line">This analysis counted as one request of your daily quota, like an API call: ${state}</p>`
      : html`<p class="hint" data-testid="quota-line">Each analysis counts as one request of your daily quota, like a call to <code>POST /v1/analyze</code> (a repeated text too): ${state}</p>`
  }

  // The line break after <textarea> is dropped by the HTML parser: written always, so a text
  // that starts with a line break keeps it.
  function playgroundPage(session: SessionView, o: { text?: string; caller: Caller; error?: string; result?: Result }) {
    return page({
      title: 'Playground',
      section: 'playground',
      user: pageUser(session),
      error: o.error,
      body: html`<h1>Playground</h1>
<p>Paste a text in English and see what the API finds in it: every mention of a person, organization, location or object, highlighted in the text, and the relations between them.</p>
${quotaLine(o.caller, o.result !== undefined)}
<form method="post" action="/dashboard/playground" class="card playground-form">
${csrfField(session.csrfToken)}
<label for="text">Text</label>
<textarea id="text" name="text" rows="9" required aria-describedby="text-hint">
${o.text ?? ''}</textarea>
<p class="hint" id="text-hint">200 to 30,000 characters. Or start from an example: ${EXAMPLES.map(
        (e, i) => html`${i > 0 ? ', ' : ''}<a href="/dashboard/playground?example=${e.key}">${e.label}</a>`,
      )} (loading one costs nothing).</p>
<div class="actions"><button type="submit">Analyze</button></div>
</form>
${o.result ? resultSection(o.result) : ''}`,
    })
  }

  app.get('/playground', async (request, reply) => {
    const session = requireSession(request, reply)
    if (!session) return reply
    const example = lookup(EXAMPLE_BY_KEY, (request.query as Record<string, unknown>).example)
    return sendPage(reply, 200, playgroundPage(session, { text: example?.text, caller: await callerOf(session) }))
  })

  app.post('/playground', { bodyLimit: BODY_LIMIT }, async (request, reply) => {
    const session = requireSessionPost(request, reply)
    if (!session) return reply
    const text = field(request.body, 'text')
    const caller = await callerOf(session)
    const body: AnalyzeRequest = { text, options: { include: ['mentions'], offsetEncoding: ENCODING } }
    try {
      // The API's own checks of the request body: the same limits and the same messages.
      if (!validateRequest(body)) throw validationError(validateRequest.errors![0], body)
      const { analysis, cached } = await deps.analysis.analyze(caller, body)
      const result: Result = {
        text,
        view: applyOptions(analysis, body.options, text),
        model: analysis.model,
        language: analysis.language,
        cached,
      }
      return sendPage(reply, 200, playgroundPage(session, { text, caller, result }))
    } catch (err) {
      // Refusals (400, 429, 503) are shown on the page with the text kept; anything else is the
      // dashboard's error page.
      if (!(err instanceof ApiError)) throw err
      const retryAfter = err.headers['retry-after']
      if (retryAfter) reply.header('retry-after', retryAfter)
      return sendPage(
        reply,
        err.statusCode,
        playgroundPage(session, { text, caller, error: MESSAGES[err.code]?.(caller, text) ?? err.message }),
      )
    }
  })
}

interface Result {
  text: string
  view: AnalysisView
  model: string
  language: string
  cached: boolean
}

function resultSection(r: Result): Html {
  const result = r.view
  const layout = annotateText(r.text, result, ENCODING)
  const details = result.entityDetails ?? []
  return html`<section class="playground-result" aria-labelledby="result-heading">
<h2 id="result-heading">Result</h2>
<p class="hint">${details.length} entit${details.length === 1 ? 'y' : 'ies'} and ${result.relations.length} relation${result.relations.length === 1 ? '' : 's'}; model ${r.model}, language ${r.language}${r.cached ? ', from the cache' : ''}.</p>
<h3 id="text-heading">The text with its entities</h3>
${legend()}
${layout.markup}
${layout.unplaced > 0 ? html`<p class="hint">${layout.unplaced} mention${layout.unplaced === 1 ? '' : 's'} could not be highlighted (crossing the edge of another mention, or offsets that do not fit the text); the table counts ${layout.unplaced === 1 ? 'it' : 'them'}.</p>` : ''}
<h3 id="entities-heading">Entities</h3>
${entityTable(result)}
<h3 id="relations-heading">Relations</h3>
${result.relations.length > 0 ? html`<p class="hint">Hover over a relation or move the keyboard focus to its evidence to highlight the sentence in the text.</p>` : ''}
${relationTable(result, layout.evidenceOf)}
${
  details.length > 0
    ? html`<h3 id="graph-heading">Graph</h3>
${relationGraph(result, layout.evidenceOf)}`
    : ''
}
</section>`
}
