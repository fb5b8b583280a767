// The embedded database's lock (src/db/lock.ts): many processes starting at once against a
// lock left by a dead process; exactly one of them gets it, every time.
import t from 'tap'
import { fork, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { acquireDataDirLock } from '../../src/db/lock.ts'

const CONTENDER = fileURLToPath(new URL('../fixtures/processes/lock-contender.ts', import.meta.url))
/** A pid no process has (above the kernel's pid_max default of 4,194,304). */
const DEAD_PID = 2 ** 22 + 12345

type Reply = { ready?: boolean; won?: boolean; code?: string; released?: boolean }

function next(child: ChildProcess): Promise<Reply> {
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m as Reply))
    child.once('exit', (c) => reject(new Error(`contender exited with ${c}`)))
  })
}

t.test('many processes against a stale lock file: exactly one takes it each round', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tea-lock-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const PROCESSES = 12
  const ROUNDS = 25
  const children = Array.from({ length: PROCESSES }, () =>
    fork(CONTENDER, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  )
  t.teardown(() => children.forEach((c) => c.kill('SIGKILL')))
  await Promise.all(children.map(next))

  const winners: number[] = []
  for (let round = 0; round < ROUNDS; round++) {
    // Alternately a lock of the current format and one written by an older version.
    const stale =
      round % 2
        ? { pid: DEAD_PID, owner: 'server', since: new Date().toISOString(), nonce: round.toString(16).padStart(32, '0') }
        : { pid: DEAD_PID, owner: 'server', round }
    writeFileSync(join(dir, 'embedded.lock'), JSON.stringify(stale))
    const at = Date.now() + 100
    const replies = await Promise.all(
      children.map((c) => {
        const reply = next(c)
        c.send({ go: at, dataDir: dir })
        return reply
      }),
    )
    const won = replies.filter((r) => r.won).length
    winners.push(won)
    t.same(
      [...new Set(replies.filter((r) => !r.won).map((r) => r.code))].filter((c) => c !== 'DATABASE_IN_USE'),
      [],
      `round ${round}: the others are told DATABASE_IN_USE`,
    )
    const winner = children[replies.findIndex((r) => r.won)]
    if (winner) {
      const released = next(winner)
      winner.send({ release: true })
      await released
    }
  }
  t.same(winners, Array(ROUNDS).fill(1), `exactly one winner in each of ${ROUNDS} rounds of ${PROCESSES} processes`)
  t.same(readdirSync(dir), [], 'no file left behind once released')
})

t.test("a live holder keeps the lock; its release lets the next one in; a release never removes another holder's lock", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tea-lock-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  const first = acquireDataDirLock(dir, 'server')
  t.throws(() => acquireDataDirLock(dir, 'admin CLI'), { code: 'DATABASE_IN_USE' }, 'held by a live process')
  first.release()
  const second = acquireDataDirLock(dir, 'admin CLI')
  first.release()
  t.throws(
    () => acquireDataDirLock(dir, 'server'),
    { code: 'DATABASE_IN_USE' },
    'a second release of the first lock left the second in place',
  )
  second.release()
  t.same(readdirSync(dir), [])
})
