// Tokens: create (the plain value shown once, with a copy button), list, revoke after a
// confirmation step. Revocation goes through the domain function the API's look-up reads, so
// the very next API call with the token gets 401, on every node.
import type { FastifyInstance } from 'fastify'
import { DomainError } from '../../errors.ts'
import { createToken, isUuid, revokeToken, TOKEN_NAME_MAX } from '../../domain/tokens.ts'
import { effectivePlan } from '../../domain/billing.ts'
import { html, type Html } from '../html.ts'
import { csrfField, formatTime, page } from '../layout.ts'
import type { Repositories } from '../../db/repositories/index.ts'
import type { SessionView } from '../../db/repositories/sessions.ts'
import type { Clock } from '../../domain/clock.ts'
import { field } from '../security.ts'
import { lookup, pageUser, requireSession, requireSessionPost, sendPage } from './common.ts'

const NOTICES: Record<string, string> = {
  revoked: 'Token revoked. API calls with it are refused (401) from now on.',
}

export async function tokenRoutes(
  app: FastifyInstance,
  deps: { repos: Pick<Repositories, 'accounts' | 'tokens' | 'transaction'>; clock: Clock; tokenPrefix: string },
) {
  const { repos, clock } = deps

  async function tokensPage(
    session: SessionView,
    o: { created?: { token: string; name: string; base: string }; notice?: string; error?: string; name?: string } = {},
  ) {
    const now = clock()
    const account = await repos.accounts.findById(session.accountId)
    const plan = await repos.accounts.findPlan(effectivePlan(account!, now))
    const tokens = await repos.tokens.listByAccount(session.accountId)
    const active = tokens.filter((t) => !t.revokedAt).length
    const createdPanel: Html | '' = o.created
      ? html`<section class="card secret" aria-labelledby="new-token-heading">
<h2 id="new-token-heading">Token “${o.created.name}” created</h2>
<p><strong>Copy it now: it cannot be shown again.</strong> We keep only a hash of it; if you lose it, revoke it and create a new one.</p>
<label for="new-token">New token</label>
<div class="copy-row"><input id="new-token" type="text" readonly value="${o.created.token}" autocomplete="off" spellcheck="false">
<button type="button" data-copy="new-token" data-status="copy-status" hidden>Copy</button></div>
<p id="copy-status" class="hint" role="status" aria-live="polite"></p>
<p class="hint">Try it:</p>
<pre><code>curl -H "Authorization: Bearer ${o.created.token}" ${o.created.base}/v1/quota</code></pre>
</section>`
      : ''
    return page({
      title: 'Tokens',
      section: 'tokens',
      user: pageUser(session),
      notice: o.notice,
      error: o.error,
      body: html`<h1>API tokens</h1>
${createdPanel}
<section class="card">
<h2 id="create-heading">Create a token</h2>
<p>The ${plan!.name} plan allows ${plan!.maxTokens} active tokens; this account has ${active}.</p>
<form method="post" action="/dashboard/tokens">
${csrfField(session.csrfToken)}
<label for="token-name">Token name</label>
<input id="token-name" name="name" type="text" required maxlength="${TOKEN_NAME_MAX}" value="${o.name ?? ''}" aria-describedby="token-name-hint">
<p class="hint" id="token-name-hint">Say where it is used, e.g. “production server”.</p>
<div class="actions"><button type="submit">Create token</button></div>
</form>
</section>
<section>
<h2 id="list-heading">Your tokens</h2>
${
  tokens.length === 0
    ? html`<p>No tokens yet.</p>`
    : html`<div class="table-wrap"><table class="stack">
<thead><tr><th scope="col">Name</th><th scope="col">Preview</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="hide-narrow">Action</span></th></tr></thead>
<tbody>${tokens.map(
        (t) => html`<tr data-token-id="${t.id}">
<th scope="row" data-label="Name">${t.name}</th><td data-label="Preview"><code>${t.preview}</code></td><td data-label="Created">${formatTime(t.createdAt)}</td><td data-label="Last used">${t.lastUsedAt ? formatTime(t.lastUsedAt) : 'never'}</td>
<td data-label="Status">${t.revokedAt ? html`<span class="status-revoked">revoked ${formatTime(t.revokedAt)}</span>` : html`<span class="status-valid">valid</span>`}</td>
<td>${t.revokedAt ? '' : html`<form method="get" action="/dashboard/tokens/${t.id}/revoke" class="inline"><button type="submit" class="danger small" aria-describedby="revoke-note">Revoke</button></form>`}</td></tr>`,
      )}</tbody></table></div>
<p class="hint" id="revoke-note">Revoking asks for confirmation first; it takes effect at once and cannot be undone.</p>`
}
</section>`,
    })
  }

  app.get('/tokens', async (request, reply) => {
    const session = requireSession(request, reply)
    if (!session) return reply
    const notice = lookup(NOTICES, (request.query as Record<string, unknown>).notice)
    return sendPage(reply, 200, await tokensPage(session, { notice }))
  })

  app.post('/tokens', async (request, reply) => {
    const session = requireSessionPost(request, reply)
    if (!session) return reply
    const name = field(request.body, 'name')
    try {
      const created = await createToken(deps, session.accountId, name)
      return sendPage(
        reply,
        201,
        await tokensPage(session, {
          created: { token: created.token, name: created.name, base: `${request.protocol}://${request.host}` },
          notice: `Token “${created.name}” created.`,
        }),
      )
    } catch (err) {
      if (!(err instanceof DomainError)) throw err
      return sendPage(reply, err.code === 'TOKEN_LIMIT_REACHED' ? 409 : 400, await tokensPage(session, { error: err.message, name }))
    }
  })

  async function ownToken(session: SessionView, id: string) {
    if (!isUuid(id)) return undefined
    const token = await repos.tokens.findById(id)
    return token && token.accountId === session.accountId ? token : undefined
  }

  app.get('/tokens/:id/revoke', async (request, reply) => {
    const session = requireSession(request, reply)
    if (!session) return reply
    const token = await ownToken(session, (request.params as { id: string }).id)
    if (!token) return sendPage(reply, 404, await tokensPage(session, { error: 'No such token in this account.' }))
    if (token.revokedAt) return reply.redirect('/dashboard/tokens', 303)
    return sendPage(
      reply,
      200,
      page({
        title: 'Revoke token',
        section: 'tokens',
        user: pageUser(session),
        body: html`<div class="card confirm"><h1>Revoke token “${token.name}”?</h1>
<p>Token <code>${token.preview}</code>, created ${formatTime(token.createdAt)}, last used ${token.lastUsedAt ? formatTime(token.lastUsedAt) : 'never'}.</p>
<p><strong>Every API call with this token will be refused (401) from the moment you confirm. This cannot be undone.</strong></p>
<form method="post" action="/dashboard/tokens/${token.id}/revoke">
${csrfField(session.csrfToken)}
<div class="actions"><button type="submit" class="danger" autofocus>Revoke</button><a class="button secondary" href="/dashboard/tokens">Cancel</a></div>
</form></div>`,
      }),
    )
  })

  app.post('/tokens/:id/revoke', async (request, reply) => {
    const session = requireSessionPost(request, reply)
    if (!session) return reply
    const id = (request.params as { id: string }).id
    try {
      await revokeToken(deps, id, session.accountId)
    } catch (err) {
      if (!(err instanceof DomainError)) throw err
      return sendPage(reply, err.code === 'TOKEN_NOT_FOUND' ? 404 : 409, await tokensPage(session, { error: err.message }))
    }
    return reply.redirect('/dashboard/tokens?notice=revoked', 303)
  })
}
