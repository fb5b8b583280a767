// Statements sent to the driver directly (src/db/raw-statement.ts), on each driver: the same rows
// as Drizzle's prepared statement (column for column), Drizzle's error wrapping, and no such path
// inside a transaction.
import t from 'tap'
import { eq, sql, DrizzleQueryError } from 'drizzle-orm'
import { DRIVERS, openTestDatabase } from '../helpers/app.ts'
import { rawStatement } from '../../src/db/raw-statement.ts'
import { createRepositories } from '../../src/db/repositories/index.ts'
import { createTokensRepository } from '../../src/db/repositories/tokens.ts'
import { createAccount } from '../../src/domain/accounts.ts'
import { createToken, revokeToken } from '../../src/domain/tokens.ts'
import { hashToken } from '../../src/domain/token-format.ts'
import { plans } from '../../src/db/schema/index.ts'
import { sqlState } from '../../src/db/errors.ts'
import type { Db } from '../../src/db/client.ts'

const NOW = new Date('2026-11-22T12:00:00Z')
const DAY = '2026-11-22'

for (const driver of DRIVERS) {
  t.test(`raw statements (${driver})`, async (t) => {
    const { database } = await openTestDatabase(t, driver)
    const db = database.db

    t.test('the rows of a query, as arrays in the order it selects, its placeholders filled by name', async (t) => {
      const q = db
        .select({ name: plans.name, limit: plans.dailyLimit, twice: sql<number>`${plans.dailyLimit} * ${sql.placeholder('k')}::integer` })
        .from(plans)
        .where(eq(plans.name, sql.placeholder('plan')))
      const raw = rawStatement(db, q)
      if (!raw) return t.fail('no raw path on an open database')
      const drizzle = await q.prepare('raw_test').execute({ plan: 'pro', k: 2 })
      t.same(await raw({ plan: 'pro', k: 2 }), [[drizzle[0].name, drizzle[0].limit, drizzle[0].twice]])
      t.same(await raw({ plan: 'no such plan', k: 2 }), [])
      await t.rejects(raw({ plan: 'pro' }), /No value for placeholder "k"/)
    })

    t.test("a failed statement is wrapped as Drizzle wraps it, the driver's error (and its SQLSTATE) as its cause", async (t) => {
      const raw = rawStatement(db, db.select({ n: sql<number>`${sql.placeholder('n')}::integer` }).from(plans))
      const err = await raw!({ n: 'not a number' }).then(
        () => undefined,
        (e: unknown) => e,
      )
      t.ok(err instanceof DrizzleQueryError)
      t.equal(sqlState(err), '22P02', 'invalid_text_representation, from the cause')
    })

    t.test('no raw path inside a transaction (Drizzle runs the statement there)', async (t) => {
      const q = db.select({ name: plans.name }).from(plans)
      await db.transaction(async (tx) => {
        t.equal(rawStatement(tx as unknown as Db, q), undefined)
      })
    })

    t.test('token look-ups: the raw path answers as the Drizzle path does', async (t) => {
      const repos = createRepositories(db)
      const deps = { repos, clock: () => NOW, tokenPrefix: 'tea_live_' }
      const a = await createAccount(deps, { email: `raw-a-${driver}@example.com`, plan: 'free' })
      const b = await createAccount(deps, { email: `raw-b-${driver}@example.com`, plan: 'pro' })
      const ta = await createToken(deps, a.id, 'a')
      const tb = await createToken(deps, b.id, 'b')
      const revoked = await createToken(deps, a.id, 'revoked')
      await revokeToken(deps, revoked.id)
      for (let i = 0; i < 3; i++) await repos.usage.reserve(b.id, DAY, 1000)
      const hashes = [ta, tb, revoked].map((x) => hashToken(x.token))
      // The same repository over a database object without the driver's client: Drizzle's path.
      const viaDrizzle = createTokensRepository(Object.create(db, { $client: { value: undefined } }) as Db)
      for (const hash of hashes) {
        const got = await repos.tokens.findActiveByHash(hash, DAY, NOW)
        t.same(got, await viaDrizzle.findActiveByHash(hash, DAY, NOW))
      }
      t.same(await repos.tokens.findActiveByHash(hashes[1], DAY, NOW), {
        tokenId: tb.id,
        accountId: b.id,
        plan: 'pro',
        limit: 10000,
        used: 3,
      })
      t.equal(await repos.tokens.findActiveByHash(hashes[2], DAY, NOW), undefined, 'revoked')
      const many = await repos.tokens.findActiveByHashes(hashes, DAY, NOW)
      const byHash = (rows: { hash: string }[]) => [...rows].sort((x, y) => x.hash.localeCompare(y.hash))
      t.same(byHash(many), byHash(await viaDrizzle.findActiveByHashes(hashes, DAY, NOW)))
      t.equal(many.length, 2, 'the revoked one is absent')
    })
  })
}
