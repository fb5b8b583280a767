// Which statements commit without waiting for the disk (src/db/repositories/async-commit.ts):
// counts (on a PostgreSQL server only: PGlite has no WAL writer) and cache writes, whose loss
// in a database crash under-counts or costs a re-analysis; not refunds (a lost refund would
// over-count) nor anything else.
import t from 'tap'
import { sql } from 'drizzle-orm'
import type { Db } from '../../src/db/client.ts'
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

// On a PostgreSQL server the application passes the database's second pool (`asyncDb`), whose
// sessions commit asynchronously: the counts and cache writes run there without a `set_config`
// of their own; refunds and everything else stay on the synchronous pool.
if (DRIVERS.includes('postgres'))
  t.test('on PostgreSQL, counts and cache writes run on the asynchronous pool, refunds on the other', async (t) => {
    const { database } = await openTestDatabase(t, 'postgres')
    // On postgres.js `execute` answers with the rows.
    const rowsOf = <T>(result: unknown) => result as T[]
    const setting = async (db: Db) => rowsOf<{ s: string }>(await db.execute(sql`select current_setting('synchronous_commit') as s`))[0].s
    t.ok(database.asyncDb, 'the database has a second pool')
    const asyncDb = database.asyncDb!
    t.equal(await setting(asyncDb), 'off', "the second pool's sessions commit asynchronously")
    t.equal(await setting(database.db), 'on', "the first pool's sessions commit synchronously")

    const now = new Date('2026-11-22T12:00:00Z')
    const deps = { repos: createRepositories(database.db), clock: () => now, tokenPrefix: 'tea_live_' }
    const account = await createAccount(deps, { email: 'async-pool@example.com', plan: 'free' })
    const token = await createToken(deps, account.id, 'async')
    const usedOn = () => deps.repos.usage.usedOn(account.id, DAY)
    // Repositories whose asynchronous pool is a transaction on that pool, and whose other pool is
    // a transaction on the first one: what each wrote is seen outside only once its transaction
    // commits, which tells which pool ran it; the setting read in each is the one its commits obey.
    const inTransactions = (run: (r: Repositories) => Promise<unknown>) =>
      asyncDb.transaction((atx) =>
        database.db.transaction(async (tx) => {
          const r = createRepositories(tx, { asyncCounts: true, asyncDb: atx })
          const before = await usedOn()
          await run(r)
          // The count is visible in the asynchronous pool's transaction, not yet outside it.
          const [mine] = rowsOf<{ used: number }>(
            await atx.execute(
              sql`select coalesce((select used from daily_usage where account_id = ${account.id} and day = ${DAY}), 0) as used`,
            ),
          )
          return { before, inAsync: Number(mine.used), asyncSetting: await setting(atx), setting: await setting(tx) }
        }),
      )
    let seen = await inTransactions((r) => r.usage.reserve(account.id, DAY, 100))
    t.same(seen, { before: 0, inAsync: 1, asyncSetting: 'off', setting: 'on' }, 'the first count of the day runs on the asynchronous pool')
    seen = await inTransactions((r) => r.usage.reserveMany(account.id, DAY, 100, 3))
    t.same(seen, { before: 1, inAsync: 4, asyncSetting: 'off', setting: 'on' }, 'so does a batch of counts')
    seen = await inTransactions((r) => r.usage.reserveWithToken(hashToken(token.token), account.id, DAY, now, 2))
    t.same(seen, { before: 4, inAsync: 6, asyncSetting: 'off', setting: 'on' }, 'and a count that checks the token')
    seen = await inTransactions((r) =>
      r.usage.reserveWithTokenLookingUp(hashToken(token.token), account.id, DAY, now, 1, ['none'], new Date(now.getTime() - 1000)),
    )
    t.same(seen, { before: 6, inAsync: 7, asyncSetting: 'off', setting: 'on' }, 'and one that also looks up the cache')
    t.equal(await usedOn(), 7, 'every count committed')
    seen = await inTransactions((r) => r.usage.refund(account.id, DAY))
    t.same(seen, { before: 7, inAsync: 7, asyncSetting: 'off', setting: 'on' }, 'a refund runs on the synchronous pool')
    t.equal(await usedOn(), 6, 'and committed')

    const cached = async (key: string) => (await deps.repos.cache.get(account.id, key, new Date(now.getTime() - 1000)))?.payload
    await asyncDb.transaction((atx) =>
      database.db.transaction(async (tx) => {
        const r = createRepositories(tx, { asyncCounts: true, asyncDb: atx })
        await r.cache.put(account.id, 'k1', 'payload-1', now, new Date(now.getTime() - 86_400_000))
        await r.cache.putMany([{ accountId: account.id, key: 'k2', payload: 'payload-2', createdAt: now }], 86_400_000)
        t.equal(await cached('k1'), undefined, 'a cache write runs on the asynchronous pool')
        t.equal(await cached('k2'), undefined, 'so does a batch of them')
      }),
    )
    t.equal(await cached('k1'), 'payload-1', 'and they committed')
    t.equal(await cached('k2'), 'payload-2')
  })
