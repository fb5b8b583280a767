import t from 'tap'
import { Writable } from 'node:stream'
import Fastify from 'fastify'
import pino from 'pino'
import { lazyRequestLogger } from '../src/request-logger.ts'
import { loggerOptions } from '../src/app.ts'

function capture() {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk))
      done()
    },
  })
  return { lines, stream }
}

t.test('a request that logs nothing below the level gets no pino child', async (t) => {
  const { lines, stream } = capture()
  const parent = pino({ level: 'warn' }, stream)
  let made = 0
  const child = parent.child.bind(parent)
  parent.child = ((...args: Parameters<typeof child>) => (made++, child(...args))) as typeof parent.child
  const log = lazyRequestLogger.call(Fastify(), parent, { reqId: 'req-1' }, {}, undefined as never)
  log.info({ req: {} }, 'incoming request')
  log.debug('details')
  t.equal(made, 0, 'no child for calls under the level')
  t.same(lines, [], 'nothing written')
  t.equal(log.level, 'warn', "the level is the parent's")
})

t.test('the first call at the level makes the child, once, with the request id', async (t) => {
  const { lines, stream } = capture()
  const parent = pino({ level: 'warn' }, stream)
  let made = 0
  const child = parent.child.bind(parent)
  parent.child = ((...args: Parameters<typeof child>) => (made++, child(...args))) as typeof parent.child
  const log = lazyRequestLogger.call(Fastify(), parent, { reqId: 'req-2' }, {}, undefined as never)
  log.warn({ n: 1 }, 'first')
  log.error('second')
  t.equal(made, 1, 'one child')
  t.equal(lines.length, 2)
  t.match(JSON.parse(lines[0]), { reqId: 'req-2', n: 1, msg: 'first', level: 40 })
  t.match(JSON.parse(lines[1]), { reqId: 'req-2', msg: 'second', level: 50 })
  // A parent turned up later is heard too.
  const quiet = lazyRequestLogger.call(Fastify(), parent, { reqId: 'req-3' }, {}, undefined as never)
  parent.level = 'info'
  quiet.info('now on')
  t.match(JSON.parse(lines[2]), { reqId: 'req-3', msg: 'now on' })
})

t.test('a route with a level of its own gets its child at once', async (t) => {
  const parent = pino({ level: 'warn' }, capture().stream)
  let made = 0
  const child = parent.child.bind(parent)
  parent.child = ((...args: Parameters<typeof child>) => (made++, child(...args))) as typeof parent.child
  const log = lazyRequestLogger.call(Fastify(), parent, { reqId: 'req-4' }, { level: 'debug' }, undefined as never)
  t.equal(made, 1)
  t.equal(log.level, 'debug')
})

t.test("in the application, a request's log lines carry its id and the redaction", async (t) => {
  const { lines, stream } = capture()
  const app = Fastify({ logger: { ...(loggerOptions('info') as object), stream }, childLoggerFactory: lazyRequestLogger })
  app.get('/x', async (request) => {
    request.log.warn({ req: request }, 'looked at')
    return { ok: true }
  })
  t.teardown(() => app.close())
  await app.inject({ url: '/x?secret=1', headers: { 'x-request-id': 'abc', authorization: 'Bearer tea_live_secret' } })
  const looked = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.msg === 'looked at')
  t.ok(looked, 'logged')
  t.match(looked, { reqId: String, req: { method: 'GET', path: '/x' } })
  const all = lines.join('')
  t.notOk(all.includes('tea_live_secret'), 'no token')
  t.notOk(all.includes('secret=1'), 'no query string')
  t.equal(lines.filter((l) => l.includes('incoming request')).length, 1, "Fastify's own request lines at info")
})
