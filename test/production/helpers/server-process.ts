// The real server as a child process, started as `npm start` starts it (`node scripts/start.mjs`), on a free loopback
// port chosen by the OS; its address is read from its own "Server listening" log line.
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url))

export interface ServerProcess {
  child: ChildProcess
  url: string
  logs: string[]
  exited: Promise<number | null>
}

/**
 * `launcher`, if given, is a command that runs the rest of its arguments (`node scripts/start.mjs`)
 * by exec, so that the child's pid stays the server's.
 */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 60_000, launcher: string[] = []): Promise<ServerProcess> {
  const argv = [...launcher, process.execPath, 'scripts/start.mjs']
  const child = spawn(argv[0], argv.slice(1), {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const logs: string[] = []
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in ${timeoutMs} ms:\n${logs.join('\n')}`)), timeoutMs)
    let buffered = ''
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString()
      let nl
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl)
        buffered = buffered.slice(nl + 1)
        logs.push(line)
        const m = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line)
        if (m) {
          clearTimeout(timer)
          resolve(m[1])
        }
      }
    }
    child.stdout.on('data', onData)
    child.stderr.on('data', (c: Buffer) => logs.push(c.toString()))
    void exited.then((code) => reject(new Error(`server exited with ${code} before listening:\n${logs.join('\n')}`)))
  })
  return { child, url, logs, exited }
}
