// The deferred token check's parts (src/domain/deferred-token-check.ts); the whole flow through
// the API is test/api/deferred-token-check.test.ts.
import t from 'tap'
import { knownTokens, mustCheckBeforeAnswering, reserveCheckingToken, type DeferredCaller } from '../../src/domain/deferred-token-check.ts'
import { createRepositories } from '../../src/db/repositories/index.ts'
import { createAccount } from '../../src/domain/accounts.ts'
import { createToken, revokeToken } from '../../src/domain/tokens.ts'
import { hashToken } from '../../src/domain/token-format.ts'
import { BadRequestError, UnauthorizedError } from '../../src/errors.ts'
import { DatabaseTimeoutError } from '../../src/db/deadline.ts'
import { DRIVERS, openTestDatabase } from '../helpers/app.ts'

t.test('a node defers only the check of a token it has seen, and forgets a refused one', async (t) => {
  const known = knownTokens(2)
  t.equal(known.defer('h1'), undefined, 'unknown: checked now')
  known.remember('h1', { accountId: 'a1', plan: 'free' })
  t.same(known.defer('h1'), { accountId: 'a1', plan: 'free', limit: 0, used: 0, unverifiedTokenHash: 'h1' }, 'known: only the account')
  known.updatePlan('h1', 'pro')
  t.equal(known.defer('h1')?.plan, 'pro', 'the plan last seen')
  known.updatePlan('h2', 'pro')
  t.equal(known.defer('h2'), undefined, 'a plan update does not make a token known')
  known.forget('h1')
  t.equal(known.defer('h1'), undefined, 'forgotten after a 401')
  known.remember('h1', { accountId: 'a1', plan: 'free' })
  known.remember('h2', { accountId: 'a2', plan: 'free' })
  known.remember('h3', { accountId: 'a3', plan: 'free' })
  t.equal(known.defer('h1'), undefined, 'bounded: the least recently used goes')
  known.remember('h2', { accountId: 'a2', plan: 'pro' })
  t.equal(known.defer('h2')?.plan, 'pro', 'remembered again: the plan the database gave now')
  known.remember('h2', { accountId: 'a2', plan: 'free' })
  known.remember('h4', { accountId: 'a4', plan: 'free' })
  t.ok(known.defer('h2'), 'remembered again: recently used, so h3 went instead')
  t.equal(known.defer('h3'), undefined)
})

t.test('any answer but the 401 itself checks a deferred token first, unless the database is down', async (t) => {
  const deferred: DeferredCaller = { accountId: 'a', plan: 'free', limit: 0, used: 0, unverifiedTokenHash: 'h' }
  const checked: DeferredCaller = { accountId: 'a', plan: 'free', limit: 100, used: 1 }
  const invalid = new BadRequestError('INVALID_BODY', 'x')
  t.equal(mustCheckBeforeAnswering(deferred, invalid), true)
  t.equal(mustCheckBeforeAnswering(deferred, new Error('anything')), true)
  t.equal(mustCheckBeforeAnswering(deferred, new UnauthorizedError()), false, 'already the 401')
  t.equal(mustCheckBeforeAnswering(deferred, new DatabaseTimeoutError(1, Promise.resolve(undefined))), false, 'the same 503 anyway')
  t.equal(mustCheckBeforeAnswering(checked, invalid), false, 'checked already')
  t.equal(mustCheckBeforeAnswering(undefined, invalid), false, 'no token')
})

for (const driver of DRIVERS) {
  t.test(`the counting statement checks the token: a revoked one is a 401 and nothing is counted (${driver})`, async (t) => {
    const { database } = await openTestDatabase(t, driver)
    const repos = createRepositories(database.db)
    const now = new Date('2026-11-22T12:00:00Z')
    const deps = { repos, clock: () => now, tokenPrefix: 'tea_live_' }
    const account = await createAccount(deps, { email: 'deferred@example.com', plan: 'free' })
    const token = await createToken(deps, account.id, 'deferred')
    const hash = hashToken(token.token)

    const caller: DeferredCaller = { accountId: account.id, plan: 'stale', limit: 0, used: 0, unverifiedTokenHash: hash }
    t.equal(await reserveCheckingToken(repos.usage, caller, hash, '2026-11-22', now), 1, 'counted')
    t.match(caller, { tokenId: token.id, plan: 'free', limit: 100, unverifiedTokenHash: undefined }, 'filled in from the token row')

    const other = await createAccount(deps, { email: 'other@example.com', plan: 'free' })
    const wrongAccount: DeferredCaller = { accountId: other.id, plan: 'free', limit: 0, used: 0, unverifiedTokenHash: hash }
    await t.rejects(
      reserveCheckingToken(repos.usage, wrongAccount, hash, '2026-11-22', now),
      { code: 'INVALID_TOKEN' },
      "another account's token",
    )

    await revokeToken(deps, token.id)
    const revoked: DeferredCaller = { accountId: account.id, plan: 'free', limit: 0, used: 0, unverifiedTokenHash: hash }
    await t.rejects(reserveCheckingToken(repos.usage, revoked, hash, '2026-11-22', now), { code: 'INVALID_TOKEN' })
    t.equal(revoked.unverifiedTokenHash, hash, 'still unverified')
    t.equal(await repos.usage.usedOn(account.id, '2026-11-22'), 1, 'nothing more counted')
    t.equal(await repos.usage.usedOn(other.id, '2026-11-22'), 0)
  })
}
