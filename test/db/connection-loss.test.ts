// A connection lost while postgres.js is still opening it: its first statement is the driver's
// own array-type query (fetch_types), sent before the caller's. The caller's statement must fail
// with a "database down" error (a 503 upstream) and nothing else may reject: an unhandled
// rejection ends a server process. A relay in front of the test server cuts the connection at
// exactly that query, so the fault is deterministic and the shared server is never stopped.
import t from 'tap'
import { createServer, connect, type Server, type Socket } from 'node:net'
import { openDatabase } from '../../src/db/client.ts'
import { isDatabaseDown } from '../../src/db/errors.ts'
import { freshPostgresUrl } from '../helpers/app.ts'

const unhandled: unknown[] = []
process.on('unhandledRejection', (reason) => {
  unhandled.push(reason)
})

/** Resolves once the event loop has gone round a few times: a dropped rejection is reported by then. */
const settle = () => new Promise((r) => setTimeout(r, 100))

/**
 * A TCP relay to `target`. `cutAtTypeQuery()`: the next connection that sends the driver's
 * array-type query is closed there (as a backend ended by the server), and the relay stops
 * listening, so the driver's reconnect is refused. `resume()` listens again.
 */
async function relay(target: { host: string; port: number }) {
  const sockets = new Set<Socket>()
  let armed = false
  const server: Server = createServer((client) => {
    const upstream = connect(target.port, target.host)
    for (const s of [client, upstream]) {
      sockets.add(s)
      s.on('error', () => s.destroy())
      s.on('close', () => sockets.delete(s))
    }
    client.on('data', (chunk: Buffer) => {
      if (armed && chunk.includes('pg_catalog.pg_type')) {
        armed = false
        server.close()
        client.end()
        upstream.destroy()
        return
      }
      upstream.write(chunk)
    })
    upstream.on('data', (chunk: Buffer) => client.write(chunk))
    client.on('close', () => upstream.destroy())
    upstream.on('close', () => client.end())
  })
  const listen = () => new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', () => resolve()))
  await listen()
  const port = (server.address() as { port: number }).port
  return {
    port,
    cutAtTypeQuery() {
      armed = true
    },
    resume: () => new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', () => resolve())),
    close() {
      for (const s of sockets) s.destroy()
      server.close()
    },
  }
}

t.test(
  'a connection lost at the driver’s type query: the statement fails as "database down", nothing is left unhandled',
  { skip: !process.env.TEST_DATABASE_URL && 'TEST_DATABASE_URL is not set' },
  async (t) => {
    const { url, drop } = await freshPostgresUrl()
    t.teardown(drop)
    const target = new URL(url)
    const r = await relay({ host: target.hostname, port: Number(target.port || 5432) })
    t.teardown(() => r.close())
    const viaRelay = new URL(url)
    viaRelay.hostname = '127.0.0.1'
    viaRelay.port = String(r.port)
    // Migrations open (and end) connections of their own; the pool's first one opens at the ping.
    const database = await openDatabase({ databaseUrl: viaRelay.toString(), dataDir: 'unused', maxConnections: 2 })
    t.teardown(() => database.close())

    r.cutAtTypeQuery()
    const err = await database.ping().then(
      () => undefined,
      (e: unknown) => e,
    )
    t.ok(err, 'the statement fails')
    t.ok(isDatabaseDown(err), `as "database down" (${(err as { cause?: { code?: string } } | undefined)?.cause?.code})`)
    await settle()
    t.same(
      unhandled.map((e) => (e as { code?: string }).code ?? String(e)),
      [],
      'no unhandled rejection',
    )

    await r.resume()
    await database.ping()
    t.pass('the same pool answers once the server can be reached again')
    await settle()
    t.same(
      unhandled.map((e) => (e as { code?: string }).code ?? String(e)),
      [],
      'still none',
    )
  },
)
