// A PostgreSQL server of the test's own, to stop and start under load without touching the
// shared server every other test (and engineer) uses. initdb into a temporary folder, a free
// loopback port, fsync off; run as the `postgres` user when the test runs as root.
import { execFile, execFileSync, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

function findBinDir(): string | undefined {
  if (process.env.PG_BIN && existsSync(join(process.env.PG_BIN, 'initdb'))) return process.env.PG_BIN
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a))
  return versions.length ? join(root, versions[0], 'bin') : undefined
}

/** Why a throwaway server cannot be made here, or undefined when it can. */
export function throwawayPostgresUnavailable(): string | undefined {
  if (!findBinDir()) return 'no PostgreSQL server binaries (initdb) under /usr/lib/postgresql; install the postgresql package'
  if (process.getuid?.() === 0 && spawnSync('id', ['postgres']).status !== 0)
    return 'running as root without a postgres user to run the server as'
  return undefined
}

export async function freePort(): Promise<number> {
  // On a machine shared by several engineers, TEA_PORT_RANGE ("40000-40999") keeps each to a range.
  const range = /^(\d+)-(\d+)$/.exec(process.env.TEA_PORT_RANGE ?? '')
  if (!range) return listenOn(0)
  const [low, high] = [Number(range[1]), Number(range[2])]
  const start = low + Math.floor(Math.random() * (high - low + 1))
  for (let i = 0; i <= high - low; i++) {
    const port = low + ((start - low + i) % (high - low + 1))
    try {
      return await listenOn(port)
    } catch {
      // taken: try the next
    }
  }
  throw new Error(`no free port in ${process.env.TEA_PORT_RANGE}`)
}

function listenOn(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(port, '127.0.0.1', () => {
      const bound = (s.address() as { port: number }).port
      s.close(() => resolve(bound))
    })
  })
}

export interface ThrowawayPostgres {
  url: string
  /** Asynchronous, so that the event loop of the app under test keeps running meanwhile. */
  stop(): Promise<void>
  start(): Promise<void>
  /**
   * Sends a signal to the server and every process of it (the postmaster and its backends):
   * SIGSTOP freezes it as a hung machine would, SIGCONT lets it go on.
   */
  signal(sig: 'SIGSTOP' | 'SIGCONT'): void
  destroy(): void
}

/** `settings`: extra server settings (`-c name=value`), e.g. a tiny max_connections. */
export async function startThrowawayPostgres(settings: Record<string, string | number> = {}): Promise<ThrowawayPostgres> {
  const bin = findBinDir()!
  const asRoot = process.getuid?.() === 0
  const dir = mkdtempSync(join(tmpdir(), 'tea-pg-'))
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString())
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString())
    chownSync(dir, uid, gid)
  }
  const run = (tool: string, args: string[]) => {
    const cmd = asRoot ? ['runuser', '-u', 'postgres', '--', join(bin, tool), ...args] : [join(bin, tool), ...args]
    const r = spawnSync(cmd[0], cmd.slice(1), { encoding: 'utf8', timeout: 60_000 })
    if (r.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed: ${r.stderr || r.stdout}`)
  }
  const runAsync = (tool: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const cmd = asRoot ? ['runuser', '-u', 'postgres', '--', join(bin, tool), ...args] : [join(bin, tool), ...args]
      execFile(cmd[0], cmd.slice(1), { timeout: 60_000 }, (err, stdout, stderr) =>
        err ? reject(new Error(`${tool} ${args.join(' ')} failed: ${stderr || stdout || err.message}`)) : resolve(),
      )
    })
  const data = join(dir, 'data')
  run('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'])
  const port = await freePort()
  const extra = Object.entries(settings)
    .map(([k, v]) => ` -c ${k}=${v}`)
    .join('')
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off${extra}`
  const startArgs = ['-D', data, '-o', options, '-l', join(dir, 'log'), '-w', '-t', '60', 'start']
  // -m fast: what an operator's stop does; sessions are terminated (57P01) and the server exits.
  const stopArgs = ['-D', data, '-m', 'fast', '-w', '-t', '60', 'stop']
  const signal = (sig: 'SIGSTOP' | 'SIGCONT') => {
    const postmaster = Number(readFileSync(join(data, 'postmaster.pid'), 'utf8').split('\n')[0])
    const children = execFileSync('ps', ['-o', 'pid=', '--ppid', String(postmaster)], { encoding: 'utf8' })
      .split('\n')
      .map((l) => Number(l.trim()))
      .filter((pid) => pid > 0)
    // The postmaster first when stopping (no new backends meanwhile), last when resuming.
    const pids = sig === 'SIGSTOP' ? [postmaster, ...children] : [...children, postmaster]
    for (const pid of pids) {
      try {
        process.kill(pid, sig)
      } catch {
        // a backend that just exited
      }
    }
  }
  await runAsync('pg_ctl', startArgs)
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: () => runAsync('pg_ctl', startArgs),
    stop: () => runAsync('pg_ctl', stopArgs),
    signal,
    destroy() {
      try {
        signal('SIGCONT')
      } catch {
        // not running
      }
      try {
        run('pg_ctl', stopArgs)
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
