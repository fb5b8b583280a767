// Requests Node's HTTP parser refuses before any route runs, sent as raw bytes to a listening
// server: they get the documented error shape {error, message, code} and an X-Request-Id.
import t from 'tap'
import { connect } from 'node:net'
import { buildTestApp } from '../helpers/app.ts'

interface RawResponse {
  status: number
  headers: Record<string, string>
  body: string
}

/** Writes `bytes` on a fresh connection and reads until the server closes it. */
function raw(port: number, bytes: string): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes))
    socket.on('data', (c) => chunks.push(c))
    socket.on('error', reject)
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8')
      const end = text.indexOf('\r\n\r\n')
      if (end < 0) return reject(new Error(`no HTTP response: ${JSON.stringify(text.slice(0, 200))}`))
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n')
      const headers: Record<string, string> = {}
      for (const line of lines) {
        const i = line.indexOf(':')
        headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim()
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: text.slice(end + 4) })
    })
  })
}

t.test('connection-level client errors answer in the documented shape with a request id', async (t) => {
  const { app } = await buildTestApp(t)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = (app.server.address() as { port: number }).port
  const cases = [
    {
      name: 'headers over 16 KiB',
      bytes: `GET /v1/quota HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      status: 431,
      code: 'HEADERS_TOO_LARGE',
    },
    { name: 'malformed request line', bytes: 'GARBAGE\r\n\r\n', status: 400, code: 'MALFORMED_REQUEST', message: /request line/ },
    { name: 'unknown HTTP version', bytes: 'GET /v1/quota HTTP/9.9\r\nHost: x\r\n\r\n', status: 400, code: 'MALFORMED_REQUEST' },
    {
      name: 'Content-Length and Transfer-Encoding together',
      bytes:
        'POST /v1/analyze HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      status: 400,
      code: 'MALFORMED_REQUEST',
      message: /Content-Length and Transfer-Encoding/,
    },
    {
      name: 'control character in a header value',
      bytes: 'GET /v1/quota HTTP/1.1\r\nHost: x\r\nX-Bad: a\x01b\r\n\r\n',
      status: 400,
      code: 'MALFORMED_REQUEST',
      message: /character/,
    },
    {
      name: 'space in a header name',
      bytes: 'GET /v1/quota HTTP/1.1\r\nHost: x\r\nBad Name: a\r\n\r\n',
      status: 400,
      code: 'MALFORMED_REQUEST',
    },
  ]
  for (const c of cases) {
    const res = await raw(port, c.bytes)
    t.equal(res.status, c.status, c.name)
    t.match(res.headers['content-type'], /^application\/json/, `${c.name}: JSON`)
    t.match(res.headers['x-request-id'], /^req-[0-9a-f-]{36}$/, `${c.name}: request id`)
    t.equal(res.headers['x-content-type-options'], 'nosniff')
    const body = JSON.parse(res.body)
    t.same(Object.keys(body).sort(), ['code', 'error', 'message'], `${c.name}: exactly the documented fields`)
    t.equal(body.code, c.code, c.name)
    t.equal(body.error, c.status === 431 ? 'Request Header Fields Too Large' : 'Bad Request')
    if (c.message) t.match(body.message, c.message)
  }
  // The server goes on serving well-formed requests.
  const ok = await raw(port, 'GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
  t.equal(ok.status, 200)
})
