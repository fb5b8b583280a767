// One Drizzle schema over two drivers: PGlite in-process (embedded default) or a PostgreSQL
// server through postgres.js when DATABASE_URL is set. Migrations apply at open.
import { mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import type { Sql } from 'postgres'
import { sql } from 'drizzle-orm'
import * as schema from './schema/index.ts'
import { acquireDataDirLock, type DataDirLock } from './lock.ts'
import { pgliteWithDeadline, postgresWithDeadline } from './deadline.ts'

export type Schema = typeof schema
export type Db = PgDatabase<PgQueryResultHKT, Schema>

export interface Database {
  db: Db
  kind: 'pglite' | 'postgres'
  /**
   * On a PostgreSQL server: a second pool whose connections commit asynchronously
   * (`synchronous_commit = off` for the session), for the writes whose loss on a database crash
   * can only under-count or cost an analysis afresh: the counts and the cache writes (see
   * src/db/repositories/async-commit.ts). Every other write goes through `db` and commits
   * synchronously. Absent on PGlite (one connection, and no WAL writer: src/db/repositories/usage.ts).
   */
  asyncDb?: Db
  /** Cheap round trip, for readiness. */
  ping(): Promise<void>
  close(): Promise<void>
}

export const MIGRATIONS_FOLDER = resolve(dirname(fileURLToPath(import.meta.url)), '../../drizzle')

export interface OpenOptions {
  databaseUrl?: string
  /** Embedded data folder; `memory://` keeps PGlite in memory (tests). */
  dataDir: string
  /**
   * With `memory://`: start from this dump (PGlite `dumpDataDir`) instead of an empty cluster.
   * Tests start each database from one migrated dump: creating a cluster costs seconds of CPU.
   */
  memoryImage?: Blob
  /** Connections to a PostgreSQL server, shared by its two pools (`db` and `asyncDb`). */
  maxConnections?: number
  /** Who holds the embedded database, written into its lock file. */
  owner?: string
  /**
   * Deadline of every statement, in ms (src/db/deadline.ts; on PostgreSQL also its
   * statement_timeout). Unset: none (migrations and the admin CLI's long reports).
   */
  statementTimeoutMs?: number
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl, opts.maxConnections ?? 10, opts.statementTimeoutMs)
  return openPglite(opts.dataDir, opts.owner ?? 'server', opts.statementTimeoutMs, opts.memoryImage)
}

async function openPostgres(url: string, max: number, timeoutMs: number | undefined): Promise<Database> {
  const { default: postgres } = await import('postgres')
  const { drizzle } = await import('drizzle-orm/postgres-js')
  const { migrate } = await import('drizzle-orm/postgres-js/migrator')
  // Migrations run on a client of their own, without deadlines: one may take long, and a node
  // waits for another's migration lock as long as it takes.
  const migrator = postgres(url, { max: 2, onnotice: () => {}, connect_timeout: 5 })
  try {
    await migrateOnce(migrator, () => migrate(drizzle(migrator, { schema }), { migrationsFolder: MIGRATIONS_FOLDER }))
  } finally {
    await migrator.end({ timeout: 5 })
  }
  const pool = (size: number, settings: Record<string, string | number>) =>
    postgres(url, {
      max: size,
      onnotice: () => {},
      // The server ends a statement that runs longer than the deadline (57014): its connection
      // comes back to the pool instead of staying busy with work nobody waits for.
      connection: { ...(timeoutMs ? { statement_timeout: timeoutMs } : {}), ...settings },
      // Bounded waits so a dead server turns into a 503 quickly instead of a hung request.
      connect_timeout: 5,
      idle_timeout: 60,
      // postgres.js waits up to 20 s (exponential backoff) before reconnecting after failures,
      // and queries queued meanwhile wait with it: a stopped server would hang requests instead
      // of answering 503. Retry within a quarter of a second instead.
      backoff: () => 0.25,
    })
  // The counts' and cache writes' pool: asynchronous commits as the session's setting, instead
  // of a `set_config` saved and restored inside every statement (figures: docs/performance.md).
  // The node's `max` connections are shared between the two pools (each has one at least); their
  // connections open on demand and close when idle.
  const asyncMax = Math.max(1, Math.floor(max / 2))
  const client = pool(Math.max(1, max - asyncMax), {})
  const asyncClient = pool(asyncMax, { synchronous_commit: 'off' })
  const wrap = (c: Sql) => drizzle(timeoutMs ? postgresWithDeadline(c, timeoutMs) : c, { schema }) as unknown as Db
  const db = wrap(client)
  return {
    db,
    kind: 'postgres',
    asyncDb: wrap(asyncClient),
    ping: async () => {
      await db.execute(sql`select 1`)
    },
    close: async () => {
      await Promise.all([client.end({ timeout: 5 }), asyncClient.end({ timeout: 5 })])
    },
  }
}

/**
 * Several nodes may start at once on one server; a session-level advisory lock held on a
 * reserved connection makes exactly one of them run the migrations while the others wait,
 * instead of racing on CREATE TABLE. The migrator runs on the pool's other connections.
 */
async function migrateOnce(client: Sql, run: () => Promise<void>): Promise<void> {
  const reserved = await client.reserve()
  try {
    await reserved`select pg_advisory_lock(7336221)`
    try {
      await run()
    } finally {
      await reserved`select pg_advisory_unlock(7336221)`
    }
  } finally {
    reserved.release()
  }
}

async function openPglite(dataDir: string, owner: string, timeoutMs: number | undefined, memoryImage: Blob | undefined): Promise<Database> {
  const { PGlite } = await import('@electric-sql/pglite')
  const { drizzle } = await import('drizzle-orm/pglite')
  const { migrate } = await import('drizzle-orm/pglite/migrator')
  let lock: DataDirLock | undefined
  let client: InstanceType<typeof PGlite>
  if (dataDir.startsWith('memory://')) {
    client = new PGlite(memoryImage ? { loadDataDir: memoryImage } : undefined)
  } else {
    mkdirSync(dataDir, { recursive: true })
    lock = acquireDataDirLock(dataDir, owner)
    try {
      client = new PGlite(join(dataDir, 'pg'))
    } catch (err) {
      lock.release()
      throw err
    }
  }
  const db = drizzle(timeoutMs ? pgliteWithDeadline(client, timeoutMs) : client, { schema }) as unknown as Db
  try {
    await migrate(drizzle(client, { schema }), { migrationsFolder: MIGRATIONS_FOLDER })
  } catch (err) {
    await client.close()
    lock?.release()
    throw err
  }
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await client.query('select 1')
    },
    close: async () => {
      await client.close()
      lock?.release()
    },
  }
}
