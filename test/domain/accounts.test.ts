// Sign-ups that race on one email: the unique index decides, and the loser gets EMAIL_TAKEN
// (classified by SQLSTATE through Drizzle's wrapping, on both drivers), not a 500.
import t from 'tap'
import { createAccount } from '../../src/domain/accounts.ts'
import { createRepositories } from '../../src/db/repositories/index.ts'
import { isUniqueViolation, sqlState } from '../../src/db/errors.ts'
import { DomainError } from '../../src/errors.ts'
import { DRIVERS, manualClock, openTestDatabase } from '../helpers/app.ts'

for (const driver of DRIVERS) {
  t.test(`${driver}: the second of two racing sign-ups is EMAIL_TAKEN`, async (t) => {
    const { database } = await openTestDatabase(t, driver)
    const repos = createRepositories(database.db, {})
    // Both sign-ups pass the look-up before either has inserted its row.
    const racing = { ...repos, accounts: { ...repos.accounts, findByEmail: async () => undefined } }
    const deps = { repos: racing, clock: manualClock() }
    const first = await createAccount(deps, { email: 'race@example.com', plan: 'free' })
    t.equal(first.email, 'race@example.com')
    const err = await createAccount(deps, { email: 'Race@Example.com', plan: 'free' }).catch((e: unknown) => e)
    t.ok(err instanceof DomainError, 'a DomainError')
    t.equal((err as DomainError).code, 'EMAIL_TAKEN')
  })
}

t.test('SQLSTATEs are read along the cause chain, never from a message', async (t) => {
  const coded = (code: string) => Object.assign(new Error('x'), { code })
  t.equal(sqlState(coded('23505')), '23505')
  t.equal(sqlState(new Error('Failed query', { cause: coded('23505') })), '23505', 'through a wrapper')
  t.equal(sqlState(coded('ECONNRESET')), undefined, 'a socket code is not a SQLSTATE')
  t.notOk(
    isUniqueViolation(new Error('duplicate key value violates unique constraint "accounts_email_unique"')),
    'a message alone says nothing',
  )
  const loop: { code?: string; cause?: unknown } = {}
  loop.cause = loop
  t.equal(sqlState(loop), undefined, 'a cause cycle ends')
})
