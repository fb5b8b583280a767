// The statement deadline (src/db/deadline.ts) and the classification of database errors as
// "unavailable" (503) by their code, never their message.
import t from 'tap'
import { sql } from 'drizzle-orm'
import { openDatabase } from '../../src/db/client.ts'
import { DatabaseTimeoutError, withDeadline } from '../../src/db/deadline.ts'
import { isDatabaseDown } from '../../src/db/errors.ts'
import { toApiError } from '../../src/plugins/app/errors.ts'
import { buildTestApp, englishText, freshPostgresUrl, manualClock } from '../helpers/app.ts'
import { migratedPgliteImage } from '../helpers/databases.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const T = 300
/** Drizzle wraps a failed statement's error (DrizzleQueryError) with the driver's as its cause. */
const timedOut = (e: unknown) => e instanceof DatabaseTimeoutError || (e as { cause?: unknown })?.cause instanceof DatabaseTimeoutError

t.test('database errors are classified by code', async (t) => {
  const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code })
  for (const code of [
    '53300',
    '57P03',
    '57P01',
    '57014',
    '08000',
    '08001',
    '08006',
    '08P01',
    'CONNECTION_CLOSED',
    'DATABASE_TIMEOUT',
    'ECONNREFUSED',
  ]) {
    t.ok(isDatabaseDown(coded(code)), `${code}: unavailable`)
    const api = toApiError(coded(code))
    t.same([api?.statusCode, api?.code], [503, 'DATABASE_UNAVAILABLE'], `${code}: 503 DATABASE_UNAVAILABLE`)
  }
  t.ok(isDatabaseDown(Object.assign(new Error('wrapped'), { cause: coded('53300') })), 'through a cause')
  for (const code of ['23505', '42P01', '22P02', '53100', '080', '0800000'])
    t.notOk(isDatabaseDown(coded(code)), `${code}: not unavailable`)
  t.notOk(isDatabaseDown(new Error('sorry, too many clients already')), 'a message alone says nothing')
  t.notOk(isDatabaseDown(coded('XX000', 'connection refused')), 'nor does a message beside another code')
})

t.test('withDeadline: the value in time, a typed error after, and the late outcome', async (t) => {
  t.equal(await withDeadline(Promise.resolve(7), T), 7)
  await t.rejects(withDeadline(Promise.reject(Object.assign(new Error('boom'), { code: '23505' })), T), { code: '23505' })
  let timedOut = false
  let finished = false
  const work = sleep(T * 2).then(() => ((finished = true), 'late'))
  const err = await withDeadline(work, T, () => (timedOut = true)).catch((e) => e)
  t.ok(err instanceof DatabaseTimeoutError, 'a DatabaseTimeoutError')
  t.equal(err.code, 'DATABASE_TIMEOUT')
  t.ok(timedOut, 'onTimeout ran')
  t.notOk(finished, 'at the deadline, before the work finished')
  t.equal(await err.late, 'late', 'the late outcome is still there to see')
})

t.test('PGlite: a statement waiting behind a transaction fails at the deadline; a late transaction does not run', async (t) => {
  const database = await openDatabase({ dataDir: 'memory://', memoryImage: await migratedPgliteImage(), statementTimeoutMs: T })
  t.teardown(() => database.close())
  const { db } = database
  let released!: () => void
  const hold = new Promise<void>((r) => (released = r))
  // A transaction holds the embedded database across its awaits.
  const long = db.transaction(async (tx) => {
    await tx.execute(sql`select 1`)
    await hold
  })
  const longOutcome = long.catch((e) => e)
  await sleep(10)
  const started = performance.now()
  // A timer set for the deadline at the same moment shows how late this machine runs timers.
  const probe = sleep(T).then(() => performance.now() - started)
  const waiting = await db.execute(sql`select 1`).catch((e) => e)
  const took = performance.now() - started
  t.ok(timedOut(waiting), 'the statement behind it: DatabaseTimeoutError')
  const timerFiredAfter = await probe
  t.ok(
    took < timerFiredAfter + T / 2,
    `at the deadline (${Math.round(took)} ms; a timer for it fired after ${Math.round(timerFiredAfter)} ms)`,
  )
  let ran = false
  const late = db.transaction(async (tx) => {
    ran = true
    await tx.execute(sql`select 1`)
  })
  t.ok(timedOut(await late.catch((e) => e)), 'a transaction that waits past its deadline fails')
  t.ok(timedOut(await longOutcome), 'and so does the one that held the database too long')
  released()
  await sleep(50)
  t.notOk(ran, 'the late transaction never ran its body')
  // The database's result type depends on its driver: PGlite answers `{ rows }`.
  const again: unknown = await db.execute(sql`select 2 as n`)
  t.same((again as { rows: unknown[] }).rows, [{ n: 2 }], 'the database answers again')
})

t.test(
  'PostgreSQL: statement_timeout frees the connection of a statement past its deadline',
  { skip: !process.env.TEST_DATABASE_URL && 'TEST_DATABASE_URL not set' },
  async (t) => {
    const { url, drop } = await freshPostgresUrl()
    t.teardown(drop)
    // One connection: a statement still running on it would hold up the next.
    const database = await openDatabase({ databaseUrl: url, dataDir: 'unused', maxConnections: 1, statementTimeoutMs: T })
    t.teardown(() => database.close())
    const slow = (await database.db.execute(sql`select pg_sleep(${(T * 10) / 1000})`).catch((e) => e)) as { cause?: { code?: string } }
    t.ok(isDatabaseDown(slow), `the slow statement fails as unavailable (${slow.cause?.code})`)
    // Had the server not stopped the slow one, this would wait behind it past its own deadline.
    const next = await database.db.execute(sql`select 1 as n`).catch((e) => e)
    t.same(Array.from(next as unknown[]), [{ n: 1 }], 'the next statement on the same connection runs: the server stopped the slow one')
    let ran = 0
    await t.rejects(
      database.db.transaction(async (tx) => {
        ran++
        await tx.execute(sql`select pg_sleep(${(T * 3) / 1000})`)
        ran++
      }),
      'a transaction past its deadline fails',
    )
    t.equal(ran, 1, 'and stops at its slow statement')
  },
)

t.test('a count applied after its deadline is refunded: its request was answered 503', async (t) => {
  const database = await openDatabase({ dataDir: 'memory://', memoryImage: await migratedPgliteImage(), statementTimeoutMs: T })
  t.teardown(() => database.close())
  const clock = manualClock()
  const h = await buildTestApp(t, { database, clock, config: { databaseTimeoutMs: T } })
  const { account, token } = await h.account('free')
  const analyze = () =>
    h.app.inject({ method: 'POST', url: '/v1/analyze', headers: { authorization: `Bearer ${token}` }, payload: { text: englishText(1) } })
  t.equal((await analyze()).statusCode, 200, 'served (and cached on this node)')

  // The embedded database is held by a transaction; the next count waits behind it.
  let release!: () => void
  const held = database.db.transaction(() => new Promise<void>((r) => (release = r))).catch(() => {})
  const res = await analyze()
  t.same([res.statusCode, res.json().code], [503, 'DATABASE_UNAVAILABLE'], 'the count passed its deadline: 503')
  release()
  await held
  // The count still ran when the database was free again; it is refunded.
  const end = Date.now() + T * 20
  while ((await h.repos.usage.usedOn(account.id, '2026-11-22')) !== 1 && Date.now() < end) await sleep(50)
  t.equal(await h.repos.usage.usedOn(account.id, '2026-11-22'), 1, 'only the served request stays counted')
})
