// PostgreSQL backend CPU per statement of the token check and count and of the token look-up, in
// two forms: joining the account and the plan catalogue (the form before the token's copy of its
// plan, drizzle/0002_token_plan_copy.sql) and reading the token's row alone (the form the
// service sends now). Each form on a connection of its own, one statement at a time, the forms
// in turn round after round (alternating order), read from the backend's /proc schedstat (so
// PostgreSQL must run on this machine); the ratio of the two forms is taken round by round.
// Creates an account and a token in the database it is given: run it on a scratch database.
// Usage: npx tsx scripts/bench/plan-copy-micro.ts <database url> [statements per round 1500] [rounds 6] [names]
import { readFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import postgres from 'postgres'
import { openDatabase } from '../../src/db/client.ts'
import { createRepositories } from '../../src/db/repositories/index.ts'
import { createAccount } from '../../src/domain/accounts.ts'
import { createToken, bearerTokenHash } from '../../src/domain/tokens.ts'
import { utcDay } from '../../src/domain/clock.ts'

const url = process.argv[2]
const N = Number(process.argv[3] ?? 1500)
const ROUNDS = Number(process.argv[4] ?? 6)
const ONLY = process.argv[5]?.split(',')
const setup = await openDatabase({ databaseUrl: url, dataDir: 'unused', maxConnections: 2 })
const deps = { repos: createRepositories(setup.db), clock: () => new Date(), tokenPrefix: 'tea_live_' }
const account = await createAccount(deps, { email: `m-${randomBytes(4).toString('hex')}@example.com`, plan: 'business' })
const token = (await createToken(deps, account.id, 'm')).token
await setup.close()
const hash = bearerTokenHash(`Bearer ${token}`, 'tea_live_')
const day = utcDay(new Date())
const cur = `with "p" as (select "api_tokens"."id" as "token_id", "accounts"."id" as "account_id", "plans"."name" as "plan", "plans"."daily_limit" as "lim" from "api_tokens" inner join "accounts" on "accounts"."id" = "api_tokens"."account_id" inner join "plans" on "plans"."name" = (case when "accounts"."pending_plan_at" is not null and "accounts"."pending_plan_at" <= $1::timestamptz then "accounts"."pending_plan" else "accounts"."plan" end) where ("api_tokens"."token_hash" = $2 and "api_tokens"."revoked_at" is null and "api_tokens"."account_id" = $3 and true)), "r" as (insert into "daily_usage" ("account_id", "day", "used") select "account_id", $4::date as "day", $5::integer as "used" from "p" where $6::integer <= "lim" on conflict ("account_id","day") do update set "used" = "daily_usage"."used" + excluded.used where "daily_usage"."used" + excluded.used <= (select "lim" from "p") returning "used") select "token_id", "account_id", "plan", "lim", (select "used" from "r") from "p"`
const den = `with "p" as (select "id" as "token_id", "account_id", case when "pending_plan_at" is not null and "pending_plan_at" <= $1::timestamptz then "pending_plan" else "plan" end as "plan", case when "pending_plan_at" is not null and "pending_plan_at" <= $1::timestamptz then "pending_daily_limit" else "daily_limit" end as "lim" from "api_tokens" where ("token_hash" = $2 and "revoked_at" is null and "account_id" = $3)), "r" as (insert into "daily_usage" ("account_id", "day", "used") select "account_id", $4::date as "day", $5::integer as "used" from "p" where $6::integer <= "lim" on conflict ("account_id","day") do update set "used" = "daily_usage"."used" + excluded.used where "daily_usage"."used" + excluded.used <= (select "lim" from "p") returning "used") select "token_id", "account_id", "plan", "lim", (select "used" from "r") from "p"`
const lookCur = `select "api_tokens"."token_hash", "api_tokens"."id", "accounts"."id", "plans"."name", "plans"."daily_limit", coalesce("daily_usage"."used", 0) from "api_tokens" inner join "accounts" on "accounts"."id" = "api_tokens"."account_id" inner join "plans" on "plans"."name" = (case when "accounts"."pending_plan_at" is not null and "accounts"."pending_plan_at" <= $1::timestamptz then "accounts"."pending_plan" else "accounts"."plan" end) left join "daily_usage" on ("daily_usage"."account_id" = "accounts"."id" and "daily_usage"."day" = $2) where ("api_tokens"."token_hash" = any($3::text[]) and "api_tokens"."revoked_at" is null)`
const lookDen = `select t."token_hash", t."id", t."account_id", case when t.pending_plan_at is not null and t.pending_plan_at <= $1::timestamptz then t.pending_plan else t.plan end, case when t.pending_plan_at is not null and t.pending_plan_at <= $1::timestamptz then t.pending_daily_limit else t.daily_limit end, coalesce(u."used", 0) from "api_tokens" t left join "daily_usage" u on (u."account_id" = t."account_id" and u."day" = $2) where (t."token_hash" = any($3::text[]) and t."revoked_at" is null)`
const now = () => new Date().toISOString()
const variants: Record<string, { text: string; params: () => unknown[]; async: boolean }> = {
  'count, joins': { text: cur, params: () => [now(), hash, account.id, day, 5, 5], async: true },
  'count, token row': { text: den, params: () => [now(), hash, account.id, day, 5, 5], async: true },
  'look-up, joins': { text: lookCur, params: () => [now(), day, [hash]], async: false },
  'look-up, token row': { text: lookDen, params: () => [now(), day, [hash]], async: false },
  'select 1': { text: 'select 1', params: () => [], async: false },
}
const sel = Object.entries(variants).filter(([n]) => !ONLY || ONLY.some((o) => n.includes(o)))
const conns = new Map<string, { sql: postgres.Sql; pid: number }>()
for (const [name, v] of sel) {
  const sql = postgres(url, { max: 1, onnotice: () => {}, connection: v.async ? { synchronous_commit: 'off' } : {} })
  const [{ pid }] = await sql<{ pid: number }[]>`select pg_backend_pid() as pid`
  conns.set(name, { sql, pid })
  for (let i = 0; i < 200; i++) await sql.unsafe(v.text, v.params() as never[], { prepare: true }).values()
}
const cpu = (pid: number) => Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1000
const res = new Map<string, number[]>()
for (let r = 0; r < ROUNDS; r++) {
  const order = r % 2 ? [...sel].reverse() : sel
  for (const [name, v] of order) {
    const { sql, pid } = conns.get(name)!
    const b = cpu(pid)
    for (let i = 0; i < N; i++) await sql.unsafe(v.text, v.params() as never[], { prepare: true }).values()
    res.set(name, [...(res.get(name) ?? []), (cpu(pid) - b) / N])
  }
}
for (const [n, us] of res) {
  const s = [...us].sort((a, b) => a - b)
  console.log(`${n}: median ${s[s.length >> 1].toFixed(1)} µs (${us.map((u) => u.toFixed(1)).join(', ')})`)
}
const pairs = [
  ['count, token row', 'count, joins'],
  ['look-up, token row', 'look-up, joins'],
]
for (const [a, b] of pairs)
  if (res.has(a) && res.has(b)) {
    const q = res
      .get(a)!
      .map((x, i) => x / res.get(b)![i])
      .sort((x, y) => x - y)
    console.log(`${a} / ${b}: paired median ${q[q.length >> 1].toFixed(3)} (${q.map((x) => x.toFixed(2)).join(', ')})`)
  }
for (const { sql } of conns.values()) await sql.end()
