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

for (const driver of DRIVERS) {
  t.test(
    `the token check and count that also read the shared cache are batched, each request with its own entry (${driver})`,
    async (t) => {
      const { database } = await openTestDatabase(t, driver)
      const repos = createRepositories(database.db)
      const now = new Date('2026-11-22T12:00:00Z')
      const deps = { repos, clock: () => now, tokenPrefix: 'tea_live_' }
      const account = await createAccount(deps, { email: `look-up-${driver}@example.com`, plan: 'free' })
      const other = await createAccount(deps, { email: `look-up-other-${driver}@example.com`, plan: 'free' })
      const valid = await createToken(deps, account.id, 'valid')
      const revoked = await createToken(deps, account.id, 'revoked')
      await revokeToken(deps, revoked.id)
      const written = new Date('2026-11-22T11:00:00Z')
      const notBefore = new Date(now.getTime() - 24 * 3600 * 1000)
      for (const key of ['k1', 'k2', 'k3']) await repos.cache.put(account.id, key, `payload of ${key}`, written, notBefore)
      await repos.cache.put(other.id, 'k4', 'payload of k4, another account', written, notBefore)
      const statements = { plain: 0, lookingUp: 0 }
      const usage = withBatchedReservations({
        ...repos.usage,
        reserveWithToken: (...a) => (statements.plain++, repos.usage.reserveWithToken(...a)),
        reserveWithTokenLookingUp: (...a) => (statements.lookingUp++, repos.usage.reserveWithTokenLookingUp(...a)),
      })
      const hash = hashToken(valid.token)
      const lookUp = (key: string, token = hash, cutOff = notBefore) =>
        usage.reserveWithTokenLookingUp(token, account.id, DAY, now, 1, [key], cutOff)

      // 40 at once: a quarter count only (in-process hits), the others look up k0..k4 (k1..k3 present).
      const first = await Promise.all(
        Array.from({ length: 40 }, (_, i) => (i % 4 === 0 ? usage.reserveWithToken(hash, account.id, DAY, now) : lookUp(`k${i % 5}`))),
      )
      t.same(
        first.map((r) => r!.used).sort((a, b) => a! - b!),
        Array.from({ length: 40 }, (_, i) => i + 1),
        'every request counted once, 1..40',
      )
      first.forEach((r, i) => {
        const key = `k${i % 5}`
        const expected = i % 4 !== 0 && ['k1', 'k2', 'k3'].includes(key) ? [{ key, payload: `payload of ${key}`, createdAt: written }] : []
        t.same((r as { cached?: unknown }).cached ?? [], expected, `request ${i}: its own entry only`)
      })
      t.ok(statements.plain + statements.lookingUp < 8, `${statements.plain + statements.lookingUp} statements for 40 requests`)
      t.ok(statements.lookingUp >= 1)

      t.same((await lookUp('k2', hash, new Date('2026-11-22T11:00:00Z')))!.cached, [], 'an entry not newer than the cut-off is expired')
      t.equal(await lookUp('k1', hashToken(revoked.token)), undefined, 'a revoked token reads nothing and counts nothing')
      t.equal(await repos.usage.usedOn(account.id, DAY), 41)

      // Up to 95, then 10 at once against the 5 left: the batch does not fit and falls back to one
      // by one; exactly 5 count, and all 10 still get the entry the batch read.
      await repos.usage.reserveMany(account.id, DAY, 100, 54)
      statements.plain = statements.lookingUp = 0
      const last = await Promise.all(Array.from({ length: 10 }, () => lookUp('k1')))
      t.equal(last.filter((r) => r!.used !== undefined).length, 5, 'exactly the 5 remaining succeed')
      t.ok(
        last.every((r) => r!.cached.length === 1 && r!.cached[0].payload === 'payload of k1'),
        'every request, counted or not, has its entry',
      )
      t.equal(await repos.usage.usedOn(account.id, DAY), 100, 'the counter ends exactly at the limit')
      t.equal(await repos.usage.usedOn(other.id, DAY), 0)
    },
  )
}
