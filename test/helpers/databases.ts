// Fresh, migrated databases for tests, without paying for a new cluster and its migrations each
// time: PGlite databases start from one migrated dump, PostgreSQL ones are copies of one migrated
// template database. Both are made once per version of the migrations (and of PGlite) and then
// reused by every test process; they hold the migrations only, never a test's data.
import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { MIGRATIONS_FOLDER, openDatabase } from '../../src/db/client.ts'

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

/** A new database on the TEST_DATABASE_URL server, empty (`migrated: false`) or a copy of the migrated template; dropped by `drop`. */
export async function newPostgresDatabase(migrated: boolean): Promise<{ url: string; drop: () => Promise<void> }> {
  const template = migrated ? await migratedPostgresTemplate() : undefined
  const name = `tea_test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`
  const admin = await adminClient()
  try {
    await admin.unsafe(`create database ${name}${template ? ` template ${template}` : ''}`)
  } finally {
    await admin.end()
  }
  return {
    url: databaseUrl(name),
    drop: async () => {
      const a = await adminClient()
      try {
        await a.unsafe(`drop database if exists ${name} with (force)`)
      } finally {
        await a.end()
      }
    },
  }
}
