// Starts a checkout of the service as `npm start` starts it (the environment and node flags of
// its package.json's start script), on a given database and port, for the A/B scripts that run
// two checkouts side by side; resolves once it answers /readyz.
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

export interface CheckoutServer {
  pid: number
  url: string
}

export async function startCheckout(
  dir: string,
  o: { port: number; databaseUrl: string; workers: number; children: ChildProcess[]; nodeArgs?: string[] },
): Promise<CheckoutServer> {
  const script = (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start
  const words = script.split(/\s+/).filter(Boolean)
  const env: Record<string, string> = {}
  while (/^[A-Z_]+=/.test(words[0])) {
    const [k, v] = words.shift()!.split('=')
    env[k] = v
  }
  if (words.shift() !== 'node') throw new Error(`cannot read ${dir}'s start script`)
  const child = spawn(process.execPath, [...(o.nodeArgs ?? []), ...words], {
    cwd: dir,
    env: {
      ...process.env,
      ...env,
      DATABASE_URL: o.databaseUrl,
      PORT: String(o.port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      ANALYSIS_WORKERS: String(o.workers),
      RATE_LIMITS: 'business=1000000/1000000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  o.children.push(child)
  const url = `http://127.0.0.1:${o.port}`
  for (let i = 0; i < 900; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).status === 200) return { pid: child.pid!, url }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`${dir}: not ready in 90 s`)
}
