// Batched reads and writes of the shared cache level (src/db/cache-batcher.ts) against
// each driver: the same answers as one statement per call, in fewer statements.
import t from 'tap'
import { DRIVERS, openTestDatabase } from '../helpers/app.ts'
import { createRepositories } from '../../src/db/repositories/index.ts'
import { createAccount } from '../../src/domain/accounts.ts'
import { withBatchedCacheStatements } from '../../src/db/cache-batcher.ts'
import type { CacheRepository } from '../../src/db/repositories/cache.ts'

const DAY_MS = 24 * 60 * 60 * 1000
const NOW = new Date('2026-11-22T12:00:00Z')
const before = (ms: number) => new Date(NOW.getTime() - ms)

for (const driver of DRIVERS) {
  t.test(`cache statements are batched and exact (${driver})`, async (t) => {
    const { database } = await openTestDatabase(t, driver)
    const repos = createRepositories(database.db)
    const deps = { repos, clock: () => NOW }
    const a = await createAccount(deps, { email: `ca-${driver}@example.com`, plan: 'free' })
    const b = await createAccount(deps, { email: `cb-${driver}@example.com`, plan: 'free' })
    const statements = { get: 0, getMany: 0, put: 0, putMany: 0 }
    const counted: CacheRepository = {
      ...repos.cache,
      get: (...x) => (statements.get++, repos.cache.get(...x)),
      getMany: (...x) => (statements.getMany++, repos.cache.getMany(...x)),
      put: (...x) => (statements.put++, repos.cache.put(...x)),
      putMany: (...x) => (statements.putMany++, repos.cache.putMany(...x)),
    }
    const cache = withBatchedCacheStatements(counted)

    // An old entry (more than 24 hours) and a live one, written directly.
    await repos.cache.put(a.id, 'old', 'old payload', before(DAY_MS + 1000), before(2 * DAY_MS))
    await repos.cache.put(a.id, 'live', 'first payload', before(1000), before(DAY_MS + 1000))

    const put = (accountId: string, key: string, payload: string) => cache.put(accountId, key, payload, NOW, before(DAY_MS))
    const written = await Promise.all([
      put(a.id, 'k1', 'p1'),
      put(a.id, 'k2', 'p2'),
      put(b.id, 'k1', 'b1'), // same key, another account: another entry
      put(a.id, 'k2', 'p2 again'), // the same entry twice in one batch
      put(a.id, 'old', 'new payload'), // an expired row is replaced
      put(a.id, 'live', 'second payload'), // a live row wins
    ])
    t.same(written.slice(0, 5), Array(5).fill(NOW), 'written entries report their time')
    t.same(written[5], NOW, 'a kept entry reports the caller time, as put does')
    t.same(statements, { get: 0, getMany: 0, put: 0, putMany: 1 }, 'the six writes of one turn went in one statement')
    t.same(await put(a.id, 'k3', 'p3'), NOW, 'a lone write…')
    t.same(statements, { get: 0, getMany: 0, put: 1, putMany: 1 }, '…goes as the single-row statement')

    const get = (accountId: string, key: string) => cache.get(accountId, key, before(DAY_MS))
    const read = await Promise.all([
      get(a.id, 'k1'),
      get(a.id, 'k2'),
      get(b.id, 'k1'),
      get(b.id, 'k2'),
      get(a.id, 'old'),
      get(a.id, 'live'),
      get(a.id, 'k1'),
    ])
    t.same(
      read.map((r) => r?.payload),
      ['p1', 'p2', 'b1', undefined, 'new payload', 'first payload', 'p1'],
      'each call gets its own entry; the first write of a key won; the expired row was replaced',
    )
    t.same(read[5]!.createdAt, before(1000), 'the kept entry keeps its time')
    t.same([statements.get, statements.getMany], [0, 1], 'the seven reads of one turn went in one statement')
    t.equal((await get(a.id, 'k3'))!.payload, 'p3', 'a lone read…')
    t.same([statements.get, statements.getMany], [1, 1], '…goes as the single-row statement')
    t.equal(await cache.get(a.id, 'live', before(500)), undefined, 'an entry older than the cut-off is not returned')
  })

  t.test(`a single cache write follows the first-wins and 24-hour rules (${driver})`, async (t) => {
    const { database } = await openTestDatabase(t, driver)
    const repos = createRepositories(database.db)
    const a = await createAccount({ repos, clock: () => NOW }, { email: `cs-${driver}@example.com`, plan: 'free' })
    const put = (key: string, payload: string, at: Date) => repos.cache.put(a.id, key, payload, at, new Date(at.getTime() - DAY_MS))
    t.same(await put('k', 'first', before(DAY_MS + 3000)), before(DAY_MS + 3000), 'a new entry reports its time')
    t.same(await put('k', 'second', before(2000)), before(2000), 'an entry 24 hours old is replaced')
    t.same(await put('k', 'third', before(1000)), before(1000), 'a live entry is kept; the caller gets its own time back')
    const row = await repos.cache.get(a.id, 'k', before(DAY_MS))
    t.same([row?.payload, row?.createdAt], ['second', before(2000)], 'the stored entry is the replacement, with its time')
    for (let i = 0; i < 3; i++) await put(`n${i}`, `p${i}`, NOW) // the prepared statement runs again on the same connection
    t.same(
      (
        await repos.cache.getMany(
          [0, 1, 2].map((i) => ({ accountId: a.id, key: `n${i}` })),
          before(DAY_MS),
        )
      )
        .map((r) => r.payload)
        .sort(),
      ['p0', 'p1', 'p2'],
    )
  })
}
