// npm run bench [-- --duration 10] [-- --rounds 3] [-- --warmup 10] [-- --soak 600] [-- --only http,extract2k,extract30k,latency,abuse,nodes]
// Every scenario runs against real servers on loopback (child processes), with the load
// generator (autocannon) in a process of its own, beside a baseline measured in the same run.
// Database: a fresh database on BENCH_DATABASE_URL or TEST_DATABASE_URL (a PostgreSQL server
// URL), else a throwaway PostgreSQL started for the run (needs the postgresql package).
// The bench database's business plan gets an unbounded daily limit so that no answer is a 429.
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync, chmodSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { randomBytes } from 'node:crypto'
import postgres from 'postgres'
import { openDatabase } from '../../src/db/client.ts'
import { createRepositories } from '../../src/db/repositories/index.ts'
import { createAccount } from '../../src/domain/accounts.ts'
import { createToken } from '../../src/domain/tokens.ts'
import { freePort, startThrowawayPostgres } from '../../test/production/helpers/throwaway-postgres.ts'
import { makeText } from './texts.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const args = process.argv.slice(2)
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? Number(args[i + 1]) : fallback
}
const DURATION = flag('duration', 10)
const SOAK = flag('soak', 0)
const WORKERS = flag('workers', 2)
/** Rounds of the HTTP group, each service row beside its own round's baseline. */
const ROUNDS = Math.max(1, flag('rounds', 3))
/** Seconds of unrecorded load before a server's first measured HTTP scenario. */
const WARMUP = flag('warmup', 10)
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2
}
// A subset of the scenario groups, to repeat the one of interest on a noisy machine.
const GROUPS = ['http', 'extract2k', 'extract30k', 'latency', 'abuse', 'nodes'] as const
const onlyAt = args.indexOf('--only')
const ONLY = onlyAt >= 0 ? args[onlyAt + 1].split(',') : [...GROUPS]
for (const g of ONLY)
  if (!(GROUPS as readonly string[]).includes(g)) throw new Error(`bench: unknown group "${g}" in --only (groups: ${GROUPS.join(', ')})`)
const runs = (g: (typeof GROUPS)[number]) => ONLY.includes(g)
const tmp = mkdtempSync(join(tmpdir(), 'tea-bench-'))
chmodSync(tmp, 0o777)
const children: ChildProcess[] = []
const cleanups: (() => Promise<void> | void)[] = []

function log(msg: string) {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${msg}\n`)
}

// ---- processes ----
function startProcess(
  name: string,
  argv: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let out = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name} did not start:\n${out}`)), 90_000)
    const onData = (c: Buffer) => {
      out += c.toString()
      const m = ready.exec(out)
      if (m) {
        clearTimeout(timer)
        child.stdout.off('data', onData)
        child.stdout.resume()
        child.stderr.resume()
        resolve({ child, match: m })
      }
      if (out.length > 100_000) out = out.slice(-50_000)
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', (c: Buffer) => (out += c.toString()))
    child.once('exit', (code) => reject(new Error(`${name} exited with ${code}:\n${out}`)))
  })
}

const LOG_LEVEL = process.env.BENCH_LOG_LEVEL || 'warn'

/**
 * How `npm start` runs the server: its environment settings and node flags (memory settings,
 * see docs/operations.md), read from package.json so that the bench measures what production
 * runs. The server is then started with node directly, so that its pid is the server's.
 */
function startCommand(script: string): { env: Record<string, string>; nodeArgs: string[]; entry: string } {
  const words = script.trim().split(/\s+/)
  const env: Record<string, string> = {}
  while (words.length && /^[A-Z_][A-Z0-9_]*=/.test(words[0])) {
    const [k, ...v] = words.shift()!.split('=')
    env[k] = v.join('=')
  }
  if (words.shift() !== 'node' || !words.length)
    throw new Error(`bench: cannot read the start script "${script}" (expected "[VAR=value…] node [--flag…] <entry>")`)
  const entry = words.pop()!
  if (!words.every((w) => w.startsWith('--')))
    throw new Error(`bench: cannot read the start script "${script}" (flags must be --flag[=value])`)
  return { env, nodeArgs: words, entry }
}
const START = startCommand((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start)

/**
 * The in-process extraction baselines run with the server's process settings (`npm start`'s
 * environment and node flags: --single-threaded-gc, the heap sizes), so that a ratio to them
 * compares the same V8 garbage collector and heap: with V8's defaults the baseline's scavenges
 * ran partly on helper threads (not counted in its main thread, which the worker row divides
 * by) and in a young generation up to twice the server's. `--baseline-flags default` runs them
 * with Node's defaults instead, as before.
 */
const BASELINE: [string[], Record<string, string>] =
  args.includes('--baseline-flags') && args[args.indexOf('--baseline-flags') + 1] === 'default' ? [[], {}] : [START.nodeArgs, START.env]

// BENCH_SERVER_NODE_ARGS, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof", profiles the servers
// (the nodes, and the bare and floor baselines).
const SERVER_NODE_ARGS = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean)

async function startNode(databaseUrl: string, env: Record<string, string> = {}) {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, [...START.nodeArgs, ...SERVER_NODE_ARGS, START.entry], {
    cwd: ROOT,
    // The bench's business token sends far more than the plan's burst limit: the throughput rows
    // measure the service, not the limiter (which still runs); the abuse scenario sets its own.
    env: {
      ...process.env,
      ...START.env,
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL,
      ANALYSIS_WORKERS: String(WORKERS),
      RATE_LIMITS: 'business=1000000/1000000',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  children.push(child)
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`)
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return { child, url }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('server did not become ready in 60 s')
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve()
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGTERM')
    setTimeout(() => child.kill('SIGKILL'), 15_000).unref()
  })
}

interface LoadResult {
  rps: number
  p50: number
  p99: number
  max?: number
  total: number
  non2xx?: number
  statuses?: Record<string, number>
  errors?: number
  timeouts?: number
}

function runNode(argv: string[], nodeArgs: string[] = [], env: Record<string, string> = {}): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', ...argv], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    children.push(child)
    let out = ''
    child.stdout.on('data', (c) => (out += c))
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out.trim().split('\n').pop()!) as LoadResult) : reject(new Error(`${argv.join(' ')} exited ${code}`)),
    )
  })
}

const load = (spec: Record<string, unknown>) => runNode(['scripts/bench/load.ts', JSON.stringify({ duration: DURATION, ...spec })])

function rssOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) * 1024
  return { rss: kb('VmRSS'), peak: kb('VmHWM') }
}

// ---- CPU per request ----
// On a shared, noisy machine req/s swings with whatever else runs; the CPU time the server and
// its database backends spend per request does much less, so the table shows both.
const CLK_TCK = 100 // USER_HZ on Linux
function cpuSeconds(pid: number, task?: number): number {
  try {
    // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
    const stat = readFileSync(task === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${task}/stat`, 'utf8')
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(f[11]) + Number(f[12])) / CLK_TCK
  } catch {
    return 0 // gone, or not on this machine
  }
}
/** CPU seconds of each thread of a process, by thread id. */
function threadSeconds(pid: number): Map<number, number> {
  try {
    return new Map(readdirSync(`/proc/${pid}/task`).map((tid) => [Number(tid), cpuSeconds(pid, Number(tid))]))
  } catch {
    return new Map()
  }
}
async function dbBackendPids(dbUrl: string): Promise<number[]> {
  const sql = postgres(dbUrl, { max: 1, onnotice: () => {} })
  try {
    const rows = await sql<
      { pid: number }[]
    >`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`
    return rows.map((r) => r.pid)
  } finally {
    await sql.end()
  }
}
interface CpuNote {
  server: number
  /** Of `server`, the main thread's (the event loop: HTTP, auth, quota, cache, language). */
  main: number
  db: number
  /** Mean wall time of one extraction inside a worker (from /metrics), if any ran. */
  workerMs?: number
  /** When analyses ran: CPU per analysis of the WORKERS busiest threads besides the main one
   * (the pool's workers), and of all the other threads (V8's compiler and GC helpers, libuv). */
  workerCpu?: number
  helperCpu?: number
  /** Database transactions per request (statements, as the service sends one per transaction). */
  transactions?: number
  /** The machine's 1-minute load average when the load ended (other work skews every figure). */
  load: number
}
/** Transactions committed or rolled back in the bench database so far (includes this query's). */
async function transactions(dbUrl: string | undefined): Promise<number> {
  if (!dbUrl) return 0
  const sql = postgres(dbUrl, { max: 1, onnotice: () => {} })
  try {
    const [row] = await sql<
      { n: string }[]
    >`select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()`
    return Number(row.n)
  } finally {
    await sql.end()
  }
}
/** The sum and count of the analysis-time histogram, from the node's /metrics. */
async function analysisTime(url: string | undefined): Promise<{ sum: number; count: number }> {
  if (!url) return { sum: 0, count: 0 }
  const text = await (await fetch(`${url}/metrics`)).text()
  const num = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text)?.[1] ?? 0)
  return { sum: num('analysis_duration_seconds_sum'), count: num('analysis_duration_seconds_count') }
}
/** Runs a load and reports the CPU µs per request of `pid` (the server) and of the bench database's backends. */
async function measured(
  pid: number,
  dbUrl: string | undefined,
  spec: Record<string, unknown>,
  nodeUrl?: string,
): Promise<LoadResult & { cpu: CpuNote }> {
  // The backends are listed before and after the load: the pool opens connections on demand and
  // closes idle ones, so a backend that started during the load counts all its CPU (one that
  // ended during it is lost: idle_timeout is far longer than a load).
  const backendsBefore = dbUrl ? await dbBackendPids(dbUrl) : []
  const sample = async (backends: number[]) => ({
    server: cpuSeconds(pid),
    main: cpuSeconds(pid, pid),
    threads: threadSeconds(pid),
    db: new Map(backends.map((p) => [p, cpuSeconds(p)])),
    analysis: await analysisTime(nodeUrl),
    transactions: await transactions(dbUrl),
  })
  const before = await sample(backendsBefore)
  const result = await load(spec)
  // PostgreSQL publishes a backend's counters at most once a second.
  if (dbUrl) await new Promise((r) => setTimeout(r, 1500))
  const after = await sample(dbUrl ? await dbBackendPids(dbUrl) : [])
  const dbSeconds = [...after.db].reduce((s, [p, t]) => s + t - (before.db.get(p) ?? 0), 0)
  const per = (a: number, b: number) => ((a - b) * 1e6) / Math.max(1, result.total)
  const analyses = after.analysis.count - before.analysis.count
  const others = [...after.threads]
    .filter(([tid]) => tid !== pid)
    .map(([tid, t]) => t - (before.threads.get(tid) ?? 0))
    .sort((a, b) => b - a)
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0)
  return {
    ...result,
    cpu: {
      server: per(after.server, before.server),
      main: per(after.main, before.main),
      db: per(dbSeconds, 0),
      workerMs: analyses > 0 ? ((after.analysis.sum - before.analysis.sum) * 1000) / analyses : undefined,
      workerCpu: analyses > 0 ? (sum(others.slice(0, WORKERS)) * 1e6) / analyses : undefined,
      helperCpu: analyses > 0 ? (sum(others.slice(WORKERS)) * 1e6) / analyses : undefined,
      transactions: dbUrl ? (after.transactions - before.transactions) / Math.max(1, result.total) : undefined,
      load: loadavg()[0],
    },
  }
}
const cpuNote = (r: { cpu: CpuNote }) =>
  `CPU/req: server ${fmt(r.cpu.server)} µs (main thread ${fmt(r.cpu.main)}), db ${fmt(r.cpu.db)} µs` +
  (r.cpu.transactions === undefined ? '' : `; db transactions/req ${fmt(r.cpu.transactions, 2)}`) +
  (r.cpu.workerMs === undefined
    ? ''
    : `; one extraction in a worker ${fmt(r.cpu.workerMs * 1000)} µs wall, ${fmt(r.cpu.workerCpu!)} µs CPU (+ ${fmt(r.cpu.helperCpu!)} µs on other threads)`)

// ---- database ----
async function benchDatabase(): Promise<string> {
  const server = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL
  if (server) {
    const base = new URL(server)
    const name = `tea_bench_${randomBytes(4).toString('hex')}`
    const admin = postgres(base.toString(), { max: 1, onnotice: () => {} })
    await admin.unsafe(`create database ${name}`)
    await admin.end()
    cleanups.push(async () => {
      const a = postgres(base.toString(), { max: 1, onnotice: () => {} })
      await a.unsafe(`drop database if exists ${name} with (force)`)
      await a.end()
    })
    const url = new URL(base)
    url.pathname = '/' + name
    return url.toString()
  }
  log('no BENCH_DATABASE_URL/TEST_DATABASE_URL: starting a throwaway PostgreSQL')
  const pg = await startThrowawayPostgres()
  cleanups.push(() => pg.destroy())
  return pg.url
}

async function setupAccount(url: string, plan = 'business') {
  const database = await openDatabase({ databaseUrl: url, dataDir: 'unused', maxConnections: 2 })
  const sql = postgres(url, { max: 1, onnotice: () => {} })
  await sql`update plans set daily_limit = 2000000000 where name = 'business'`
  await sql.end()
  const deps = { repos: createRepositories(database.db), clock: () => new Date(), tokenPrefix: 'tea_live_' }
  const account = await createAccount(deps, { email: `bench-${randomBytes(4).toString('hex')}@example.com`, plan })
  const token = (await createToken(deps, account.id, 'bench')).token
  await database.close()
  return token
}

// ---- nginx ----
async function startNginx(upstreams: string[]): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort()
  const dir = mkdtempSync(join(tmp, 'nginx-'))
  chmodSync(dir, 0o777)
  const conf = join(dir, 'nginx.conf')
  writeFileSync(
    conf,
    nginxConfig(
      port,
      upstreams.map((u) => new URL(u).host),
      dir,
    ),
  )
  const child = spawn('/usr/sbin/nginx', ['-p', dir, '-c', conf], { stdio: 'inherit' })
  children.push(child)
  // Without a listener a failed spawn (nginx not installed) would end the bench at once,
  // leaving its server and database behind.
  let failed: Error | undefined
  child.once('error', (err) => (failed = err))
  for (let i = 0; i < 100; i++) {
    if (failed) throw new Error(`nginx: ${failed.message} (Debian: apt-get install nginx-light)`)
    try {
      await fetch(`http://127.0.0.1:${port}/healthz`)
      return { url: `http://127.0.0.1:${port}`, child }
    } catch {
      await new Promise((r) => setTimeout(r, 50))
    }
  }
  throw new Error('nginx did not start')
}

/** The configuration documented in docs/operations.md, with the bench's ports and paths. */
export function nginxConfig(port: number, hosts: string[], dir: string): string {
  return `daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream tea {
    least_conn;
${hosts.map((h) => `    server ${h} max_fails=0;`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    # nginx closes a client connection after 1,000 requests by default; autocannon counts the
    # request it had already sent on it as a socket error.
    keepalive_requests 1000000;
    client_max_body_size 1m;
    client_body_buffer_size 1m;
    location / {
      proxy_pass http://tea;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout;
      proxy_read_timeout 30s;
    }
  }
}
`
}

// ---- report ----
interface Row {
  scenario: string
  result: LoadResult
  baseline?: string
  ratio?: number
  note?: string
}
const rows: Row[] = []
const fmt = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '-')
function record(scenario: string, result: LoadResult, baseline?: { name: string; value: number; mine: number }, note?: string) {
  const errs = (result.non2xx ?? 0) + (result.errors ?? 0) + (result.timeouts ?? 0)
  const detail = [
    ...Object.entries(result.statuses ?? {}).map(([code, n]) => `${code} × ${n}`),
    result.errors ? `socket errors × ${result.errors}` : '',
    result.timeouts ? `timeouts × ${result.timeouts}` : '',
  ]
    .filter(Boolean)
    .join(', ')
  const errNote = errs ? `${errs} non-2xx/errors (${detail})` : ''
  rows.push({
    scenario,
    result,
    baseline: baseline?.name,
    ratio: baseline ? baseline.mine / baseline.value : undefined,
    note: [note, errNote].filter(Boolean).join('; '),
  })
  log(`${scenario}: ${fmt(result.rps)} req/s p50 ${fmt(result.p50, 2)} ms p99 ${fmt(result.p99, 2)} ms${errs ? ` (${errNote})` : ''}`)
}
/** With more than one round: the median of the rounds' ratios, each to its own round's baseline. */
function medianOfRounds(name: string, ratios: number[], target: string) {
  if (ROUNDS < 2) return
  const ratio = median(ratios)
  const each = ratios.map((x) => fmt(x, 2)).join(', ')
  rows.push({
    scenario: `${name}: median of ${ROUNDS} rounds`,
    result: { rps: NaN, p50: NaN, p99: NaN, total: 0 },
    baseline: "its round's baseline",
    ratio,
    note: `${target}; rounds ${each}`,
  })
  log(`${name}: median ratio ${fmt(ratio, 2)} (rounds ${each})`)
}

// ---- the headline: CPU ratios ----
// CPU time per request depends far less on the number of cores and on other work than req/s
// does, so the bench's headline is the CPU a request costs around its work, each ratio taken
// against a baseline measured in the same round, and the median of the rounds reported.
interface Headline {
  name: string
  target: string
  /** Undefined for a reference row, which has no target of its own. */
  met?: (x: number) => boolean
  digits: number
  values: number[]
  loads: number[]
}
const HEADLINES: Headline[] = [
  [
    'uncached 2,000 chars: total CPU per request (server with workers + PostgreSQL) ÷ in-process extraction',
    '≤ 1.5',
    (x: number) => x <= 1.5,
    2,
  ],
  ['uncached 30,000 chars: total CPU per request ÷ in-process extraction', '≤ 1.15', (x: number) => x <= 1.15, 2],
  ['extraction CPU in a worker ÷ in process (2,000 chars)', '≤ 1.1', (x: number) => x <= 1.1, 2],
  ['extraction CPU in a worker ÷ in process (30,000 chars)', '≤ 1.1', (x: number) => x <= 1.1, 2],
  ['cached analyze: server CPU per request ÷ bare Fastify POST', '≤ 3', (x: number) => x <= 3, 2],
  ['quota read: server CPU per request ÷ bare Fastify GET', '≤ 2.5', (x: number) => x <= 2.5, 2],
  // What the quota row cannot go below: bare Fastify plus the token statement every request needs.
  ['floor (bare Fastify + the batched token statement): server CPU per request ÷ bare Fastify GET', "the quota row's floor", undefined, 2],
  // The same two ratios with the bare baseline loaded at the rate the service reached in that
  // round: the CPU per request falls as the rate rises (fewer sleeps and wake-ups per request),
  // so a baseline loaded as fast as possible also reads cheaper for running faster.
  ["same rate: cached analyze ÷ bare Fastify POST at the cached row's req/s", 'reference', undefined, 2],
  ["same rate: quota read ÷ bare Fastify GET at the quota row's req/s", 'reference', undefined, 2],
  ['PostgreSQL CPU per cached analyze, µs', '≤ 15', (x: number) => x <= 15, 1],
  ['PostgreSQL CPU per quota read, µs', '≤ 15', (x: number) => x <= 15, 1],
].map(([name, target, met, digits]) => ({ name, target, met, digits, values: [], loads: [] }) as Headline)
function headline(prefix: string, value: number, load: number) {
  const h = HEADLINES.find((x) => x.name.startsWith(prefix))
  if (!h) throw new Error(`bench: no headline row "${prefix}"`)
  h.values.push(value)
  h.loads.push(load)
  log(`${h.name}: ${fmt(value, h.digits)} (load average ${load.toFixed(1)})`)
}
function printHeadline() {
  const lines = [
    `| CPU ratio (median of rounds) | value | rounds | target | load average (1 min) |`,
    '|---|---:|---|---|---|',
    ...HEADLINES.filter((h) => h.values.length).map((h) => {
      const m = median(h.values)
      return `| ${h.name} | **${fmt(m, h.digits)}** | ${h.values.map((v) => fmt(v, h.digits)).join(', ')} | ${h.met ? `${h.target}: ${h.met(m) ? 'met' : 'missed'}` : h.target} | ${fmt(Math.min(...h.loads), 1)}–${fmt(Math.max(...h.loads), 1)} |`
    }),
  ]
  process.stdout.write('\n' + lines.join('\n') + '\n')
}

function printTable() {
  const lines = [
    '| scenario | req/s | p50 ms | p99 ms | vs baseline | ratio | notes |',
    '|---|---:|---:|---:|---|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.scenario} | ${fmt(r.result.rps)} | ${fmt(r.result.p50, 2)} | ${fmt(r.result.p99, 2)} | ${r.baseline ?? '(baseline)'} | ${r.ratio === undefined ? '' : fmt(r.ratio, 2)} | ${r.note ?? ''} |`,
    ),
  ]
  process.stdout.write('\n' + lines.join('\n') + '\n')
}

// ---- scenarios ----
async function main() {
  const loadAtStart = loadavg()[0]
  const dbUrl = await benchDatabase()
  const token = await setupAccount(dbUrl)
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const text2k = makeText(2000)
  const text30k = makeText(30_000)
  writeFileSync(join(tmp, 't2k.txt'), text2k)
  writeFileSync(join(tmp, 't30k.txt'), text30k)
  const cachedBody = JSON.stringify({ text: text2k })

  log(`starting one node with ${WORKERS} workers`)
  const node = await startNode(dbUrl)
  const first = await fetch(`${node.url}/v1/analyze`, { method: 'POST', headers: auth, body: cachedBody })
  const analyzeJson = await first.text()
  const quotaJson = await (await fetch(`${node.url}/v1/quota`, { headers: auth })).text()
  const analyzed = JSON.parse(analyzeJson) as { meta: Record<string, unknown> }
  writeFileSync(join(tmp, 'analyze.json'), JSON.stringify({ ...analyzed, meta: { ...analyzed.meta, cached: true } }))
  writeFileSync(join(tmp, 'quota.json'), quotaJson)

  if (SOAK > 0) return soak(node, auth, cachedBody, text2k)

  if (runs('http')) {
    const bare = await startProcess(
      'bare',
      [...SERVER_NODE_ARGS, '--import', 'tsx', 'scripts/bench/bare-server.ts', join(tmp, 'analyze.json'), join(tmp, 'quota.json')],
      { PORT: String(await freePort()) },
      /listening (http:\/\/\S+)/,
    )
    const bareUrl = bare.match[1]
    const floor = await startProcess(
      'floor',
      [...SERVER_NODE_ARGS, '--import', 'tsx', 'scripts/bench/floor-server.ts', join(tmp, 'quota.json'), dbUrl],
      { PORT: String(await freePort()) },
      /listening (http:\/\/\S+)/,
    )

    // 1. HTTP overhead: bare Fastify vs cached analyze and quota. Each server first gets `--warmup`
    // seconds (default 10) of the same load, not recorded, as the extraction rows below do: a
    // route's first seconds are spent compiling it (V8's optimising compiler is busy and the CPU
    // per request falls by about half over a fresh node's first half minute), and the rate
    // compared is that of a running service.
    // The four run in rounds (`--rounds`), each service row beside the baseline of its own round:
    // on a shared virtual machine the bare baselines alone move by tens of percent from one
    // minute to the next, so the figure to read is the median of the rounds' ratios.
    const warmed = async (round: number, pid: number, db: string | undefined, spec: Record<string, unknown>) => {
      if (round === 1) await load({ ...spec, duration: WARMUP })
      return measured(pid, db, spec)
    }
    const barePid = bare.child.pid!
    const ratios = { cached: [] as number[], quota: [] as number[], floor: [] as number[] }
    for (let round = 1; round <= ROUNDS; round++) {
      const tag = ROUNDS > 1 ? `, round ${round}` : ''
      const bareGet = await warmed(round, barePid, undefined, { url: `${bareUrl}/v1/quota`, connections: 10 })
      record(`bare Fastify GET (same quota JSON)${tag}`, bareGet, undefined, cpuNote(bareGet))
      const barePost = await warmed(round, barePid, undefined, {
        url: `${bareUrl}/v1/analyze`,
        method: 'POST',
        headers: auth,
        body: cachedBody,
        connections: 10,
      })
      record(`bare Fastify POST (same analyze JSON, same body)${tag}`, barePost, undefined, cpuNote(barePost))
      const cached = await warmed(round, node.child.pid!, dbUrl, {
        url: `${node.url}/v1/analyze`,
        method: 'POST',
        headers: auth,
        body: cachedBody,
        connections: 10,
      })
      record(
        `POST /v1/analyze, cached (2,000 chars)${tag}`,
        cached,
        { name: 'bare POST', value: barePost.rps, mine: cached.rps },
        `target ≥ 0.40; ${cpuNote(cached)}`,
      )
      const quota = await warmed(round, node.child.pid!, dbUrl, { url: `${node.url}/v1/quota`, headers: auth, connections: 10 })
      record(`GET /v1/quota${tag}`, quota, { name: 'bare GET', value: bareGet.rps, mine: quota.rps }, `target ≥ 0.50; ${cpuNote(quota)}`)
      const floorQuota = await warmed(round, floor.child.pid!, dbUrl, { url: `${floor.match[1]}/v1/quota`, headers: auth, connections: 10 })
      record(
        `floor: bare Fastify + the batched token statement${tag}`,
        floorQuota,
        { name: 'bare GET', value: bareGet.rps, mine: floorQuota.rps },
        `about the most GET /v1/quota can reach here; ${cpuNote(floorQuota)}`,
      )
      ratios.floor.push(floorQuota.rps / bareGet.rps)
      headline('cached analyze:', cached.cpu.server / barePost.cpu.server, cached.cpu.load)
      headline('quota read:', quota.cpu.server / bareGet.cpu.server, quota.cpu.load)
      headline('floor', floorQuota.cpu.server / bareGet.cpu.server, floorQuota.cpu.load)
      headline('PostgreSQL CPU per cached', cached.cpu.db, cached.cpu.load)
      headline('PostgreSQL CPU per quota', quota.cpu.db, quota.cpu.load)
      const bareGetSameRate = await measured(barePid, undefined, {
        url: `${bareUrl}/v1/quota`,
        connections: 10,
        rate: Math.round(quota.rps),
      })
      record(`bare Fastify GET at the quota row's rate${tag}`, bareGetSameRate, undefined, cpuNote(bareGetSameRate))
      const barePostSameRate = await measured(barePid, undefined, {
        url: `${bareUrl}/v1/analyze`,
        method: 'POST',
        headers: auth,
        body: cachedBody,
        connections: 10,
        rate: Math.round(cached.rps),
      })
      record(`bare Fastify POST at the cached row's rate${tag}`, barePostSameRate, undefined, cpuNote(barePostSameRate))
      headline('same rate: cached', cached.cpu.server / barePostSameRate.cpu.server, barePostSameRate.cpu.load)
      headline('same rate: quota', quota.cpu.server / bareGetSameRate.cpu.server, bareGetSameRate.cpu.load)
      ratios.cached.push(cached.rps / barePost.rps)
      ratios.quota.push(quota.rps / bareGet.rps)
    }
    medianOfRounds('POST /v1/analyze, cached, ratio to bare POST', ratios.cached, 'target ≥ 0.40')
    medianOfRounds('GET /v1/quota, ratio to bare GET', ratios.quota, 'target ≥ 0.50')
    medianOfRounds('floor (bare Fastify + the token statement), ratio to bare GET', ratios.floor, 'about the ceiling of the quota row')
    await stop(bare.child)
    await stop(floor.child)
  }

  // 2. Extraction: in-process single thread vs uncached analyses through HTTP with the pool, in
  // rounds: each round's in-process run is the baseline of that round's HTTP run.
  for (const [label, file, text] of [
    ['2,000', 't2k.txt', text2k],
    ['30,000', 't30k.txt', text30k],
  ] as const) {
    if (!runs(label === '2,000' ? 'extract2k' : 'extract30k')) continue
    const inprocess = async () =>
      (await runNode(['scripts/bench/inprocess.ts', 'analyze', join(tmp, file), String(DURATION)], ...BASELINE)) as LoadResult & {
        cpuUs: number
        mainCpuUs: number
      }
    const wink = await runNode(['scripts/bench/inprocess.ts', 'wink', join(tmp, file), String(DURATION)], ...BASELINE)
    record(`wink readDoc in-process, 1 thread (${label} chars)`, wink)
    // What this machine gives when every core extracts at once, with nothing else running: the
    // ceiling the pool can approach (cores share caches, memory bandwidth and the host).
    const side = await Promise.all(Array.from({ length: WORKERS }, () => inprocess()))
    const sideBySide = { ...side[0], rps: side.reduce((s, r) => s + r.rps, 0), total: side.reduce((s, r) => s + r.total, 0) }
    // The in-process baseline warms up before it measures; so do the workers here (`--warmup` s of the
    // same load, not recorded): the rate compared is that of a running service, not of JIT warm-up.
    const uncached = { url: `${node.url}/v1/analyze`, method: 'POST', headers: auth, uniqueText: text, connections: 8 }
    await load({ ...uncached, duration: WARMUP })
    const rates: number[] = []
    for (let round = 1; round <= ROUNDS; round++) {
      const tag = ROUNDS > 1 ? `, round ${round}` : ''
      const inproc = await inprocess()
      record(
        `service analyze() in-process, 1 thread (${label} chars)${tag}`,
        inproc,
        { name: 'wink readDoc', value: wink.rps, mine: inproc.rps },
        `CPU per extraction ${fmt(inproc.cpuUs)} µs (main thread ${fmt(inproc.mainCpuUs)})`,
      )
      if (round === 1)
        record(
          `service analyze() in-process, ${WORKERS} processes side by side (${label} chars)`,
          sideBySide,
          { name: `${WORKERS} × analyze() in-process`, value: WORKERS * inproc.rps, mine: sideBySide.rps },
          "the machine's own ceiling for the row below; p50/p99 of one process",
        )
      const http = await measured(node.child.pid!, dbUrl, uncached, node.url)
      record(
        `POST /v1/analyze uncached, ${WORKERS} workers (${label} chars)${tag}`,
        http,
        { name: `${WORKERS} × analyze() in-process`, value: WORKERS * inproc.rps, mine: http.rps },
        `vs wink: ${fmt(http.rps / wink.rps, 2)}; vs ${WORKERS} processes side by side: ${fmt(http.rps / sideBySide.rps, 2)}; ${cpuNote(http)} (server incl. workers; in-process analyze() ${fmt(inproc.cpuUs)} µs CPU)`,
      )
      rates.push(http.rps / (WORKERS * inproc.rps))
      headline(`uncached ${label} chars`, (http.cpu.server + http.cpu.db) / inproc.cpuUs, http.cpu.load)
      if (http.cpu.workerCpu !== undefined)
        headline(`extraction CPU in a worker ÷ in process (${label}`, http.cpu.workerCpu / inproc.mainCpuUs, http.cpu.load)
    }
    medianOfRounds(`uncached POST /v1/analyze (${label} chars), ratio of req/s to ${WORKERS} × in-process`, rates, 'secondary')
    const mem = rssOf(node.child.pid!)
    rows.push({
      scenario: `peak RSS, one node with ${WORKERS} workers (after the uncached ${label}-character analyses)`,
      result: { rps: NaN, p50: NaN, p99: NaN, total: 0 },
      note: `${fmt(mem.peak / 2 ** 20)} MB peak (VmHWM), ${fmt(mem.rss / 2 ** 20)} MB now`,
    })
    log(`peak RSS ${fmt(mem.peak / 2 ** 20)} MB`)
  }

  // 3. GET /v1/quota latency alone vs under a saturating uncached analysis load. Both loads first
  // run for `--warmup` seconds, not recorded, so that neither the quota route nor the analysis
  // path is measured while still being compiled (run alone, `--only latency`, the node is fresh).
  // Then `--rounds` pairs, each "under" beside its own round's "alone", and the median ratio:
  // one p99 is set by the slowest 1% of some 4,000 answers, and moves with the machine's noise.
  if (runs('latency')) {
    const quotaRate = { url: `${node.url}/v1/quota`, headers: auth, connections: 4, rate: 400 }
    const saturatingLoad = { url: `${node.url}/v1/analyze`, method: 'POST', headers: auth, uniqueText: text30k, connections: 16 }
    await Promise.all([load({ ...quotaRate, duration: WARMUP }), load({ ...saturatingLoad, duration: WARMUP })])
    await new Promise((r) => setTimeout(r, 3000)) // the analyses the warm-up left in the pool end or are dropped
    const ratios: number[] = []
    for (let round = 1; round <= ROUNDS; round++) {
      const tag = ROUNDS > 1 ? `, round ${round}` : ''
      const alone = await load(quotaRate)
      record(`GET /v1/quota at 400 req/s, alone (p99 baseline)${tag}`, alone)
      const [under, saturating] = await Promise.all([load(quotaRate), load(saturatingLoad)])
      record(
        `GET /v1/quota at 400 req/s, under saturating analysis${tag}`,
        under,
        { name: 'p99 alone (ratio of p99s)', value: alone.p99, mine: under.p99 },
        'target ≤ 3.00',
      )
      record(`  (the saturating load: uncached 30,000 chars, 16 connections)${tag}`, saturating)
      ratios.push(under.p99 / alone.p99)
      await new Promise((r) => setTimeout(r, 3000))
    }
    medianOfRounds('GET /v1/quota p99 under saturating analysis, ratio to alone', ratios, 'target ≤ 3.00')
    const single = rssOf(node.child.pid!)
    rows.push({
      scenario: `peak RSS, one node with ${WORKERS} workers (after all the above)`,
      result: { rps: NaN, p50: NaN, p99: NaN, total: 0 },
      note: `${fmt(single.peak / 2 ** 20)} MB peak (VmHWM), ${fmt(single.rss / 2 ** 20)} MB now; target ≤ 400 MB`,
    })
    log(`peak RSS ${fmt(single.peak / 2 ** 20)} MB`)
  }
  if (runs('abuse')) await abuse(dbUrl, token, text2k)
  if (!runs('nodes')) {
    await stop(node.child)
    return finish(loadAtStart)
  }

  try {
    await behindNginx(node, auth, cachedBody, text2k, dbUrl)
  } catch (err) {
    log(`nginx scenarios skipped: ${(err as Error).message}`)
    rows.push({
      scenario: 'nodes behind nginx',
      result: { rps: NaN, p50: NaN, p99: NaN, total: 0 },
      note: `skipped: ${(err as Error).message}`,
    })
  }
  return finish(loadAtStart)
}

/**
 * 4. Fair share: a paying (business) customer's p99 alone vs while a free account abuses the
 * node: 16 connections sending 29,500-character texts and hanging up 150 ms after each, and a
 * flood of invalid requests on 32 connections (the findings of an adversarial review). On a
 * fresh node with the default burst limits and queue shares; the customer sends uncached
 * 2,000-character texts at 10 req/s. Then the same with the free plan's burst limit and daily
 * quota lifted, so that only the queue's fair share protects the customer.
 */
async function abuse(dbUrl: string, customerToken: string, text2k: string) {
  const attackerToken = await setupAccount(dbUrl, 'free')
  const variants = [
    { name: 'default limits', env: { RATE_LIMITS: '' }, unlimitedFree: false },
    { name: 'free plan unlimited (queue fairness alone)', env: { RATE_LIMITS: 'free=1000000/1000000' }, unlimitedFree: true },
  ]
  for (const variant of variants) {
    if (variant.unlimitedFree) {
      const sql = postgres(dbUrl, { max: 1, onnotice: () => {} })
      await sql`update plans set daily_limit = 2000000000 where name = 'free'`
      await sql.end()
    }
    log(`abuse (${variant.name}): starting a fresh node with ${WORKERS} workers`)
    const node = await startNode(dbUrl, variant.env)
    const customer = {
      url: `${node.url}/v1/analyze`,
      method: 'POST',
      headers: { authorization: `Bearer ${customerToken}`, 'content-type': 'application/json' },
      uniqueText: text2k,
      connections: 2,
      rate: 10,
    }
    const attack = { url: node.url, token: attackerToken, text: makeText(29_500), hangUps: 16, hangUpAfterMs: 150, floodConnections: 32 }
    await load({ ...customer, duration: WARMUP })
    const ratios: number[] = []
    for (let round = 1; round <= ROUNDS; round++) {
      const tag = `${variant.name}${ROUNDS > 1 ? `, round ${round}` : ''}`
      const alone = await load(customer)
      record(`paying customer, 2,000 chars uncached at 10 req/s, alone (${tag})`, alone)
      const [under, attacker] = await Promise.all([
        load(customer),
        runNode(['scripts/bench/abuse.ts', JSON.stringify({ ...attack, duration: DURATION })]) as unknown as Promise<{
          hangUps: Record<string, number>
          flood: { rps: number; statuses: Record<string, number> }
        }>,
      ])
      const answers = (o: Record<string, number>) =>
        Object.entries(o)
          .map(([k, v]) => `${k} × ${v}`)
          .join(', ')
      record(
        `paying customer under a free account's abuse (${tag})`,
        under,
        { name: 'p99 alone (ratio of p99s)', value: alone.p99, mine: under.p99 },
        `target ≤ 3.00; attacker hang-ups: ${answers(attacker.hangUps)}; its invalid flood: ${fmt(attacker.flood.rps)} req/s, ${answers(attacker.flood.statuses)}`,
      )
      ratios.push(under.p99 / alone.p99)
      await new Promise((r) => setTimeout(r, 3000))
    }
    medianOfRounds(`paying customer p99 under abuse (${variant.name}), ratio to alone`, ratios, 'target ≤ 3.00')
    await stop(node.child)
  }
}

/** 5. Nodes behind nginx: one node direct (baseline), one node via nginx, three nodes via nginx. */
async function behindNginx(
  node: { child: ChildProcess; url: string },
  auth: Record<string, string>,
  cachedBody: string,
  text2k: string,
  dbUrl: string,
) {
  const oneDirect = await load({ url: `${node.url}/v1/analyze`, method: 'POST', headers: auth, body: cachedBody, connections: 32 })
  record('one node direct: cached analyze, 32 conns', oneDirect)
  const oneQuota = await load({ url: `${node.url}/v1/quota`, headers: auth, connections: 32 })
  record('one node direct: GET /v1/quota, 32 conns', oneQuota)
  const nginx1 = await startNginx([node.url])
  const viaOne = await load({ url: `${nginx1.url}/v1/analyze`, method: 'POST', headers: auth, body: cachedBody, connections: 32 })
  record('nginx → one node: cached analyze', viaOne, { name: 'one node direct', value: oneDirect.rps, mine: viaOne.rps })
  await stop(nginx1.child)
  await stop(node.child)
  log('starting three nodes (1 worker each) behind nginx')
  const three = await Promise.all([0, 1, 2].map(() => startNode(dbUrl, { ANALYSIS_WORKERS: '1' })))
  const nginx3 = await startNginx(three.map((n) => n.url))
  // The fresh nodes warm up as the one node had (see the first scenarios) before they are compared with it.
  await load({ url: `${nginx3.url}/v1/analyze`, method: 'POST', headers: auth, body: cachedBody, connections: 32, duration: WARMUP })
  await load({ url: `${nginx3.url}/v1/quota`, headers: auth, connections: 32, duration: WARMUP })
  const viaThree = await load({ url: `${nginx3.url}/v1/analyze`, method: 'POST', headers: auth, body: cachedBody, connections: 32 })
  record('nginx → three nodes: cached analyze', viaThree, { name: 'one node direct', value: oneDirect.rps, mine: viaThree.rps })
  const viaThreeQuota = await load({ url: `${nginx3.url}/v1/quota`, headers: auth, connections: 32 })
  record('nginx → three nodes: GET /v1/quota', viaThreeQuota, { name: 'one node direct', value: oneQuota.rps, mine: viaThreeQuota.rps })
  const viaThreeUncached = await load({
    url: `${nginx3.url}/v1/analyze`,
    method: 'POST',
    headers: auth,
    uniqueText: text2k,
    connections: 8,
  })
  record('nginx → three nodes: uncached analyze (2,000 chars)', viaThreeUncached)
  const peaks = three.map((n) => rssOf(n.child.pid!).peak)
  rows.push({
    scenario: 'peak RSS, three nodes with 1 worker each',
    result: { rps: NaN, p50: NaN, p99: NaN, total: 0 },
    note: peaks.map((p) => `${fmt(p / 2 ** 20)} MB`).join(', '),
  })
  await stop(nginx3.child)
  await Promise.all(three.map((n) => stop(n.child)))
}

async function finish(loadAtStart: number) {
  printHeadline()
  process.stdout.write('\nSecondary rows (throughput, latency, memory, and each round):\n')
  printTable()
  process.stdout.write(
    `\nmachine: ${(await import('node:os')).cpus().length} cores, node ${process.version}; ${DURATION} s per scenario; server: ${Object.entries(
      START.env,
    )
      .map(([k, v]) => `${k}=${v} `)
      .join(
        '',
      )}node ${[...START.nodeArgs, START.entry].join(' ')}, LOG_LEVEL=${LOG_LEVEL}; in-process baselines: ${BASELINE[0].length ? "the server's flags" : "Node's default flags"}; ` +
      `1-min load average ${loadAtStart.toFixed(2)} at start, ${loadavg()[0].toFixed(2)} at end (other work on the machine skews the figures)\n`,
  )
}

async function soak(node: { child: ChildProcess; url: string }, auth: Record<string, string>, cachedBody: string, text2k: string) {
  // A mixed load in 30 s slices: cached analyses, uncached 2,000-character analyses and quota
  // reads at fixed rates; RSS and each slice's p99 are printed as they come.
  const slice = Math.min(30, SOAK)
  const slices = Math.max(1, Math.round(SOAK / slice))
  process.stdout.write(
    `| t (s) | RSS MB | peak MB | cached p99 ms | uncached p99 ms | quota p99 ms | req/s (all) | non-2xx |\n|---:|---:|---:|---:|---:|---:|---:|---:|\n`,
  )
  const start = rssOf(node.child.pid!)
  process.stdout.write(`| 0 | ${fmt(start.rss / 2 ** 20)} | ${fmt(start.peak / 2 ** 20)} | | | | | |\n`)
  for (let i = 1; i <= slices; i++) {
    const [c, u, q] = await Promise.all([
      load({ url: `${node.url}/v1/analyze`, method: 'POST', headers: auth, body: cachedBody, connections: 4, rate: 300, duration: slice }),
      load({ url: `${node.url}/v1/analyze`, method: 'POST', headers: auth, uniqueText: text2k, connections: 4, rate: 80, duration: slice }),
      load({ url: `${node.url}/v1/quota`, headers: auth, connections: 4, rate: 300, duration: slice }),
    ])
    const m = rssOf(node.child.pid!)
    const bad = [c, u, q].reduce((s, r) => s + (r.non2xx ?? 0) + (r.errors ?? 0) + (r.timeouts ?? 0), 0)
    process.stdout.write(
      `| ${i * slice} | ${fmt(m.rss / 2 ** 20)} | ${fmt(m.peak / 2 ** 20)} | ${fmt(c.p99, 1)} | ${fmt(u.p99, 1)} | ${fmt(q.p99, 1)} | ${fmt(c.rps + u.rps + q.rps)} | ${bad} |\n`,
    )
  }
  await stop(node.child)
}

try {
  await main()
} finally {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL')
  for (const f of cleanups.reverse()) await f()
  rmSync(tmp, { recursive: true, force: true })
}
