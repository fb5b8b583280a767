// Statements sent to the driver directly (src/db/raw-statement.ts), on each driver: the same rows
// as Drizzle's prepared statement (column for column), Drizzle's error wrapping, and no such path
// inside a transaction.
import t from 'tap'
import { randomUUID } from 'node:crypto'
import { eq, sql, DrizzleQueryError } from 'drizzle-orm'
import { DRIVERS, openTestDatabase } from '../helpers/app.ts'
import { rawStatement } from '../../src/db/raw-statement.ts'
import { createRepositories } from '../../src/db/repositories/index.ts'
import { createTokensRepository } from '../../src/db/repositories/tokens.ts'
import { createUsageRepository } from '../../src/db/repositories/usage.ts'
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

    t.test('counts: the raw path answers as the Drizzle path does, and is the one taken', async (t) => {
      const repos = createRepositories(db)
      const deps = { repos, clock: () => NOW, tokenPrefix: 'tea_live_' }
      const a = await createAccount(deps, { email: `raw-count-${driver}@example.com`, plan: 'free' })
      const tok = await createToken(deps, a.id, 'count')
      const revoked = await createToken(deps, a.id, 'revoked')
      await revokeToken(deps, revoked.id)
      const hash = hashToken(tok.token)
      const key = 'k'.repeat(64)
      const created = new Date('2026-11-22T11:59:00.123Z')
      await repos.cache.put(a.id, key, 'the payload', created, new Date(0))
      // Statements sent to the driver itself, counted; and the same repository without a client: Drizzle's path.
      let sent = 0
      const client = (db as unknown as { $client: object }).$client
      const counted = new Proxy(client, {
        apply: (f, self, args) => Reflect.apply(f as (...a: unknown[]) => unknown, self, args),
        get(c, prop) {
          const v = Reflect.get(c, prop) as unknown
          if ((prop === 'unsafe' || prop === 'query') && typeof v === 'function')
            return (...args: unknown[]) => {
              sent++
              return (v as (...a: unknown[]) => unknown).apply(c, args)
            }
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(c) : v
        },
      })
      const raw = createUsageRepository(Object.create(db, { $client: { value: counted } }) as Db, { asyncCommit: false })
      const viaDrizzle = createUsageRepository(Object.create(db, { $client: { value: undefined } }) as Db, { asyncCommit: false })

      t.equal(await raw.reserve(a.id, DAY, 100), 1)
      t.equal(sent, 1, 'sent to the driver by the repository itself')
      t.equal(await viaDrizzle.reserve(a.id, DAY, 100), 2)
      t.equal(sent, 1, 'not by the Drizzle path')
      t.equal(await raw.reserveMany(a.id, DAY, 100, 3), 5)
      t.equal(await viaDrizzle.reserveMany(a.id, DAY, 100, 3), 8)
      t.equal(await raw.reserveMany(a.id, DAY, 9, 2), undefined, 'does not fit')
      t.equal(await viaDrizzle.reserveMany(a.id, DAY, 9, 2), undefined, 'does not fit')
      t.equal(await raw.reserve(a.id, DAY, 8), undefined, 'limit reached')
      t.equal(await viaDrizzle.reserve(a.id, DAY, 8), undefined, 'limit reached')

      const principal = { tokenId: tok.id, accountId: a.id, plan: 'free', limit: 100 }
      t.same(await raw.reserveWithToken(hash, a.id, DAY, NOW, 2), { principal, used: 10 })
      t.same(await viaDrizzle.reserveWithToken(hash, a.id, DAY, NOW, 2), { principal, used: 12 })
      t.same(await raw.reserveWithToken(hash, a.id, DAY, NOW, 100), { principal, used: undefined }, 'valid, does not fit')
      t.same(await viaDrizzle.reserveWithToken(hash, a.id, DAY, NOW, 100), { principal, used: undefined }, 'valid, does not fit')
      for (const repo of [raw, viaDrizzle]) {
        t.equal(await repo.reserveWithToken(hashToken(revoked.token), a.id, DAY, NOW, 1), undefined, 'revoked')
        t.equal(await repo.reserveWithToken(hash, randomUUID(), DAY, NOW, 1), undefined, "another account's")
      }

      const entry = { key, payload: 'the payload', createdAt: created }
      const lookUp = (repo: typeof raw, keys: string[], notBefore: Date) =>
        repo.reserveWithTokenLookingUp(hash, a.id, DAY, NOW, 1, keys, notBefore)
      t.same(await lookUp(raw, [key, 'x'.repeat(64)], new Date(0)), { principal, used: 13, cached: [entry] })
      t.same(await lookUp(viaDrizzle, [key, 'x'.repeat(64)], new Date(0)), { principal, used: 14, cached: [entry] })
      const rawFound = await lookUp(raw, [key], new Date(0))
      t.ok(rawFound?.cached[0].createdAt instanceof Date, 'a date on both drivers')
      t.equal(rawFound?.cached[0].createdAt.getTime(), created.getTime())
      t.same(await lookUp(raw, [key], NOW), { principal, used: 16, cached: [] }, 'expired: not read')
      t.same(await lookUp(viaDrizzle, [key], NOW), { principal, used: 17, cached: [] }, 'expired: not read')
      t.equal(await raw.reserveWithTokenLookingUp(hashToken(revoked.token), a.id, DAY, NOW, 1, [key], new Date(0)), undefined)

      t.equal(await raw.refund(a.id, DAY), 16)
      t.equal(await viaDrizzle.refund(a.id, DAY), 15)
      t.equal(await raw.refund(randomUUID(), DAY), undefined, 'nothing to refund')
    })
  })
}
