// Batched token look-ups (src/db/token-batcher.ts) against each driver: concurrent look-ups
// share statements, every request gets its own token's answer, and a revocation committed before
// a request arrived is seen by it even when it waited behind a statement already in flight.
import t from 'tap'
import { DRIVERS, openTestDatabase } from '../helpers/app.ts'
import { createRepositories } from '../../src/db/repositories/index.ts'
import { createAccount } from '../../src/domain/accounts.ts'
import { createToken, revokeToken } from '../../src/domain/tokens.ts'
import { hashToken, generateToken } from '../../src/domain/token-format.ts'
import { withBatchedTokenLookups } from '../../src/db/token-batcher.ts'
import type { TokensRepository } from '../../src/db/repositories/tokens.ts'

const NOW = new Date('2026-11-22T12:00:00Z')
const DAY = '2026-11-22'

for (const driver of DRIVERS) {
  t.test(`token look-ups are batched and exact (${driver})`, async (t) => {
    const { database } = await openTestDatabase(t, driver)
    const repos = createRepositories(database.db)
    const deps = { repos, clock: () => NOW, tokenPrefix: 'tea_live_' }
    const a = await createAccount(deps, { email: `a-${driver}@example.com`, plan: 'free' })
    const b = await createAccount(deps, { email: `b-${driver}@example.com`, plan: 'pro' })
    const ta = await createToken(deps, a.id, 'a')
    const tRevoked = await createToken(deps, a.id, 'revoked')
    const tb = await createToken(deps, b.id, 'b')
    await revokeToken(deps, tRevoked.id)
    for (let i = 0; i < 7; i++) await repos.usage.reserve(b.id, DAY, 1000)

    const statements = { single: 0, many: 0 }
    let gate: Promise<void> | undefined
    const counted: TokensRepository = {
      ...repos.tokens,
      findActiveByHash: async (...args) => {
        statements.single++
        // The statement has run; its answer is held back, as if still on the wire.
        const answer = await repos.tokens.findActiveByHash(...args)
        await gate
        return answer
      },
      findActiveByHashes: async (...args) => {
        statements.many++
        const answer = await repos.tokens.findActiveByHashes(...args)
        await gate
        return answer
      },
    }
    const tokens = withBatchedTokenLookups(counted)
    const lookup = (token: string) => tokens.findActiveByHash(hashToken(token), DAY, NOW)

    t.test('one batch holding valid, revoked, unknown and repeated tokens', async (t) => {
      statements.single = statements.many = 0
      const asked = [ta.token, tRevoked.token, tb.token, generateToken('tea_live_'), ta.token, tb.token]
      const got = await Promise.all(asked.map(lookup))
      t.same(got[0], { tokenId: ta.id, accountId: a.id, plan: 'free', limit: 100, used: 0 }, 'a valid token of account A')
      t.equal(got[1], undefined, 'the revoked token is refused, though it shared a batch with valid ones')
      t.same(
        got[2],
        { tokenId: tb.id, accountId: b.id, plan: 'pro', limit: 10000, used: 7 },
        'a valid token of account B, with its own usage',
      )
      t.equal(got[3], undefined, 'an unknown token is refused')
      t.same(got[4], got[0], 'a repeated token gets the same answer…')
      t.not(got[4], got[0], '…in an object of its own (callers update `used` on theirs)')
      t.same(got[5], got[2])
      t.same([statements.single, statements.many], [0, 1], 'the six look-ups of one turn went in one statement')
      t.same(await lookup(ta.token), got[0], 'a lone look-up…')
      t.same([statements.single, statements.many], [1, 1], '…goes as the single-token statement')
    })

    t.test('a revocation committed while a statement is in flight is seen by the requests that arrive after it', async (t) => {
      const victim = await createToken(deps, b.id, 'victim')
      let release!: () => void
      gate = new Promise((r) => (release = r))
      const early = lookup(victim.token) // in flight, its answer held at the gate
      await new Promise((r) => setTimeout(r, 50)) // its statement has run by now
      await revokeToken(deps, victim.id) // committed while `early` is in flight
      const late = [lookup(victim.token), lookup(tb.token)]
      release()
      gate = undefined
      t.ok(await early, 'the request that arrived before the revocation passed (its statement ran before it)')
      t.equal(await late[0], undefined, 'the request that arrived after it is refused')
      t.ok(await late[1], 'a valid token in the same batch still passes')
    })
  })
}
