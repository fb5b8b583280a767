// A/B of the server CPU per quota read and per cached analyze: two checkouts of the service
// (say the code before and after a change) and bare Fastify run side by side on one database,
// each loaded in turn at the same fixed rate, round after round in a rotating order. The same
// rate for all matters: on a small machine the CPU per request falls as the rate rises (fewer
// sleeps and wake-ups per request), so `npm run bench`'s as-fast-as-possible rows compare two
// servers at whatever rates the machine's other load left them.
// Usage: TEST_DATABASE_URL=… node --import tsx scripts/bench/ab.ts <dir A> <dir B> [--rate 2000] [--duration 6] [--rounds 4] [--port 42100]
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'
import postgres from 'postgres'
import { openDatabase } from '../../src/db/client.ts'
import { createRepositories } from '../../src/db/repositories/index.ts'
import { createAccount } from '../../src/domain/accounts.ts'
import { createToken } from '../../src/domain/tokens.ts'
import { startCheckout } from './checkout-server.ts'
import { makeText } from './texts.ts'

const args = process.argv.slice(2)
const flag = (name: string, fallback: number) => (args.includes(`--${name}`) ? Number(args[args.indexOf(`--${name}`) + 1]) : fallback)
const [dirA, dirB] = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'))
const RATE = flag('rate', 2000)
const DURATION = flag('duration', 6)
const ROUNDS = flag('rounds', 4)
const PORT = flag('port', 42100)
const CLK_TCK = 100
const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL
if (!dirA || !dirB || !server) throw new Error('usage: TEST_DATABASE_URL=… ab.ts <dir A> <dir B>')
const children: ChildProcess[] = []
const log = (m: string) => process.stderr.write(`[ab ${new Date().toISOString().slice(11, 19)}] ${m}\n`)

function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return (Number(f[11]) + Number(f[12])) / CLK_TCK
}

function load(spec: Record<string, unknown>): Promise<{ total: number; rps: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/bench/load.ts', JSON.stringify(spec)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    let out = ''
    child.stdout.on('data', (c: Buffer) => (out += c.toString()))
    child.once('exit', (code) =>
      code === 0
        ? resolve(JSON.parse(out.trim().split('\n').pop()!) as { total: number; rps: number })
        : reject(new Error(`load exited ${code}`)),
    )
  })
}

const startService = (dir: string, port: number, databaseUrl: string) => startCheckout(dir, { port, databaseUrl, workers: 1, children })

async function main() {
  const name = `tea_ab_${randomBytes(4).toString('hex')}`
  const admin = postgres(server!, { max: 1, onnotice: () => {} })
  await admin.unsafe(`create database ${name}`)
  const dbUrl = Object.assign(new URL(server!), { pathname: '/' + name }).toString()
  try {
    const a = await startService(dirA, PORT, dbUrl)
    const b = await startService(dirB, PORT + 1, dbUrl)
    const database = await openDatabase({ databaseUrl: dbUrl, dataDir: 'unused', maxConnections: 2 })
    const sql = postgres(dbUrl, { max: 1, onnotice: () => {} })
    await sql`update plans set daily_limit = 2000000000 where name = 'business'`
    await sql.end()
    const deps = { repos: createRepositories(database.db), clock: () => new Date(), tokenPrefix: 'tea_live_' }
    const account = await createAccount(deps, { email: `ab-${name}@example.com`, plan: 'business' })
    const token = (await createToken(deps, account.id, 'ab')).token
    await database.close()
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    const body = JSON.stringify({ text: makeText(2000) })
    for (const s of [a, b]) await fetch(`${s.url}/v1/analyze`, { method: 'POST', headers, body })
    const quotaJson = await (await fetch(`${a.url}/v1/quota`, { headers })).text()
    const analyzeJson = await (await fetch(`${a.url}/v1/analyze`, { method: 'POST', headers, body })).text()
    const tmp = `/tmp/${name}`
    await import('node:fs').then((fs) => {
      fs.mkdirSync(tmp)
      fs.writeFileSync(join(tmp, 'q.json'), quotaJson)
      fs.writeFileSync(join(tmp, 'a.json'), analyzeJson)
    })
    const bare = spawn(
      process.execPath,
      [
        '--max-semi-space-size=8',
        '--single-threaded-gc',
        '--import',
        'tsx',
        'scripts/bench/bare-server.ts',
        join(tmp, 'a.json'),
        join(tmp, 'q.json'),
      ],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    children.push(bare)
    const bareUrl = await new Promise<string>((resolve) =>
      bare.stdout.on('data', (c: Buffer) => /listening (\S+)/.test(c.toString()) && resolve(/listening (\S+)/.exec(c.toString())![1])),
    )
    const targets = { bare: { pid: bare.pid!, url: bareUrl }, A: a, B: b }
    const cases = (['quota', 'cached'] as const).flatMap((kind) =>
      (['bare', 'A', 'B'] as const).map((who) => ({
        kind,
        who,
        spec:
          kind === 'quota'
            ? { url: `${targets[who].url}/v1/quota`, headers }
            : { url: `${targets[who].url}/v1/analyze`, method: 'POST', headers, body },
      })),
    )
    log('warm-up')
    for (const c of cases) await load({ ...c.spec, connections: 10, duration: 8 })
    const results: Record<string, number[]> = {}
    for (let round = 0; round < ROUNDS; round++) {
      const order = [...cases.slice(round % cases.length), ...cases.slice(0, round % cases.length)]
      const per: Record<string, number> = {}
      for (const c of order) {
        const pid = targets[c.who].pid
        const before = cpuSeconds(pid)
        const r = await load({ ...c.spec, connections: 10, duration: DURATION, rate: RATE })
        per[`${c.kind} ${c.who}`] = ((cpuSeconds(pid) - before) * 1e6) / r.total
        log(
          `round ${round + 1} ${c.kind} ${c.who}: ${r.rps.toFixed(0)} req/s, ${per[`${c.kind} ${c.who}`].toFixed(1)} µs CPU per request (load ${loadavg()[0].toFixed(1)})`,
        )
      }
      for (const kind of ['quota', 'cached']) {
        for (const who of ['A', 'B']) (results[`${kind} ${who} ÷ bare`] ??= []).push(per[`${kind} ${who}`] / per[`${kind} bare`])
        ;(results[`${kind} B ÷ A`] ??= []).push(per[`${kind} B`] / per[`${kind} A`])
      }
    }
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]
    for (const [k, v] of Object.entries(results))
      process.stdout.write(`${k}: median ${median(v).toFixed(2)} (rounds ${v.map((x) => x.toFixed(2)).join(', ')})\n`)
  } finally {
    for (const c of children) c.kill('SIGTERM')
    await new Promise((r) => setTimeout(r, 2000))
    await admin.unsafe(`drop database if exists ${name} with (force)`)
    await admin.end()
  }
}
await main()
