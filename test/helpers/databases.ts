// Fresh, migrated databases for tests, without paying for a new cluster and its migrations each
// time: PGlite databases start from one migrated dump, PostgreSQL ones are copies of one migrated
// template database. Both are made once per version of the migrations (and of PGlite) and then
// reused by every test process; they hold the migrations only, never a test's data.
import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import tap from 'tap'
import { sql, type SQL } from 'drizzle-orm'
import { MIGRATIONS_FOLDER, openDatabase, type Database } from '../../src/db/client.ts'

const ROOT = resolve(import.meta.dirname, '../..')
const CACHE = join(ROOT, 'node_modules/.cache/tea-test')

/** Changes whenever a migration or the PGlite version changes. */
function migrationsKey(): string {
  const hash = createHash('sha256')
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]))
      .sort()
  for (const file of files(MIGRATIONS_FOLDER)) hash.update(file.slice(MIGRATIONS_FOLDER.length)).update(readFileSync(file))
  hash.update(JSON.parse(readFileSync(join(ROOT, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')).version)
  return hash.digest('hex').slice(0, 16)
}

/** Node's Blob reads itself in small chunks (a tenth of a second for a dump): hand over the bytes at once. */
class Image extends Blob {
  readonly #content: Uint8Array
  constructor(content: Uint8Array) {
    super([])
    this.#content = content
  }
  override async arrayBuffer(): Promise<ArrayBuffer> {
    return this.#content.slice().buffer
  }
}

let pgliteImage: Promise<Blob> | undefined

/** A dump of a migrated PGlite cluster, for `openDatabase({ dataDir: 'memory://', memoryImage })`. */
export function migratedPgliteImage(): Promise<Blob> {
  pgliteImage ??= (async () => {
    const file = join(CACHE, `pglite-${migrationsKey()}.tar`)
    try {
      return new Image(readFileSync(file))
    } catch {
      // not made yet
    }
    const { PGlite } = await import('@electric-sql/pglite')
    const { drizzle } = await import('drizzle-orm/pglite')
    const { migrate } = await import('drizzle-orm/pglite/migrator')
    const client = new PGlite()
    try {
      await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER })
      const image = await client.dumpDataDir('none')
      // Written aside then renamed: processes making it at the same time never read half a file.
      mkdirSync(CACHE, { recursive: true })
      const partial = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`
      const bytes = new Uint8Array(await image.arrayBuffer())
      writeFileSync(partial, bytes)
      renameSync(partial, file)
      for (const old of readdirSync(CACHE))
        if (/^pglite-[0-9a-f]+\.tar$/.test(old) && join(CACHE, old) !== file) rmSync(join(CACHE, old), { force: true })
      return new Image(bytes)
    } finally {
      await client.close()
    }
  })()
  return pgliteImage
}

async function adminClient() {
  const { default: postgres } = await import('postgres')
  return postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} })
}

function databaseUrl(name: string): string {
  const url = new URL(process.env.TEST_DATABASE_URL!)
  url.pathname = '/' + name
  return url.toString()
}

let postgresTemplate: Promise<string> | undefined

/**
 * The migrated template database on the TEST_DATABASE_URL server, made by the first process
 * that needs it (the others wait on an advisory lock) and kept for the next runs. Its name starts
 * with the TEST_DATABASE_URL database's; that database's templates of older migrations are
 * dropped. It is built under another name and renamed once complete, and nothing stays
 * connected to it, as `CREATE DATABASE … TEMPLATE` requires.
 */
function migratedPostgresTemplate(): Promise<string> {
  postgresTemplate ??= (async () => {
    const prefix = `${new URL(process.env.TEST_DATABASE_URL!).pathname.slice(1)}_template_`
    const name = prefix + migrationsKey()
    const admin = await adminClient()
    try {
      const session = await admin.reserve()
      await session`select pg_advisory_lock(7336222)`
      try {
        const [found] = await session`select 1 from pg_database where datname = ${name}`
        if (!found) {
          const building = `${name}_building`
          await session.unsafe(`drop database if exists ${building} with (force)`)
          await session.unsafe(`create database ${building}`)
          const database = await openDatabase({ databaseUrl: databaseUrl(building), dataDir: 'unused', maxConnections: 1 })
          await database.close()
          await session.unsafe(`alter database ${building} rename to ${name}`)
          const old = await session<
            { datname: string }[]
          >`select datname from pg_database where starts_with(datname, ${prefix}) and datname <> ${name}`
          for (const { datname } of old) await session.unsafe(`drop database if exists ${datname} with (force)`)
        }
      } finally {
        await session`select pg_advisory_unlock(7336222)`
        session.release()
      }
    } finally {
      await admin.end()
    }
    return name
  })()
  return postgresTemplate
}

async function createPostgresDatabase(migrated: boolean): Promise<{ name: string }> {
  const template = migrated ? await migratedPostgresTemplate() : undefined
  const name = `tea_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`
  const admin = await adminClient()
  try {
    await admin.unsafe(`create database ${name}${template ? ` template ${template}` : ''}`)
  } finally {
    await admin.end()
  }
  return { name }
}

async function dropDatabase(name: string): Promise<void> {
  const admin = await adminClient()
  try {
    await admin.unsafe(`drop database if exists ${name} with (force)`)
  } finally {
    await admin.end()
  }
}

/** A new database on the TEST_DATABASE_URL server, empty (`migrated: false`) or a copy of the migrated template; dropped by `drop`. */
export async function newPostgresDatabase(migrated: boolean): Promise<{ url: string; drop: () => Promise<void> }> {
  const { name } = await createPostgresDatabase(migrated)
  return { url: databaseUrl(name), drop: () => dropDatabase(name) }
}

/** A database lent to one test; `giveBack` when the test ends. */
export interface Lease {
  database: Database
  /** The PostgreSQL database's URL (PostgreSQL only). */
  url?: string
  giveBack(): Promise<void>
}

/**
 * Databases handed back by the tests of this process, for the next ones: opening a PGlite
 * cluster costs over half a second of CPU, and copying the PostgreSQL template costs the server
 * more than emptying a database does. PGlite clusters stay open; PostgreSQL databases are closed
 * (no connection outlives its test) and dropped when the process's tests are done.
 */
const spare = { pglite: [] as Database[], postgres: [] as string[] }

/** Rows the migrations put in: the plan catalogue. A test that changed them spoils its database. */
async function seedFingerprint(database: Database): Promise<string> {
  const [row] = await rowsOf<{ f: string | null }>(database, sql`select string_agg(p::text, ';' order by p.name) as f from plans p`)
  return String(row?.f)
}

/** A query's rows on either driver (postgres.js gives an array, PGlite an object with `rows`). */
async function rowsOf<T>(database: Database, query: SQL): Promise<T[]> {
  const raw: unknown = await database.db.execute(query)
  return (Array.isArray(raw) ? raw : ((raw as { rows?: T[] }).rows ?? [])) as T[]
}
let expectedSeed: string | undefined

/** Empties every table the tests fill; false when the database cannot be reused as if new. */
async function emptied(database: Database): Promise<boolean> {
  try {
    if ((await seedFingerprint(database)) !== expectedSeed) return false
    const tables = await rowsOf<{ name: string }>(
      database,
      sql`select quote_ident(tablename) as name from pg_tables where schemaname = 'public' and tablename <> 'plans'`,
    )
    await database.db.execute(sql.raw(`truncate ${tables.map((r) => r.name).join(', ')} restart identity cascade`))
    return true
  } catch {
    return false
  }
}

async function usable(database: Database): Promise<boolean> {
  return database
    .ping()
    .then(() => true)
    .catch(() => false)
}

async function leasePglite(): Promise<Lease> {
  let database: Database | undefined
  while (!database && spare.pglite.length) {
    const candidate = spare.pglite.pop()!
    if (await emptied(candidate)) database = candidate
    else await candidate.close().catch(() => {})
  }
  if (!database) {
    database = await openDatabase({ dataDir: 'memory://', memoryImage: await migratedPgliteImage() })
    expectedSeed ??= await seedFingerprint(database)
  }
  const lent = database
  return {
    database: lent,
    giveBack: async () => {
      if (await usable(lent)) {
        closeSparesAtEnd()
        spare.pglite.push(lent)
      } else await lent.close().catch(() => {})
    },
  }
}

let closingSpares = false
/**
 * Closes (PGlite) and drops (PostgreSQL) the spares once the process's tests are done: an open
 * cluster would keep the process alive. Registered on first use, from inside a test, so that the
 * root test ends when its tests are done, not while a file is still declaring them.
 */
function closeSparesAtEnd() {
  if (closingSpares) return
  closingSpares = true
  tap.teardown(async () => {
    for (const database of spare.pglite.splice(0)) await database.close().catch(() => {})
    if (!spare.postgres.length) return
    const admin = await adminClient()
    try {
      for (const name of spare.postgres.splice(0)) await admin.unsafe(`drop database if exists ${name} with (force)`)
    } finally {
      await admin.end()
    }
  })
}

async function leasePostgres(): Promise<Lease> {
  while (spare.postgres.length) {
    const name = spare.postgres.pop()!
    const url = databaseUrl(name)
    const database = await openDatabase({ databaseUrl: url, dataDir: 'unused', maxConnections: 10 }).catch(() => undefined)
    if (database && (await emptied(database))) return postgresLease(name, database)
    await database?.close().catch(() => {})
    await dropDatabase(name)
  }
  const { name } = await createPostgresDatabase(true)
  const database = await openDatabase({ databaseUrl: databaseUrl(name), dataDir: 'unused', maxConnections: 10 })
  expectedSeed ??= await seedFingerprint(database)
  return postgresLease(name, database)
}

function postgresLease(name: string, database: Database): Lease {
  return {
    database,
    url: databaseUrl(name),
    giveBack: async () => {
      const ok = await usable(database)
      await database.close().catch(() => {})
      if (!ok) return dropDatabase(name)
      closeSparesAtEnd()
      spare.postgres.push(name)
    },
  }
}

/** An empty migrated database for one test (returned by `giveBack`, emptied before its next use). */
export function leaseTestDatabase(driver: 'pglite' | 'postgres'): Promise<Lease> {
  return driver === 'pglite' ? leasePglite() : leasePostgres()
}
