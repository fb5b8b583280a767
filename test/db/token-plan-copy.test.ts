// Each token's row holds a copy of its account's plan and limits (drizzle/0002_token_plan_copy.sql),
// which the token look-up and the token check and count read instead of joining the account and
// the plan catalogue. The database's triggers write the copy in the transaction that changes what
// it copies, so the look-up and the count see a plan change exactly when they would have seen it
// in the account's row: an upgrade at once, a scheduled downgrade at its date, a cancelled one
// never, a catalogue change at once; and tokens made before the migration get the copy too.
import t from 'tap'
import { mkdtempSync, cpSync, readFileSync, writeFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { PGlite } from '@electric-sql/pglite'
import { drizzle } from 'drizzle-orm/pglite'
import { migrate } from 'drizzle-orm/pglite/migrator'
import { DRIVERS, openTestDatabase } from '../helpers/app.ts'
import { MIGRATIONS_FOLDER, type Database } from '../../src/db/client.ts'
import * as schema from '../../src/db/schema/index.ts'
import { createRepositories } from '../../src/db/repositories/index.ts'
import { createAccount } from '../../src/domain/accounts.ts'
import { createToken } from '../../src/domain/tokens.ts'
import { changePlan } from '../../src/domain/billing.ts'
import { hashToken } from '../../src/domain/token-format.ts'

const NOW = new Date('2026-11-22T12:00:00Z')
const DAY = '2026-11-22'

async function rows<T>(database: Database, query: ReturnType<typeof sql>): Promise<T[]> {
  const raw: unknown = await database.db.execute(query)
  return (Array.isArray(raw) ? raw : ((raw as { rows?: T[] }).rows ?? [])) as T[]
}

for (const driver of DRIVERS) {
  t.test(`the token's copy of its account's plan follows every change (${driver})`, async (t) => {
    const { database } = await openTestDatabase(t, driver)
    let now = NOW
    const repos = createRepositories(database.db)
    const deps = { repos, clock: () => now, tokenPrefix: 'tea_live_' }
    const account = await createAccount(deps, { email: `copy-${driver}@example.com`, plan: 'free' })
    const other = await createAccount(deps, { email: `other-${driver}@example.com`, plan: 'free' })
    const first = await createToken(deps, account.id, 'first')
    const second = await createToken(deps, account.id, 'second')
    const others = await createToken(deps, other.id, 'other')
    const hash = hashToken(first.token)
    const lookUp = async (token: string, at: Date) => {
      const p = await repos.tokens.findActiveByHash(hashToken(token), DAY, at)
      return p && { plan: p.plan, limit: p.limit }
    }
    const counted = async (at: Date, k = 1) => {
      const r = await repos.usage.reserveWithToken(hash, account.id, DAY, at, k)
      return r && { plan: r.principal.plan, limit: r.principal.limit, used: r.used }
    }

    t.same(await lookUp(first.token, now), { plan: 'free', limit: 100 }, 'a new token takes its account plan')
    t.same(await counted(now), { plan: 'free', limit: 100, used: 1 }, 'the count reads the same limit')

    await changePlan(deps, account.id, 'pro')
    t.same(await lookUp(first.token, now), { plan: 'pro', limit: 10000 }, 'an upgrade reaches the look-up at once')
    t.same(await lookUp(second.token, now), { plan: 'pro', limit: 10000 }, 'and every token of the account')
    t.same(await counted(now, 150), { plan: 'pro', limit: 10000, used: 151 }, 'and the count: 150 more fit under the new limit')
    t.same(await lookUp(others.token, now), { plan: 'free', limit: 100 }, "another account's token is left as it was")

    const third = await createToken(deps, account.id, 'third')
    t.same(await lookUp(third.token, now), { plan: 'pro', limit: 10000 }, 'a token made after the change takes the new plan')

    // A downgrade waits for the next cycle, one month after NOW (the account's billing anchor).
    await changePlan(deps, account.id, 'free')
    const beforeDate = new Date('2026-12-21T23:59:59Z')
    const atDate = new Date('2026-12-22T12:00:00Z')
    t.same(await lookUp(first.token, beforeDate), { plan: 'pro', limit: 10000 }, 'a scheduled downgrade does not apply before its date')
    t.same(await lookUp(first.token, atDate), { plan: 'free', limit: 100 }, 'and applies from its date')
    t.same(await counted(atDate), { plan: 'free', limit: 100, used: undefined }, 'the count refuses over the downgraded limit')
    const fourth = await createToken(deps, account.id, 'fourth')
    t.same(await lookUp(fourth.token, atDate), { plan: 'free', limit: 100 }, 'a token made meanwhile carries the pending downgrade too')

    await changePlan(deps, account.id, 'pro')
    t.same(await lookUp(first.token, atDate), { plan: 'pro', limit: 10000 }, 'a cancelled downgrade never applies')

    // The catalogue's limit, changed by hand (an operator), reaches the tokens at once.
    await database.db.execute(sql`update plans set daily_limit = 12345 where name = 'pro'`)
    t.teardown(async () => {
      await database.db.execute(sql`update plans set daily_limit = 10000 where name = 'pro'`)
    })
    t.same(await lookUp(first.token, now), { plan: 'pro', limit: 12345 }, 'a new limit in the catalogue reaches the tokens')
    await changePlan(deps, account.id, 'starter')
    t.same(await lookUp(first.token, atDate), { plan: 'starter', limit: 1000 }, 'a pending plan carries its own limit')
    await database.db.execute(sql`update plans set daily_limit = 1001 where name = 'starter'`)
    t.same(await lookUp(first.token, atDate), { plan: 'starter', limit: 1001 }, "the pending plan's new limit reaches the tokens too")
    t.same(await lookUp(first.token, now), { plan: 'pro', limit: 12345 }, 'while the current plan is still in force')
    await database.db.execute(sql`update plans set daily_limit = 1000 where name = 'starter'`)

    // Nothing else writes the copy: a token of no account is refused by the database.
    await t.rejects(
      database.db.execute(
        sql`insert into api_tokens (account_id, name, preview, token_hash) values ('00000000-0000-0000-0000-000000000000', 'x', 'x', 'x')`,
      ),
      'a token of no account is refused',
    )
    const [copy] = await rows<{ n: number }>(
      database,
      sql`select count(*)::int as n from api_tokens t join accounts a on a.id = t.account_id where t.plan is distinct from a.plan or t.pending_plan is distinct from a.pending_plan or t.pending_plan_at is distinct from a.pending_plan_at`,
    )
    t.equal(copy.n, 0, "every token's copy equals its account's plan")
    now = NOW
  })
}

t.test('tokens made before the migration get the copy (PGlite)', async (t) => {
  // The migrations up to the one before the copy, in a folder of their own.
  const dir = mkdtempSync(join(tmpdir(), 'tea-migrations-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  cpSync(MIGRATIONS_FOLDER, dir, { recursive: true })
  const journalPath = join(dir, 'meta', '_journal.json')
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] }
  const at = journal.entries.findIndex((e) => e.tag === '0002_token_plan_copy')
  t.ok(at > 0, 'the copy is a migration of its own')
  writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }))

  const client = new PGlite()
  t.teardown(() => client.close())
  const db = drizzle(client, { schema })
  await migrate(db, { migrationsFolder: dir })
  await client.exec(`
    insert into accounts (id, email, plan, pending_plan, pending_plan_at) values
      ('11111111-1111-1111-1111-111111111111', 'a@example.com', 'pro', 'free', '2026-12-01T00:00:00Z'),
      ('22222222-2222-2222-2222-222222222222', 'b@example.com', 'starter', null, null);
    insert into api_tokens (account_id, name, preview, token_hash) values
      ('11111111-1111-1111-1111-111111111111', 'a', 'p', 'ha'),
      ('22222222-2222-2222-2222-222222222222', 'b', 'p', 'hb');`)
  await migrate(db, { migrationsFolder: MIGRATIONS_FOLDER })
  const { rows: copied } = await client.query(
    `select token_hash, plan, daily_limit, pending_plan, pending_daily_limit, pending_plan_at is not null as pending_at from api_tokens order by token_hash`,
  )
  t.same(copied, [
    { token_hash: 'ha', plan: 'pro', daily_limit: 10000, pending_plan: 'free', pending_daily_limit: 100, pending_at: true },
    { token_hash: 'hb', plan: 'starter', daily_limit: 1000, pending_plan: null, pending_daily_limit: null, pending_at: false },
  ])
})
