// Two checkouts of the service side by side under the same uncached load, in alternating
// slices, so that the machine's other load falls on both alike: each node's main-thread and
// whole-process CPU per uncached POST /v1/analyze, slice by slice, and B ÷ A. For changes of a
// few percent of the main thread, which `npm run bench`'s rounds (±20%) do not resolve.
// Usage: TEST_DATABASE_URL=postgres://…/<db> npx tsx scripts/bench/uncached-ab.ts <dir A> <dir B> [slices] [seconds] [req/s] [chars]
// At a fixed rate (30 req/s unless given; 0: as fast as 8 connections go), since a node's CPU per
// request falls as its rate rises (each wake-up serves more requests).
// Each directory is a checkout with node_modules; both nodes start as `npm start` starts them
// (flags and environment read from each package.json), 2 workers, on one fresh database.
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import postgres from 'postgres'
import { openDatabase } from '../../src/db/client.ts'
import { createRepositories } from '../../src/db/repositories/index.ts'
import { createAccount } from '../../src/domain/accounts.ts'
import { createToken } from '../../src/domain/tokens.ts'
import { freePort } from '../../test/production/helpers/throwaway-postgres.ts'
import { startCheckout } from './checkout-server.ts'
import { makeText } from './texts.ts'

const [dirA, dirB] = process.argv.slice(2, 4)
const SLICES = Number(process.argv[4] ?? 6)
const SECONDS = Number(process.argv[5] ?? 10)
const RATE = Number(process.argv[6] ?? 30)
const CHARS = Number(process.argv[7] ?? 2000)
if (!dirA || !dirB) throw new Error('usage: uncached-ab.ts <dir A> <dir B> [slices] [seconds] [req/s] [chars]')
const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL
if (!server) throw new Error('uncached-ab.ts: set TEST_DATABASE_URL (a PostgreSQL server)')

const children: ChildProcess[] = []
const admin = postgres(server, { max: 1, onnotice: () => {} })
// The database's name: BENCH_DB_PREFIX (a machine shared by several engineers may ask for one), then random.
const dbName = `${process.env.BENCH_DB_PREFIX ?? 'tea_bench_ab'}_${randomBytes(3).toString('hex')}`
await admin.unsafe(`create database ${dbName}`)
const dbUrl = new URL(server)
dbUrl.pathname = '/' + dbName

async function cleanup() {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM')
  await new Promise((r) => setTimeout(r, 3000))
  await admin.unsafe(`drop database if exists ${dbName} with (force)`)
  await admin.end()
}

try {
  const database = await openDatabase({ databaseUrl: dbUrl.toString(), dataDir: 'unused', maxConnections: 2 })
  await database.db.execute(`update plans set daily_limit = 2000000000 where name = 'business'`)
  const deps = { repos: createRepositories(database.db), clock: () => new Date(), tokenPrefix: 'tea_live_' }
  const account = await createAccount(deps, { email: `ab-${randomBytes(4).toString('hex')}@example.com`, plan: 'business' })
  const token = (await createToken(deps, account.id, 'ab')).token
  await database.close()

  const start = async (dir: string) =>
    startCheckout(dir, {
      port: await freePort(),
      databaseUrl: dbUrl.toString(),
      workers: 2,
      children,
      nodeArgs: (process.env.AB_NODE_ARGS ?? '').split(' ').filter(Boolean),
    })
  const nodes = { A: await start(dirA), B: await start(dirB) }

  const ticks = (pid: number, tid?: number) => {
    const stat = readFileSync(tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`, 'utf8')
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(f[11]) + Number(f[12])) / 100
  }
  const text = makeText(CHARS)
  const load = (url: string, duration: number) =>
    new Promise<{ total: number }>((resolve, reject) => {
      const spec = {
        url: `${url}/v1/analyze`,
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        uniqueText: text,
        connections: 8,
        duration,
        ...(RATE > 0 ? { rate: RATE } : {}),
      }
      const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/load.ts', JSON.stringify(spec)], {
        stdio: ['ignore', 'pipe', 'inherit'],
      })
      children.push(child)
      let out = ''
      child.stdout.on('data', (c) => (out += c))
      child.once('exit', (code) =>
        code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!) as { total: number }) : reject(new Error(`load exited ${code}`)),
      )
    })
  // Warm-up, as the bench's: unrecorded load on each node first.
  for (const side of ['A', 'B'] as const) await load(nodes[side].url, SECONDS)
  const per: Record<'A' | 'B', { main: number[]; all: number[] }> = { A: { main: [], all: [] }, B: { main: [], all: [] } }
  for (let s = 0; s < SLICES; s++) {
    for (const side of s % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
      const { pid, url } = nodes[side]
      const [m0, a0] = [ticks(pid, pid), ticks(pid)]
      const { total } = await load(url, SECONDS)
      const [m1, a1] = [ticks(pid, pid), ticks(pid)]
      per[side].main.push(((m1 - m0) * 1e6) / total)
      per[side].all.push(((a1 - a0) * 1e6) / total)
      console.log(
        `slice ${s} ${side}: ${total} requests, main thread ${per[side].main.at(-1)!.toFixed(0)} µs, process ${per[side].all.at(-1)!.toFixed(0)} µs per request`,
      )
    }
  }
  const peak = (pid: number) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
  console.log(`peak RSS (VmHWM): A ${peak(nodes.A.pid).toFixed(0)} MB, B ${peak(nodes.B.pid).toFixed(0)} MB`)
  // The node measured second in a pair tends to read higher: slices alternate the order, and the
  // geometric mean weighs both orders alike.
  const geomean = (xs: number[]) => Math.exp(xs.reduce((sum, x) => sum + Math.log(x), 0) / xs.length)
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
  for (const k of ['main', 'all'] as const) {
    const ratios = per.A[k].map((a, i) => per.B[k][i] / a)
    console.log(
      `${k === 'main' ? 'main thread' : 'whole process'}: A median ${median(per.A[k]).toFixed(0)} µs, B median ${median(per.B[k]).toFixed(0)} µs; B/A by slice ${ratios.map((r) => r.toFixed(3)).join(', ')}; median ${median(ratios).toFixed(3)}, geometric mean ${geomean(ratios).toFixed(3)}`,
    )
  }
} finally {
  await cleanup()
}
