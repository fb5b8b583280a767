// The abusive client of the fair-share scenario, in its own process: one token sends large texts
// and hangs up shortly after each (`hangUps` connections), while flooding the API with invalid
// requests (`floodConnections`, as fast as it can). Prints one JSON line: how each part was answered.
// Usage: node --import tsx scripts/bench/abuse.ts '<json spec>'
import { request } from 'node:http'
import autocannon from 'autocannon'

interface Spec {
  url: string
  token: string
  duration: number
  /** A large text; each request makes it unique (uncached). */
  text: string
  hangUps: number
  hangUpAfterMs: number
  floodConnections: number
}

const spec = JSON.parse(process.argv[2]) as Spec
const target = new URL('/v1/analyze', spec.url)
const until = Date.now() + spec.duration * 1000
const hangUpAnswers: Record<string, number> = {}
const tag = Math.random().toString(36).slice(2, 8)
let n = 0

/** One large analysis; the socket is destroyed `hangUpAfterMs` after the body was sent. */
function hangUp(): Promise<void> {
  const prefix = `Item ${tag}-${n++}. `
  const body = JSON.stringify({ text: prefix + spec.text.slice(prefix.length) })
  return new Promise((resolve) => {
    const req = request(target, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${spec.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    })
    const count = (key: string) => {
      hangUpAnswers[key] = (hangUpAnswers[key] ?? 0) + 1
      resolve()
    }
    const timer = setTimeout(() => req.destroy(), spec.hangUpAfterMs)
    req.on('response', (res) => {
      clearTimeout(timer)
      res.resume()
      res.on('end', () => count(String(res.statusCode)))
    })
    req.on('error', () => count('hung up'))
    req.end(body)
  })
}

async function hangUpLoop() {
  while (Date.now() < until) await hangUp()
}

const flood = autocannon({
  url: target.toString(),
  method: 'POST',
  headers: { authorization: `Bearer ${spec.token}`, 'content-type': 'application/json' },
  body: JSON.stringify({ text: 'too short' }),
  connections: spec.floodConnections,
  duration: spec.duration,
})
const [floodResult] = await Promise.all([flood, ...Array.from({ length: spec.hangUps }, hangUpLoop)])
const statuses = (floodResult as unknown as { statusCodeStats?: Record<string, { count: number }> }).statusCodeStats ?? {}
process.stdout.write(
  JSON.stringify({
    hangUps: hangUpAnswers,
    flood: {
      rps: floodResult.requests.total / floodResult.duration,
      statuses: Object.fromEntries(Object.entries(statuses).map(([k, v]) => [k, v.count])),
    },
  }) + '\n',
)
