// `npm start` on a read-only install: the bundles cannot be written, so the server and its workers
// fall back to running the sources through tsx, say so once each in the log, and serve as usual.
// The read-only directory is real: an empty directory bind-mounted read-only over the bundle
// directory in a mount namespace of the server's own (unshare), so other tests are not affected.
// (A broken esbuild binary is no such case: tsx itself transforms with esbuild.)
import t from 'tap'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { BUNDLE_DIR } from '../../src/bundle.mjs'
import { openDatabase } from '../../src/db/client.ts'
import { createRepositories } from '../../src/db/repositories/index.ts'
import { createAccount } from '../../src/domain/accounts.ts'
import { createToken } from '../../src/domain/tokens.ts'
import { englishText } from '../helpers/app.ts'
import { startServerProcess } from './helpers/server-process.ts'

// Mounts $1 read-only over $2, then runs the rest of the arguments by exec (the pid stays theirs).
const MOUNT_RO_THEN = 'mount --bind -o ro "$1" "$2" && shift 2 && exec "$@"'

function canMountReadOnly(dir: string): boolean {
  return spawnSync('unshare', ['-m', 'sh', '-c', MOUNT_RO_THEN, 'sh', dir, dir, 'true'], { stdio: 'ignore' }).status === 0
}

const empty = mkdtempSync(join(tmpdir(), 'tea-ro-bundles-'))
t.teardown(() => rmSync(empty, { recursive: true, force: true }))
mkdirSync(BUNDLE_DIR, { recursive: true })
const skip = canMountReadOnly(empty) ? false : 'this machine does not allow a private read-only bind mount (unshare -m, mount --bind)'

t.test('with the bundle directory read-only the server and its workers run through tsx and serve', { skip }, async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tea-fallback-'))
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }))
  let token: string
  {
    const database = await openDatabase({ dataDir, owner: 'test' })
    const deps = { repos: createRepositories(database.db), clock: () => new Date(), tokenPrefix: 'tea_live_' }
    const account = await createAccount(deps, { email: 'fallback@example.com', plan: 'pro' })
    token = (await createToken(deps, account.id, 'fallback')).token
    await database.close()
  }

  const launcher = ['unshare', '-m', 'sh', '-c', MOUNT_RO_THEN, 'sh', empty, BUNDLE_DIR]
  const server = await startServerProcess({ DATA_DIR: dataDir, ANALYSIS_WORKERS: '1' }, 120_000, launcher)
  t.teardown(() => {
    server.child.kill('SIGKILL')
  })
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  // Uncached, so the analysis runs in a worker that loaded the sources through tsx.
  const res = await fetch(`${server.url}/v1/analyze`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ text: englishText(7) }),
  })
  const body = await res.json()
  t.equal(res.status, 200, 'an uncached analysis is served')
  t.same(body.entities.persons, ['Tim Cook'], 'by the real model')
  t.ok(
    body.relations.some((r: { type: string }) => r.type === 'works_for'),
    'with its relations',
  )

  const logged = server.logs.join('\n')
  t.match(logged, /server bundle not built; running the sources through tsx/, 'the server says it fell back')
  t.match(logged, /worker bundle not built; workers load the sources through tsx/, 'and so do the workers')
  t.notMatch(logged, /Tim Cook/, 'the submitted text is not logged')

  server.child.kill('SIGTERM')
  t.equal(await server.exited, 0, 'and it shuts down cleanly')
})
