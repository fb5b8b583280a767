// The retry policy against a real HTTP server on a real port, scripted answer by answer: what is
// retried, after how long, and what is thrown at once.
import t, { type Test } from 'tap'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import {
  BadRequestError,
  createTeaClient,
  NetworkError,
  QuotaExceededError,
  RateLimitedError,
  ServiceUnavailableError,
  TimeoutError,
  UnexpectedResponseError,
  type TeaClientOptions,
} from '../src/index.ts'
import { DEFAULT_RETRY, retryDelayMs } from '../src/retry.ts'
import { QuotaExceededError as QuotaError, ServiceUnavailableError as Unavailable } from '../src/errors.ts'

type Answer = (req: IncomingMessage, res: ServerResponse) => void

const RATE = { 'x-ratelimit-limit': '100', 'x-ratelimit-remaining': '42', 'x-ratelimit-reset': '1795392000' }
const QUOTA = { plan: 'free', daily: { limit: 100, used: 58, remaining: 42 }, resetAt: '2026-11-23T00:00:00Z' }

function json(status: number, body: unknown, headers: Record<string, string> = {}): Answer {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'x-request-id': 'req-1', ...RATE, ...headers })
    res.end(JSON.stringify(body))
  }
}
const ok = json(200, QUOTA)
const overloaded = (retryAfter: string) =>
  json(503, { error: 'Service Unavailable', code: 'OVERLOADED', message: 'The analysis queue is full' }, { 'retry-after': retryAfter })
const tooMany = (code: 'RATE_LIMITED' | 'QUOTA_EXCEEDED', retryAfter: number) =>
  json(429, { error: 'Rate Limited', code, message: 'Too many', retryAfter }, { 'retry-after': String(retryAfter) })

/** A server that gives the scripted answers in order (the last one again once the script runs out). */
async function scripted(t: Test, answers: Answer[]) {
  const seen: { at: number; method: string; url: string }[] = []
  const server = createServer((req, res) => {
    seen.push({ at: performance.now(), method: req.method!, url: req.url! })
    req.resume()
    answers[Math.min(seen.length - 1, answers.length - 1)](req, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  t.teardown(() => server.closeAllConnections())
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const client = (o: Partial<TeaClientOptions> = {}) =>
    createTeaClient({ baseUrl, token: 'tea_live_test', ...o, retry: { baseDelayMs: 10, ...o.retry } })
  return { seen, client }
}

t.test('503 with Retry-After: waited for (never less), then retried until it succeeds', async (t) => {
  const { seen, client } = await scripted(t, [overloaded('1'), overloaded('1'), ok])
  const started = performance.now()
  const r = await client().quota()
  t.equal(r.status, 200)
  t.equal(r.attempts, 3)
  t.same(r.data, QUOTA)
  t.same(r.rateLimit, { limit: 100, remaining: 42, reset: new Date(1795392000 * 1000) }, 'the quota headers, typed')
  t.equal(r.requestId, 'req-1')
  t.equal(seen.length, 3)
  t.ok(seen[1].at - seen[0].at >= 1000, `first retry after ≥ 1 s (${Math.round(seen[1].at - seen[0].at)} ms)`)
  t.ok(seen[2].at - seen[1].at >= 1000, 'second retry after ≥ 1 s')
  t.ok(performance.now() - started >= 2000)
})

t.test('503: given up after maxRetries, thrown typed with its code and retryAfter', async (t) => {
  const { seen, client } = await scripted(t, [overloaded('0')])
  const err = await client({ retry: { maxRetries: 2 } })
    .quota()
    .catch((e) => e)
  t.type(err, ServiceUnavailableError)
  t.equal(err.code, 'OVERLOADED')
  t.equal(err.retryAfter, 0)
  t.equal(err.status, 503)
  t.equal(err.rateLimit?.remaining, 42)
  t.equal(seen.length, 3, 'the first attempt and two retries')
})

t.test('a Retry-After longer than maxDelayMs is not waited for: thrown at once', async (t) => {
  const { seen, client } = await scripted(t, [overloaded('120'), ok])
  const err = await client({ retry: { maxDelayMs: 5000 } })
    .quota()
    .catch((e) => e)
  t.type(err, ServiceUnavailableError)
  t.equal(err.retryAfter, 120)
  t.equal(seen.length, 1)
})

t.test('network errors (a connection reset) are retried', async (t) => {
  const { seen, client } = await scripted(t, [(req) => req.socket.destroy(), (req) => req.socket.destroy(), ok])
  const r = await client().quota()
  t.equal(r.attempts, 3)
  t.equal(seen.length, 3)
})

t.test('no server at all: a NetworkError after the retries', async (t) => {
  const { client } = await scripted(t, [ok])
  const probe = createServer()
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve))
  const port = (probe.address() as AddressInfo).port
  await new Promise<void>((resolve) => probe.close(() => resolve()))
  const err = await client({ baseUrl: `http://127.0.0.1:${port}`, retry: { maxRetries: 1 } })
    .quota()
    .catch((e) => e)
  t.type(err, NetworkError)
  t.ok(err.cause, 'fetch’s own error is the cause')
})

t.test('429 RATE_LIMITED: retried after retryAfter', async (t) => {
  const { seen, client } = await scripted(t, [tooMany('RATE_LIMITED', 1), ok])
  const r = await client().quota()
  t.equal(r.attempts, 2)
  t.ok(seen[1].at - seen[0].at >= 1000, 'after ≥ 1 s')
  const long = await scripted(t, [tooMany('RATE_LIMITED', 60), ok])
  const err = await long
    .client({ retry: { maxDelayMs: 5000 } })
    .quota()
    .catch((e) => e)
  t.type(err, RateLimitedError, 'a wait beyond maxDelayMs is thrown at once')
  t.equal(err.retryAfter, 60)
  t.equal(long.seen.length, 1)
})

t.test('429 QUOTA_EXCEEDED: thrown at once by default, typed, with retryAfter and resetAt', async (t) => {
  const { seen, client } = await scripted(t, [tooMany('QUOTA_EXCEEDED', 1), ok])
  const err = await client()
    .analyze({ text: 'x'.repeat(200) })
    .catch((e) => e)
  t.type(err, QuotaExceededError)
  t.equal(err.code, 'QUOTA_EXCEEDED')
  t.equal(err.retryAfter, 1)
  t.same(err.resetAt, new Date(1795392000 * 1000), 'resetAt from X-RateLimit-Reset')
  t.equal(seen.length, 1, 'one request: not retried, not waited for')
  t.equal(seen[0].method, 'POST')
})

t.test('429 QUOTA_EXCEEDED: waited for when the reset is within the caller’s bound', async (t) => {
  const { seen, client } = await scripted(t, [tooMany('QUOTA_EXCEEDED', 1), ok])
  const r = await client({ retry: { maxQuotaWaitSeconds: 2 } }).quota()
  t.equal(r.attempts, 2)
  t.ok(seen[1].at - seen[0].at >= 1000)
  const far = await scripted(t, [tooMany('QUOTA_EXCEEDED', 3), ok])
  const err = await far
    .client({ retry: { maxQuotaWaitSeconds: 2 } })
    .quota()
    .catch((e) => e)
  t.type(err, QuotaExceededError, 'a reset beyond the bound is thrown at once')
  t.equal(far.seen.length, 1)
})

t.test('400 is never retried', async (t) => {
  const { seen, client } = await scripted(t, [json(400, { error: 'Bad Request', code: 'TEXT_TOO_SHORT', message: 'short' }), ok])
  const err = await client()
    .analyze({ text: 'short' })
    .catch((e) => e)
  t.type(err, BadRequestError)
  t.equal(err.code, 'TEXT_TOO_SHORT')
  t.equal(seen.length, 1)
})

t.test('answers outside the contract: a proxy page, a 200 that is not JSON', async (t) => {
  const html: Answer = (_req, res) => {
    res.writeHead(502, { 'content-type': 'text/html' })
    res.end('<html>Bad Gateway</html>')
  }
  const notJson: Answer = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end('{"plan":')
  }
  const a = await scripted(t, [html])
  const e1 = await a
    .client()
    .quota()
    .catch((e) => e)
  t.type(e1, UnexpectedResponseError)
  t.equal(e1.status, 502)
  t.match(e1.bodyText, /Bad Gateway/)
  const b = await scripted(t, [notJson])
  const e2 = await b
    .client()
    .quota()
    .catch((e) => e)
  t.type(e2, UnexpectedResponseError)
  t.equal(e2.status, 200)
})

t.test('timeoutMs bounds the whole call; an AbortSignal ends it, also during a wait', async (t) => {
  const { client } = await scripted(t, [() => {}])
  const started = performance.now()
  const err = await client({ timeoutMs: 300 })
    .quota()
    .catch((e) => e)
  t.type(err, TimeoutError)
  t.equal(err.timeoutMs, 300)
  t.ok(performance.now() - started >= 300)

  // The server asks for 10 s; the caller aborts after 100 ms: the wait ends with the abort.
  const slow = await scripted(t, [overloaded('10'), ok])
  const controller = new AbortController()
  const reason = new Error('caller gave up')
  setTimeout(() => controller.abort(reason), 100)
  const waitStarted = performance.now()
  const aborted = await slow
    .client({ retry: { maxDelayMs: 20_000 } })
    .quota({ signal: controller.signal })
    .catch((e) => e)
  t.equal(aborted, reason, 'rejects with the signal’s reason')
  t.ok(performance.now() - waitStarted < 10_000, 'without waiting out the Retry-After')
  t.equal(slow.seen.length, 1)

  // A wait that would outlast the deadline is not started.
  const late = await scripted(t, [overloaded('5'), ok])
  const lateErr = await late
    .client({ timeoutMs: 2000, retry: { maxDelayMs: 20_000 } })
    .quota()
    .catch((e) => e)
  t.type(lateErr, ServiceUnavailableError, 'the 503 itself, at once')
  t.equal(late.seen.length, 1)
})

t.test('retryDelayMs: exponential backoff with jitter; a server hint is a floor', async (t) => {
  const policy = { ...DEFAULT_RETRY, maxRetries: 10, baseDelayMs: 100, maxDelayMs: 1000 }
  const body = (code: string) => ({ error: 'x', message: 'x', code })
  const info = (retryAfterHeader?: number) => ({ status: 503, rateLimit: undefined, requestId: undefined, retryAfterHeader })
  const network = { kind: 'network' } as const
  t.equal(
    retryDelayMs(network, 0, policy, () => 0),
    50,
  )
  t.equal(
    retryDelayMs(network, 0, policy, () => 1),
    100,
  )
  t.equal(
    retryDelayMs(network, 3, policy, () => 1),
    800,
  )
  t.equal(
    retryDelayMs(network, 6, policy, () => 1),
    1000,
    'capped at maxDelayMs',
  )
  t.equal(retryDelayMs(network, 3, { ...policy, maxRetries: 3 }), undefined, 'no retry beyond maxRetries')
  const hinted = { kind: 'api', error: new Unavailable(body('OVERLOADED'), info(1)) } as const
  t.equal(
    retryDelayMs(hinted, 0, policy, () => 0),
    1000,
    'Retry-After: 1 → at least 1 s',
  )
  t.equal(
    retryDelayMs(hinted, 0, policy, () => 1),
    1050,
    'plus jitter',
  )
  const quota = { kind: 'api', error: new QuotaError({ ...body('QUOTA_EXCEEDED'), retryAfter: 43_200 }, info(43_200), 0) } as const
  t.equal(retryDelayMs(quota, 0, policy), undefined, 'a daily quota is not waited for by default')
  t.equal(retryDelayMs(quota, 0, { ...policy, maxQuotaWaitSeconds: 43_199 }), undefined)
  t.equal(
    retryDelayMs(quota, 0, { ...policy, maxQuotaWaitSeconds: 43_200 }, () => 0),
    43_200_000,
  )
})
