// The process: configuration, database, application, listening, graceful shutdown.
import closeWithGrace from 'close-with-grace'
import { loadConfig } from './config.ts'
import { openDatabase } from './db/client.ts'
import { buildApp } from './app.ts'

const started = performance.now()
let config
try {
  config = loadConfig()
} catch (err) {
  console.error((err as Error).message)
  process.exit(1)
}
let database
try {
  database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    owner: 'server',
    maxConnections: config.databasePoolMax,
    statementTimeoutMs: config.databaseTimeoutMs,
  })
} catch (err) {
  console.error(`database: ${(err as Error).message}`)
  process.exit(1)
}
const app = await buildApp({ config, database })

// SIGTERM/SIGINT: stop accepting, let requests in flight finish (up to SHUTDOWN_GRACE_MS), then close the database.
closeWithGrace({ delay: config.shutdownGraceMs }, async ({ signal, err }) => {
  if (err) app.log.error({ err }, 'shutting down after an error')
  else app.log.info({ signal }, 'shutting down')
  await app.close()
  await database.close()
})

await app.listen({ port: config.port, host: config.host })
app.log.info(
  { database: database.kind, startupMs: Math.round(performance.now() - started), docs: '/docs', dashboard: '/dashboard' },
  'ready',
)
