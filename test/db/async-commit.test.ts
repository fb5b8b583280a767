// Which statements commit without waiting for the disk (src/db/repositories/async-commit.ts):
// counts (on a PostgreSQL server only: PGlite has no WAL writer) and cache writes, whose loss
// in a database crash under-counts or costs a re-analysis; not refunds (a lost refund would
// over-count) nor anything else.
import t from 'tap'
import { sql } from 'drizzle-orm'
import { DRIVERS, openTestDatabase } from '../helpers/app.ts'
import { createRepositories, type Repositories } from '../../src/db/repositories/index.ts'
import { createAccount } from '../../src/domain/accounts.ts'
import { createToken } from '../../src/domain/tokens.ts'
import { hashToken } from '../../src/domain/token-format.ts'

const DAY = '2026-11-22'

for (const driver of DRIVERS) {
  t.test(`counts and cache writes commit asynchronously, refunds synchronously (${driver})`, async (t) => {
    const { database } = await openTestDatabase(t, driver)
    // As the application makes them (src/app.ts).
    const options = { asyncCounts: database.kind === 'postgres' }
    const repos = createRepositories(database.db, options)
    const countCommit = driver === 'postgres' ? 'off' : 'on'
    const now = new Date('2026-11-22T12:00:00Z')
    const deps = { repos, clock: () => now, tokenPrefix: 'tea_live_' }
    const account = await createAccount(deps, { email: `async-commit-${driver}@example.com`, plan: 'free' })
    const token = await createToken(deps, account.id, 'async')
    // The setting a statement leaves for its own transaction is the one its commit obeys; an
    // explicit transaction lets the test read it after the statement, before that commit.
    const settingAfter = (run: (r: Repositories) => Promise<unknown>) =>
      database.db.transaction(async (tx) => {
        await run(createRepositories(tx, options))
        const rows = await tx.execute(sql`select current_setting('synchronous_commit') as s`)
        // postgres.js answers with the rows, PGlite with an object holding them.
        return ((Array.isArray(rows) ? rows : (rows as { rows: unknown[] }).rows) as { s: string }[])[0].s
      })
    t.equal(
      await settingAfter((r) => r.usage.reserve(account.id, DAY, 100)),
      'on',
      'the first count of the day (an insert) commits synchronously',
    )
    t.equal(
      await settingAfter((r) => r.usage.reserve(account.id, DAY, 100)),
      countCommit,
      'a count commits asynchronously on PostgreSQL, synchronously on PGlite',
    )
    t.equal(await settingAfter((r) => r.usage.reserveMany(account.id, DAY, 100, 3)), countCommit, 'so does a batch of counts')
    t.equal(
      await settingAfter((r) => r.usage.reserveWithToken(hashToken(token.token), account.id, DAY, now, 2)),
      countCommit,
      'and a count that checks the token',
    )
    t.equal(await settingAfter((r) => r.usage.refund(account.id, DAY)), 'on', 'a refund commits synchronously')
    t.equal(await repos.usage.usedOn(account.id, DAY), 6, 'every count and the refund committed')

    const old = new Date(now.getTime() - 86_400_000)
    t.equal(await settingAfter((r) => r.cache.put(account.id, 'k1', 'payload-1', now, old)), 'off', 'a cache write commits asynchronously')
    t.equal(
      await settingAfter((r) =>
        r.cache.putMany(
          [
            { accountId: account.id, key: 'k2', payload: 'payload-2', createdAt: now },
            { accountId: account.id, key: 'k3', payload: 'payload-3', createdAt: now },
          ],
          86_400_000,
        ),
      ),
      'off',
      'so does a batch of cache writes',
    )
    t.same(
      (
        await repos.cache.getMany(
          [
            { accountId: account.id, key: 'k1' },
            { accountId: account.id, key: 'k2' },
            { accountId: account.id, key: 'k3' },
          ],
          old,
        )
      )
        .map((r) => r.payload)
        .sort(),
      ['payload-1', 'payload-2', 'payload-3'],
      'every cache write committed',
    )
    t.equal(await settingAfter((r) => r.tokens.touch(token.id, now)), 'on', 'anything else (a token touch) commits synchronously')
  })
}
