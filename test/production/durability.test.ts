// The embedded database (PGlite) keeps every count whose answer was sent when its process is
// killed with SIGKILL: the real server process, a data folder of its own, a restart on it.
import t from 'tap'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../src/db/client.ts'
import { createRepositories } from '../../src/db/repositories/index.ts'
import { createAccount } from '../../src/domain/accounts.ts'
import { createToken } from '../../src/domain/tokens.ts'
import { englishText } from '../helpers/app.ts'
import { startServerProcess } from './helpers/server-process.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

t.test('PGlite, kill -9 after answers were sent: every answered request is still counted after a restart', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tea-durability-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  let token: string
  {
    const database = await openDatabase({ dataDir, owner: 'test' })
    const deps = { repos: createRepositories(database.db), clock: () => new Date(), tokenPrefix: 'tea_live_' }
    const account = await createAccount(deps, { email: 'durable@example.com', plan: 'pro' })
    token = (await createToken(deps, account.id, 'durable')).token
    await database.close()
  }
  const env = { DATA_DIR: dataDir, DATABASE_URL: '', ANALYSIS_WORKERS: '0' }
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const used = async (base: string) =>
    ((await (await fetch(`${base}/v1/quota`, { headers })).json()) as { daily: { used: number } }).daily.used

  const first = await startServerProcess(env, 180_000)
  t.teardown(() => first.child.kill('SIGKILL'))
  // Sequential and concurrent requests, new texts and repeated ones (cache hits are counted too).
  let answered = 0
  for (let i = 0; i < 6; i++) {
    const res = await fetch(`${first.url}/v1/analyze`, { method: 'POST', headers, body: JSON.stringify({ text: englishText(i % 4) }) })
    if (res.status === 200) answered++
    await res.arrayBuffer()
  }
  const burst = await Promise.all(
    Array.from({ length: 14 }, async (_, i) => {
      const res = await fetch(`${first.url}/v1/analyze`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ text: englishText(10 + (i % 7)) }),
      })
      await res.arrayBuffer()
      return res.status
    }),
  )
  answered += burst.filter((s) => s === 200).length
  t.equal(answered, 20, 'all 20 answered 200')
  // Some idle time first: nothing in the embedded database writes a pending commit on its own.
  await sleep(1500)
  first.child.kill('SIGKILL')
  t.equal(await first.exited, null, 'killed')

  const second = await startServerProcess(env, 180_000)
  t.teardown(() => second.child.kill('SIGKILL'))
  t.equal(await used(second.url), answered, `after the restart, used = ${answered}`)
  second.child.kill('SIGTERM')
  t.equal(await second.exited, 0, 'the second one stops cleanly')
})
