// The floor of GET /v1/quota: bare Fastify plus the one thing the product decisions require of
// every authenticated request beyond it, the database's word on the token (no cache may accept
// a revoked token). Per request: the Bearer header, the token's checksum and SHA-256 (the
// service's bearerTokenHash), the token look-up through the same batcher the service uses, with
// the service's batch size and statements in flight (src/db/token-batcher.ts), and the same
// statement text, sent by postgres.js directly (Drizzle only yields the text, once; no plugins,
// no hooks, no metrics, no logging); then the same JSON as the bare baseline. A
// service bound by that decision can hardly answer a quota read with less, so its rate against
// bare Fastify's is about the most the quota row can reach on the machine the bench runs on.
// Usage: node --import tsx scripts/bench/floor-server.ts <quota.json> <database url>
import Fastify from 'fastify'
import postgres from 'postgres'
import { readFileSync } from 'node:fs'
import { drizzle } from 'drizzle-orm/postgres-js'
import { createBatcher } from '../../src/db/batcher.ts'
import { MAX_BATCH, MAX_IN_FLIGHT } from '../../src/db/token-batcher.ts'
import * as schema from '../../src/db/schema/index.ts'
import type { Db } from '../../src/db/client.ts'
import { createTokensRepository } from '../../src/db/repositories/tokens.ts'
import { bearerTokenHash } from '../../src/domain/tokens.ts'
import { utcDay } from '../../src/domain/clock.ts'
import { loadConfig } from '../../src/config.ts'

const quota: unknown = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const sql = postgres(process.argv[3], { max: 10, onnotice: () => {} })

// The statement text of the service's batched look-up (`token_lookup_many` in
// src/db/repositories/tokens.ts), taken from the repository itself through Drizzle's query log on
// one call at start-up, so that the floor sends what the service sends.
let LOOKUP = ''
let LOGGED: unknown[] = []
// Without the driver's client in sight, the repository runs it through Drizzle, which logs it.
const logged = Object.create(
  drizzle(sql, {
    schema,
    logger: {
      logQuery: (query, params) => {
        if (LOOKUP) return
        LOOKUP = query
        LOGGED = params
      },
    },
  }),
  { $client: { value: undefined } },
) as Db
const PROBE_DAY = '2000-01-01'
await createTokensRepository(logged).findActiveByHashes(['-'], PROBE_DAY, new Date())
// Which value each of the statement's parameters takes, from the values of the call above: the
// day, the hashes (the one array) or the instant (any other; it may appear more than once).
const PARAMS = LOGGED.map((v) => (v === PROBE_DAY ? 'day' : Array.isArray(v) ? 'hashes' : 'now'))
if (!/= any\(\$\d+::text\[\]\)/.test(LOOKUP) || PARAMS.filter((p) => p !== 'now').length !== 2)
  throw new Error(`floor-server: unexpected look-up statement: ${LOOKUP}`)

const lookup = createBatcher<string, boolean>({
  maxBatch: () => MAX_BATCH,
  maxInFlight: MAX_IN_FLIGHT,
  async run(day, batch) {
    const hashes = [...new Set(batch.map((w) => w.item))]
    const now = new Date().toISOString()
    const params = PARAMS.map((p) => (p === 'day' ? day : p === 'hashes' ? hashes : now))
    const rows = await sql.unsafe(LOOKUP, params, { prepare: true }).values()
    const found = new Set(rows.map((r) => r[0] as string))
    for (const w of batch) w.resolve(found.has(w.item))
  },
})

const app = Fastify({ logger: false })
const { tokenPrefix } = loadConfig()
app.get('/v1/quota', async (request, reply) => {
  // The service's own parse, checksum and hash of the header; a bad one throws its 401.
  let tokenHash: string
  try {
    tokenHash = bearerTokenHash(request.headers.authorization, tokenPrefix)
  } catch {
    return reply.code(401).send({ error: 'Unauthorized' })
  }
  if (!(await lookup(utcDay(new Date()), tokenHash))) return reply.code(401).send({ error: 'Unauthorized' })
  return quota
})
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' })
const { port } = app.server.address() as { port: number }
process.stdout.write(`listening http://127.0.0.1:${port}\n`)
// Exit on SIGTERM through process.exit, so that flags such as --cpu-prof write their output.
process.once('SIGTERM', () => process.exit(0))
