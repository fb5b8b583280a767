import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../src/db/client.ts'
import { freshPostgresUrl } from '../helpers/app.ts'

t.test(
  'nodes starting together on one PostgreSQL migrate once, without racing',
  { skip: !process.env.TEST_DATABASE_URL && 'TEST_DATABASE_URL is not set' },
  async (t) => {
    const { url, drop } = await freshPostgresUrl()
    t.teardown(drop)
    const dbs = await Promise.all([1, 2, 3, 4].map(() => openDatabase({ databaseUrl: url, dataDir: 'unused', maxConnections: 3 })))
    t.equal(dbs.length, 4)
    for (const d of dbs) await d.ping()
    await Promise.all(dbs.map((d) => d.close()))
  },
)

t.test('the embedded database: one opener at a time, reopenable after close, data kept', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tea-db-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const first = await openDatabase({ dataDir: dir })
  await t.rejects(openDatabase({ dataDir: dir }), { code: 'DATABASE_IN_USE' }, 'a second opener is refused')
  const { createRepositories } = await import('../../src/db/repositories/index.ts')
  await createRepositories(first.db).accounts.insert({
    email: 'kept@example.com',
    passwordHash: null,
    plan: 'free',
    cycleAnchor: new Date(),
  })
  await first.close()
  const again = await openDatabase({ dataDir: dir })
  t.teardown(() => again.close())
  t.ok(await createRepositories(again.db).accounts.findByEmail('kept@example.com'), 'data survives a restart')
})
