// The floor of GET /v1/quota: bare Fastify plus the one thing the product decisions require of
// every authenticated request beyond it, the database's word on the token (no cache may accept
// a revoked token). Per request: the Bearer header, SHA-256 of the token, the token look-up
// through the same batcher the service uses (src/domain/batcher.ts, two statements in flight)
// and the same statement text, sent by postgres.js directly (no Drizzle, no plugins, no hooks,
// no metrics, no logging); then the same JSON as the bare baseline. No real service can do a
// quota read with less, so its rate against bare Fastify's is the most the quota row can reach
// on the machine the bench runs on.
// Usage: node --import tsx scripts/bench/floor-server.ts <quota.json> <database url>
import Fastify from 'fastify'
import postgres from 'postgres'
import { hash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createBatcher } from '../../src/domain/batcher.ts'

const quota = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const sql = postgres(process.argv[3], { max: 10, onnotice: () => {} })

// The text Drizzle sends for `token_lookup_many` (src/db/repositories/tokens.ts).
const LOOKUP = `select "api_tokens"."token_hash", "api_tokens"."id", "accounts"."id", "plans"."name", "plans"."daily_limit", coalesce("daily_usage"."used", 0) from "api_tokens" inner join "accounts" on "accounts"."id" = "api_tokens"."account_id" inner join "plans" on "plans"."name" = (case when "accounts"."pending_plan_at" is not null and "accounts"."pending_plan_at" <= $1::timestamptz then "accounts"."pending_plan" else "accounts"."plan" end) left join "daily_usage" on ("daily_usage"."account_id" = "accounts"."id" and "daily_usage"."day" = $2) where ("api_tokens"."token_hash" = any($3::text[]) and "api_tokens"."revoked_at" is null)`

const lookup = createBatcher<string, boolean>({
  maxBatch: () => 256,
  maxInFlight: 2,
  async run(day, batch) {
    const hashes = [...new Set(batch.map((w) => w.item))]
    const rows = await sql.unsafe(LOOKUP, [new Date().toISOString(), day, hashes], { prepare: true }).values()
    const found = new Set(rows.map((r) => r[0] as string))
    for (const w of batch) w.resolve(found.has(w.item))
  },
})

const app = Fastify({ logger: false })
app.get('/v1/quota', async (request, reply) => {
  const header = request.headers.authorization
  const ok = header?.startsWith('Bearer ') && (await lookup(new Date().toISOString().slice(0, 10), hash('sha256', header.slice(7), 'hex')))
  if (!ok) return reply.code(401).send({ error: 'Unauthorized' })
  return quota
})
await app.listen({ port: 0, host: '127.0.0.1' })
const { port } = app.server.address() as { port: number }
process.stdout.write(`listening http://127.0.0.1:${port}\n`)
// Exit on SIGTERM through process.exit, so that flags such as --cpu-prof write their output.
process.once('SIGTERM', () => process.exit(0))
