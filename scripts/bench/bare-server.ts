// The baseline: bare Fastify answering the same JSON as the service, no database, no auth.
// Usage: node --import tsx scripts/bench/bare-server.ts <analyze.json> <quota.json>
import Fastify from 'fastify'
import { readFileSync } from 'node:fs'

// Answered as they are: the bench never reads them back.
const analyze: unknown = JSON.parse(readFileSync(process.argv[2], 'utf8'))
const quota: unknown = JSON.parse(readFileSync(process.argv[3], 'utf8'))
const app = Fastify({ logger: false, bodyLimit: 1024 * 1024 })
app.post('/v1/analyze', async () => analyze)
app.get('/v1/quota', async () => quota)
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' })
const { port } = app.server.address() as { port: number }
process.stdout.write(`listening http://127.0.0.1:${port}\n`)
// Exit on SIGTERM through process.exit, so that flags such as --cpu-prof write their output.
process.once('SIGTERM', () => process.exit(0))
