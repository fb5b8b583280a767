// The operator CLI, run as a real process on a real embedded database folder.
import t from 'tap'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { openDatabase } from '../../src/db/client.ts'
import { buildTestApp } from '../helpers/app.ts'
import { DashboardClient } from '../dashboard/client.ts'

const run = promisify(execFile)
const root = resolve(import.meta.dirname, '../..')

async function admin(dataDir: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/admin.ts', ...args], {
      cwd: root,
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
    })
    return { code: 0, stdout, stderr, json: stdout ? JSON.parse(stdout) : undefined }
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string }
    return { code: e.code, stdout: e.stdout, stderr: e.stderr, json: undefined }
  }
}

t.test('account, plan and token commands print one JSON object', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tea-admin-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))

  const created = await admin(dir, 'account:create', '--email', 'Ops@Example.com', '--plan', 'free')
  t.equal(created.code, 0, created.stderr)
  t.equal(created.json.email, 'ops@example.com', 'emails are stored lower-cased')
  t.equal(created.json.plan, 'free')

  const dup = await admin(dir, 'account:create', '--email', 'ops@example.com', '--plan', 'pro')
  t.equal(dup.code, 1)
  t.equal(dup.stdout, '', 'nothing on stdout on failure')
  t.match(dup.stderr, /already exists/)

  const badPlan = await admin(dir, 'account:create', '--email', 'x@example.com', '--plan', 'gold')
  t.equal(badPlan.code, 1)
  t.match(badPlan.stderr, /Unknown plan "gold"/)

  const tokens = []
  for (const name of ['ci', 'laptop', 'server']) {
    const r = await admin(dir, 'token:create', '--email', 'ops@example.com', '--name', name)
    t.equal(r.code, 0, r.stderr)
    t.same(Object.keys(r.json).sort(), ['id', 'name', 'token'])
    t.match(r.json.token, /^tea_live_[0-9A-Za-z]{38}$/)
    tokens.push(r.json)
  }
  const fourth = await admin(dir, 'token:create', '--email', 'ops@example.com', '--name', 'one too many')
  t.equal(fourth.code, 1, 'the free plan allows 3 tokens')
  t.match(fourth.stderr, /allows 3 active tokens/)

  const list = await admin(dir, 'token:list', '--email', 'ops@example.com')
  t.equal(list.json.tokens.length, 3)
  for (const row of list.json.tokens) {
    t.same(Object.keys(row).sort(), ['createdAt', 'id', 'lastUsedAt', 'name', 'preview', 'revokedAt'])
    t.notOk(list.stdout.includes(tokens[0].token), 'never the plain token')
    t.match(row.preview, /^tea_live_.{4}…$/)
  }

  const revoked = await admin(dir, 'token:revoke', '--id', tokens[0].id)
  t.equal(revoked.code, 0)
  t.ok(revoked.json.revokedAt)
  const again = await admin(dir, 'token:revoke', '--id', tokens[0].id)
  t.equal(again.code, 1)
  t.match(again.stderr, /revocation is permanent/)
  t.equal((await admin(dir, 'token:create', '--email', 'ops@example.com', '--name', 'replacement')).code, 0, 'a place is free again')

  const up = await admin(dir, 'plan:set', '--email', 'ops@example.com', '--plan', 'pro')
  t.equal(up.code, 0, up.stderr)
  t.equal(up.json.change, 'upgrade')
  t.ok(up.json.amountCents > 0 && up.json.amountCents <= 9900)
  const down = await admin(dir, 'plan:set', '--email', 'ops@example.com', '--plan', 'starter')
  t.equal(down.json.change, 'downgrade_scheduled')
  t.equal(down.json.amountCents, 0)

  const usage = await admin(dir, 'token:list')
  t.equal(usage.code, 2, 'usage errors exit 2')
  t.match(usage.stderr, /missing --email/)
  const unknown = await admin(dir, 'token:frobnicate')
  t.equal(unknown.code, 2)
  t.match(unknown.stderr, /unknown command/)
})

t.test('refuses the embedded database while a live server holds it', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tea-admin-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  mkdirSync(dir, { recursive: true })
  // This test process stands in for the server: a live pid in the lock file.
  writeFileSync(join(dir, 'embedded.lock'), JSON.stringify({ pid: process.pid, owner: 'server' }))
  const r = await admin(dir, 'account:create', '--email', 'a@example.com', '--plan', 'free')
  t.equal(r.code, 1)
  t.match(r.stderr, /in use by a running server \(pid \d+\)/)
  t.match(r.stderr, /DATABASE_URL/)
  // A lock left by a dead process is taken over.
  writeFileSync(join(dir, 'embedded.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, owner: 'server' }))
  t.equal((await admin(dir, 'account:create', '--email', 'a@example.com', '--plan', 'free')).code, 0)
})

t.test('account:password gives an operator-created account a password and ends its sessions', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tea-admin-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  t.equal((await admin(dir, 'account:create', '--email', 'ops@example.com', '--plan', 'free')).code, 0)

  const weak = await admin(dir, 'account:password', '--email', 'ops@example.com', '--password', 'short')
  t.equal(weak.code, 1)
  t.match(weak.stderr, /at least 12 characters/)
  const missing = await admin(dir, 'account:password', '--email', 'nobody@example.com', '--password', 'long enough password')
  t.equal(missing.code, 1)
  t.match(missing.stderr, /No account with email "nobody@example.com"/)
  t.equal((await admin(dir, 'account:password', '--email', 'ops@example.com')).code, 2, 'the password is required')

  const set = await admin(dir, 'account:password', '--email', 'OPS@example.com', '--password', 'correct horse battery')
  t.equal(set.code, 0, set.stderr)
  t.same(set.json, { email: 'ops@example.com', passwordSet: true, sessionsEnded: 0 })
  t.notOk(set.stdout.includes('correct horse battery'), 'the password is never printed')

  // The dashboard accepts the new password; a second reset ends that session.
  const database = await openDatabase({ databaseUrl: undefined, dataDir: dir, owner: 'test' })
  let closed = false
  const close = async () => {
    if (!closed) await database.close()
    closed = true
  }
  t.teardown(close)
  const { app } = await buildTestApp(t, { database })
  const c = new DashboardClient(app)
  const login = await c.logIn('ops@example.com', 'correct horse battery')
  t.equal(login.status, 303, 'logged in with the new password')
  t.equal((await c.get('/dashboard')).status, 200)
  await app.close()
  await close()

  const again = await admin(dir, 'account:password', '--email', 'ops@example.com', '--password', 'another long password')
  t.equal(again.json.sessionsEnded, 1)
})
