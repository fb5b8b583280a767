// Per-account batching of quota reservations: fewer statements on a hot account, the same
// exact outcome (min(N, R) successes), and errors reach every waiting request.
import t from 'tap'
import { DRIVERS, openTestDatabase } from '../helpers/app.ts'
import { createRepositories } from '../../src/db/repositories/index.ts'
import { createAccount } from '../../src/domain/accounts.ts'
import { withBatchedReservations } from '../../src/db/reservation-batcher.ts'
import { createToken, revokeToken } from '../../src/domain/tokens.ts'
import { hashToken } from '../../src/domain/token-format.ts'
import type { UsageRepository } from '../../src/db/repositories/usage.ts'

const DAY = '2026-11-22'

for (const driver of DRIVERS) {
  t.test(`concurrent reservations on one account are batched and exact (${driver})`, async (t) => {
    const { database } = await openTestDatabase(t, driver)
    const repos = createRepositories(database.db)
    const deps = { repos, clock: () => new Date('2026-11-22T12:00:00Z'), tokenPrefix: 'tea_live_' }
    const account = await createAccount(deps, { email: `batch-${driver}@example.com`, plan: 'free' })
    const statements = { single: 0, many: 0 }
    const counted: UsageRepository = {
      ...repos.usage,
      reserve: (...a) => (statements.single++, repos.usage.reserve(...a)),
      reserveMany: (...a) => (statements.many++, repos.usage.reserveMany(...a)),
    }
    const usage = withBatchedReservations(counted)

    // 60 at once against 100: all fit; far fewer statements than requests.
    const first = await Promise.all(Array.from({ length: 60 }, () => usage.reserve(account.id, DAY, 100)))
    t.same(
      [...first].sort((a, b) => a! - b!),
      Array.from({ length: 60 }, (_, i) => i + 1),
      'each request gets its own count, 1..60',
    )
    t.ok(statements.single + statements.many < 10, `${statements.single + statements.many} statements for 60 requests`)

    // 70 more against the 40 left: a batch that does not fit falls back to one by one.
    const second = await Promise.all(Array.from({ length: 70 }, () => usage.reserve(account.id, DAY, 100)))
    t.equal(second.filter((u) => u !== undefined).length, 40, 'exactly the 40 remaining succeed')
    t.equal(second.filter((u) => u === undefined).length, 30, 'the other 30 are refused')
    t.same(new Set(second.filter((u) => u !== undefined)).size, 40, 'with distinct counts')
    t.equal(await repos.usage.usedOn(account.id, DAY), 100, 'the counter ends exactly at the limit')

    // A failing statement rejects every request of its batch; the next ones work again.
    let fail = true
    const flaky = withBatchedReservations({
      ...repos.usage,
      reserve: async (...a) => {
        if (fail) throw Object.assign(new Error('connection lost'), { code: 'ECONNRESET' })
        return repos.usage.reserve(...a)
      },
      reserveMany: async (...a) => {
        if (fail) throw Object.assign(new Error('connection lost'), { code: 'ECONNRESET' })
        return repos.usage.reserveMany(...a)
      },
    })
    const other = await createAccount(deps, { email: `batch2-${driver}@example.com`, plan: 'free' })
    const failed = await Promise.allSettled(Array.from({ length: 5 }, () => flaky.reserve(other.id, DAY, 100)))
    t.same(
      failed.map((r) => r.status),
      Array(5).fill('rejected'),
      'every waiting request sees the error',
    )
    t.equal(await repos.usage.usedOn(other.id, DAY), 0, 'nothing counted')
    fail = false
    t.equal(await flaky.reserve(other.id, DAY, 100), 1, 'the next request is counted')
  })
}

for (const driver of DRIVERS) {
  t.test(`reservations that also check the token are batched per token and exact (${driver})`, async (t) => {
    const { database } = await openTestDatabase(t, driver)
    const repos = createRepositories(database.db)
    const now = new Date('2026-11-22T12:00:00Z')
    const deps = { repos, clock: () => now, tokenPrefix: 'tea_live_' }
    const account = await createAccount(deps, { email: `batch-token-${driver}@example.com`, plan: 'free' })
    const valid = await createToken(deps, account.id, 'valid')
    const revoked = await createToken(deps, account.id, 'revoked')
    await revokeToken(deps, revoked.id)
    let statements = 0
    const usage = withBatchedReservations({
      ...repos.usage,
      reserveWithToken: (...a) => (statements++, repos.usage.reserveWithToken(...a)),
    })
    const reserve = (token: string) => usage.reserveWithToken(hashToken(token), account.id, DAY, now)

    // 60 valid and 20 revoked at once, interleaved, against 100: the valid ones all count.
    const first = await Promise.all(Array.from({ length: 80 }, (_, i) => reserve(i % 4 === 3 ? revoked.token : valid.token)))
    const counted = first.filter((r) => r !== undefined)
    t.equal(counted.length, 60, 'every valid-token request is counted')
    t.equal(first.filter((r, i) => i % 4 === 3 && r === undefined).length, 20, 'every revoked-token request is refused')
    t.same(
      counted.map((r) => r.used).sort((a, b) => a! - b!),
      Array.from({ length: 60 }, (_, i) => i + 1),
      'each with its own count, 1..60',
    )
    t.same(counted[0].principal, { tokenId: valid.id, accountId: account.id, plan: 'free', limit: 100 })
    t.ok(statements < 12, `${statements} statements for 80 requests`)

    // 70 more against the 40 left: exactly 40 counted.
    const second = await Promise.all(Array.from({ length: 70 }, () => reserve(valid.token)))
    t.equal(second.filter((r) => r?.used !== undefined).length, 40, 'exactly the 40 remaining succeed')
    t.equal(
      second.filter((r) => r !== undefined && r.used === undefined).length,
      30,
      'the other 30 are refused, with the principal for the headers',
    )
    t.equal(await repos.usage.usedOn(account.id, DAY), 100, 'the counter ends exactly at the limit')
  })
}
