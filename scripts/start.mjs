// `npm start`: runs src/server.ts as one plain-JavaScript bundle on Node's own loader
// (src/bundle.mjs says why). Should bundling fail (a read-only install, say), the sources run
// through tsx instead: the same service, heavier in memory and slower to start.
import { bundleEntry } from '../src/bundle.mjs'

const server = new URL('../src/server.ts', import.meta.url)
let entry
try {
  entry = await bundleEntry(server, 'server')
} catch (err) {
  // Shaped like the service's own (pino) log lines.
  process.stderr.write(
    `${JSON.stringify({ level: 40, time: Date.now(), pid: process.pid, err: { message: err.message }, msg: 'server bundle not built; running the sources through tsx' })}\n`,
  )
  const { register } = await import('tsx/esm/api')
  register()
  entry = server.href
}
await import(entry)
