// The operator CLI on a real embedded database folder. Commands run in-process through
// runAdmin, the function scripts/admin.ts runs, with the arguments an operator types; one test
// runs the script itself, bundled once, to check its exit codes and streams. A folder's first opening builds
// the database (several seconds of CPU), so the tests share one folder and keep it open where
// the test is not about opening it.
import t from 'tap'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { bundleEntry } from '../../src/bundle.mjs'
import { runAdmin } from '../../src/cli/admin.ts'
import { openDatabase, type Database } from '../../src/db/client.ts'
import { buildTestApp } from '../helpers/app.ts'
import { DashboardClient } from '../dashboard/client.ts'

const root = resolve(import.meta.dirname, '../..')
const dir = mkdtempSync(join(tmpdir(), 'tea-admin-'))
t.teardown(() => rmSync(dir, { recursive: true, force: true }))

/** The folder's database, held open between commands while a test does not need it closed. */
let held: Database | undefined
async function hold(): Promise<Database> {
  held ??= await openDatabase({ databaseUrl: undefined, dataDir: dir, owner: 'test' })
  return held
}
async function release() {
  await held?.close()
  held = undefined
}
t.teardown(release)

type Result = { code: number; stdout: string; stderr: string; json: any }

/** One CLI command on the folder; `open: 'real'` makes it open (and lock) the folder itself. */
async function admin(...args: string[]): Promise<Result>
async function admin(opts: { open: 'real' }, ...args: string[]): Promise<Result>
async function admin(first: string | { open: 'real' }, ...rest: string[]): Promise<Result> {
  const real = typeof first !== 'string'
  const args = real ? rest : [first, ...rest]
  let stdout = ''
  let stderr = ''
  const code = await runAdmin(args, {
    env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '' },
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
    // The held database, with a close that keeps it open for the next command.
    openDatabase: real ? undefined : async () => ({ ...(await hold()), close: async () => {} }),
  })
  return { code, stdout, stderr, json: code === 0 && stdout ? JSON.parse(stdout) : undefined }
}

/** scripts/admin.ts bundled once (as `npm start` bundles the server), so no process compiles TypeScript. */
let bundled: Promise<string> | undefined

/** The script as an operator runs it: a process of its own. */
async function script(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  bundled ??= bundleEntry(join(root, 'scripts/admin.ts'), 'admin-test')
  const entry = fileURLToPath(await bundled)
  return new Promise((done) => {
    execFile(
      process.execPath,
      [entry, ...args],
      { cwd: root, env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '' } },
      (err, stdout, stderr) => done({ code: err ? Number((err as { code?: number }).code) : 0, stdout, stderr }),
    )
  })
}

t.test('account, plan and token commands print one JSON object', async (t) => {
  const created = await admin('account:create', '--email', 'Ops@Example.com', '--plan', 'free')
  t.equal(created.code, 0, created.stderr)
  t.equal(created.json.email, 'ops@example.com', 'emails are stored lower-cased')
  t.equal(created.json.plan, 'free')

  const dup = await admin('account:create', '--email', 'ops@example.com', '--plan', 'pro')
  t.equal(dup.code, 1)
  t.equal(dup.stdout, '', 'nothing on stdout on failure')
  t.match(dup.stderr, /already exists/)

  const badPlan = await admin('account:create', '--email', 'x@example.com', '--plan', 'gold')
  t.equal(badPlan.code, 1)
  t.match(badPlan.stderr, /Unknown plan "gold"/)

  const tokens = []
  for (const name of ['ci', 'laptop', 'server']) {
    const r = await admin('token:create', '--email', 'ops@example.com', '--name', name)
    t.equal(r.code, 0, r.stderr)
    t.same(Object.keys(r.json).sort(), ['id', 'name', 'token'])
    t.match(r.json.token, /^tea_live_[0-9A-Za-z]{38}$/)
    tokens.push(r.json)
  }
  const fourth = await admin('token:create', '--email', 'ops@example.com', '--name', 'one too many')
  t.equal(fourth.code, 1, 'the free plan allows 3 tokens')
  t.match(fourth.stderr, /allows 3 active tokens/)

  const list = await admin('token:list', '--email', 'ops@example.com')
  t.equal(list.json.tokens.length, 3)
  for (const row of list.json.tokens) {
    t.same(Object.keys(row).sort(), ['createdAt', 'id', 'lastUsedAt', 'name', 'preview', 'revokedAt'])
    t.notOk(list.stdout.includes(tokens[0].token), 'never the plain token')
    t.match(row.preview, /^tea_live_.{4}…$/)
  }

  const revoked = await admin('token:revoke', '--id', tokens[0].id)
  t.equal(revoked.code, 0)
  t.ok(revoked.json.revokedAt)
  const again = await admin('token:revoke', '--id', tokens[0].id)
  t.equal(again.code, 1)
  t.match(again.stderr, /revocation is permanent/)
  t.equal((await admin('token:create', '--email', 'ops@example.com', '--name', 'replacement')).code, 0, 'a place is free again')

  const up = await admin('plan:set', '--email', 'ops@example.com', '--plan', 'pro')
  t.equal(up.code, 0, up.stderr)
  t.equal(up.json.change, 'upgrade')
  t.ok(up.json.amountCents > 0 && up.json.amountCents <= 9900)
  const down = await admin('plan:set', '--email', 'ops@example.com', '--plan', 'starter')
  t.equal(down.json.change, 'downgrade_scheduled')
  t.equal(down.json.amountCents, 0)

  const usage = await admin('token:list')
  t.equal(usage.code, 2, 'usage errors exit 2')
  t.match(usage.stderr, /missing --email/)
  const unknown = await admin('token:frobnicate')
  t.equal(unknown.code, 2)
  t.match(unknown.stderr, /unknown command/)
})

t.test('the script: one JSON object on stdout and exit 0; a message on stderr and exit 2 or 1', async (t) => {
  await release()
  const ok = await script('token:list', '--email', 'ops@example.com')
  t.equal(ok.code, 0, ok.stderr)
  t.equal(JSON.parse(ok.stdout).tokens.length, 4)
  t.equal(ok.stderr, '')
  const usage = await script('token:list')
  t.equal(usage.code, 2, 'usage errors exit 2')
  t.equal(usage.stdout, '')
  t.match(usage.stderr, /missing --email/)
  await hold()
  const busy = await script('token:list', '--email', 'ops@example.com')
  t.equal(busy.code, 1, 'other failures exit 1')
  t.equal(busy.stdout, '')
  t.match(busy.stderr, /^admin: The embedded database .* is in use/)
})

t.test('refuses the embedded database while a live server holds it', async (t) => {
  await release()
  // This test process stands in for the server: a live pid in the lock file.
  writeFileSync(join(dir, 'embedded.lock'), JSON.stringify({ pid: process.pid, owner: 'server' }))
  const r = await admin({ open: 'real' }, 'account:create', '--email', 'a@example.com', '--plan', 'free')
  t.equal(r.code, 1)
  t.match(r.stderr, /in use by a running server \(pid \d+\)/)
  t.match(r.stderr, /DATABASE_URL/)
  // A lock left by a dead process is taken over.
  writeFileSync(join(dir, 'embedded.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, owner: 'server' }))
  t.equal((await admin({ open: 'real' }, 'account:create', '--email', 'a@example.com', '--plan', 'free')).code, 0)
})

t.test('account:password gives an operator-created account a password and ends its sessions', async (t) => {
  t.equal((await admin('account:create', '--email', 'pw@example.com', '--plan', 'free')).code, 0)

  const weak = await admin('account:password', '--email', 'pw@example.com', '--password', 'short')
  t.equal(weak.code, 1)
  t.match(weak.stderr, /at least 12 characters/)
  const missing = await admin('account:password', '--email', 'nobody@example.com', '--password', 'long enough password')
  t.equal(missing.code, 1)
  t.match(missing.stderr, /No account with email "nobody@example.com"/)
  t.equal((await admin('account:password', '--email', 'pw@example.com')).code, 2, 'the password is required')

  const set = await admin('account:password', '--email', 'PW@example.com', '--password', 'correct horse battery')
  t.equal(set.code, 0, set.stderr)
  t.same(set.json, { email: 'pw@example.com', passwordSet: true, sessionsEnded: 0 })
  t.notOk(set.stdout.includes('correct horse battery'), 'the password is never printed')

  // The dashboard accepts the new password; a second reset ends that session.
  const { app } = await buildTestApp(t, { database: await hold() })
  const c = new DashboardClient(app)
  const login = await c.logIn('pw@example.com', 'correct horse battery')
  t.equal(login.status, 303, 'logged in with the new password')
  t.equal((await c.get('/dashboard')).status, 200)
  await app.close()

  const again = await admin('account:password', '--email', 'pw@example.com', '--password', 'another long password')
  t.equal(again.json.sessionsEnded, 1)
})
