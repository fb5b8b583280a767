// Property-based tests of the HTTP surface (fast-check): whatever arrives, the service never
// answers 5xx, every answer matches openapi.yaml, and only a 200 is ever counted.
// Runs are bounded and the seed fixed (FUZZ_SEED=n to explore others; a failure prints its seed).
import t, { type Test } from 'tap'
import fc from 'fast-check'
import { buildTestApp, englishText, manualClock } from '../helpers/app.ts'
import { checkContract } from '../helpers/contract.ts'
import { ENCODINGS, sliceIn } from '../helpers/unicode.ts'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'

const seed = Number(process.env.FUZZ_SEED ?? 20261122)
// A fixed noon, so that every count lands on one UTC day whenever the test runs.
const today = () => '2026-11-22'

async function fuzzApp(t: Test) {
  const h = await buildTestApp(t, { clock: manualClock() })
  const { account, token } = await h.account('business')
  let served = 0
  /** Sends one request and checks the properties that hold for every answer. */
  const send = async (opts: InjectOptions & { url: string }): Promise<LightMyRequestResponse> => {
    const res = await h.app.inject(opts)
    if (res.statusCode >= 500) throw new Error(`${res.statusCode} for ${String(opts.method)} ${opts.url}: ${res.body.slice(0, 300)}`)
    // A HEAD answer has the headers of the GET and no body: check the GET's body instead.
    if (String(opts.method).toUpperCase() === 'HEAD') return send({ ...opts, method: 'GET' }).then(() => res)
    const violations = checkContract({
      method: String(opts.method ?? 'GET').toUpperCase(),
      route: routeOf(String(opts.method ?? 'GET'), opts.url),
      url: opts.url,
      status: res.statusCode,
      headers: res.headers,
      body: res.body,
    })
    if (violations.length) throw new Error(violations.join('; '))
    if (res.statusCode === 200 && opts.url.split('?')[0] === '/v1/analyze') served++
    const used = await h.repos.usage.usedOn(account.id, today())
    if (used !== served) throw new Error(`counted ${used} but served ${served} analyses`)
    return res
  }
  return { h, token, send, served: () => served }
}

/** The route pattern a path resolves to, for the contract check (only documented paths). */
function routeOf(method: string, url: string): string | undefined {
  const path = url.split('?')[0]
  const documented: Record<string, string> = {
    '/v1/analyze': 'POST',
    '/v1/quota': 'GET',
    '/healthz': 'GET',
    '/readyz': 'GET',
    '/metrics': 'GET',
  }
  return documented[path] === method.toUpperCase() ? path : undefined
}

const padTo = (s: string, min: number) => {
  if (s.length === 0) s = 'x'
  let out = s
  while ([...out].length < min) out += s
  return out
}

// Characters that break naive text handling.
const hostile = fc.oneof(
  fc.constantFrom(
    '\u0000',
    '\u200f',
    '\u202e',
    '\u0301',
    '\u0308',
    '\ufeff',
    '\u2028',
    '\u00a0',
    'ﷺ',
    '\u0627\u0644\u0639\u0631\u0628\u064a\u0629',
    'עברית',
    '👩‍👩‍👧',
    '🇫🇷',
    '𝕏',
    'e\u0301\u0302\u0303',
  ),
  fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), // lone surrogates
  fc.integer({ min: 0x10000, max: 0x10ffff }).map((c) => String.fromCodePoint(c)), // astral
  fc.integer({ min: 0x0300, max: 0x036f }).map((c) => String.fromCharCode(c)), // combining marks
  fc.string({ unit: 'binary', maxLength: 8 }),
  fc.constantFrom('Tim Cook ', 'Apple ', 'Berlin. ', 'acquired ', ' works for '),
)
const textOf = (length: fc.Arbitrary<number>) =>
  fc
    .tuple(fc.array(hostile, { minLength: 1, maxLength: 40 }), length)
    .map(([parts, n]) => [...padTo(parts.join(''), n)].slice(0, n).join(''))
// Mostly short texts (fast), some up to and past the 30,000 code point limit.
const hostileText = textOf(
  fc.oneof(
    { weight: 10, arbitrary: fc.integer({ min: 150, max: 2500 }) },
    { weight: 1, arbitrary: fc.integer({ min: 2500, max: 30_050 }) },
    { weight: 1, arbitrary: fc.integer({ min: 29_990, max: 30_010 }) },
  ),
)

t.test('random Unicode texts: a 200 (counted) or a documented 400 (not), never a 5xx', async (t) => {
  const { send, token } = await fuzzApp(t)
  await fc.assert(
    fc.asyncProperty(
      hostileText,
      fc.option(fc.constantFrom('en', 'de', 'xx', 'zz'), { nil: undefined }),
      fc.option(fc.constantFrom(...ENCODINGS), { nil: undefined }),
      async (text, languageHint, offsetEncoding) => {
        // With an encoding, the mentions are asked for too.
        const options = { ...(languageHint ? { languageHint } : {}), ...(offsetEncoding ? { include: ['mentions'], offsetEncoding } : {}) }
        const res = await send({
          method: 'POST',
          url: '/v1/analyze',
          headers: { authorization: `Bearer ${token}` },
          payload: { text, ...(Object.keys(options).length ? { options } : {}) },
        })
        const n = [...text].length
        if (n < 200 || n > 30_000) {
          if (res.statusCode !== 400) throw new Error(`${n} code points answered ${res.statusCode}`)
        } else if (res.statusCode !== 200 && res.statusCode !== 400) {
          throw new Error(`unexpected ${res.statusCode}`)
        } else if (res.statusCode === 200 && offsetEncoding) {
          for (const e of res.json().entityDetails) {
            for (const m of e.mentions)
              if (sliceIn(text, offsetEncoding, m.start, m.end) !== m.text)
                throw new Error(`${offsetEncoding} offsets of ${JSON.stringify(m)}`)
          }
        }
      },
    ),
    { numRuns: 60, seed },
  )
  t.pass('60 texts')
})

t.test('random JSON bodies and content types', async (t) => {
  const { send, token } = await fuzzApp(t)
  const option = fc.oneof(fc.jsonValue(), fc.integer(), fc.constantFrom('en', 'EN', 'english', ''), fc.boolean())
  const body = fc.oneof(
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc
      .record(
        {
          text: fc.oneof(fc.jsonValue(), fc.constant(englishText(1)), textOf(fc.integer({ min: 0, max: 400 }))),
          options: fc.oneof(
            fc.jsonValue(),
            fc.record(
              {
                languageHint: option,
                maxEntitiesPerType: option,
                includeEvidence: option,
                include: fc.oneof(option, fc.constant(['mentions'])),
                offsetEncoding: fc.oneof(option, fc.constantFrom(...ENCODINGS)),
              },
              { requiredKeys: [] },
            ),
          ),
          extra: fc.jsonValue(),
        },
        { requiredKeys: [] },
      )
      .map((v) => JSON.stringify(v)),
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc.constantFrom(
      '',
      '{',
      '{"text":',
      'null',
      '[]',
      '"text"',
      '{"__proto__":{"x":1},"text":"a"}',
      '{"constructor":{"prototype":{}}}',
      '\u0000',
    ),
  )
  const contentType = fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/octet-stream',
    'APPLICATION/JSON',
    undefined,
  )
  await fc.assert(
    fc.asyncProperty(body, contentType, async (payload, type) => {
      const res = await send({
        method: 'POST',
        url: '/v1/analyze',
        headers: { authorization: `Bearer ${token}`, ...(type ? { 'content-type': type } : {}) },
        payload,
      })
      if (![200, 400].includes(res.statusCode)) throw new Error(`unexpected ${res.statusCode}: ${res.body.slice(0, 200)}`)
    }),
    { numRuns: 300, seed },
  )
  t.pass('300 bodies')
})

t.test('huge and deeply nested bodies', async (t) => {
  const { send, token } = await fuzzApp(t)
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 200_000 }), fc.constantFrom('[', '{"a":'), async (depth, open) => {
      const close = open === '[' ? ']' : '}'
      const nested = open.repeat(depth) + '1' + close.repeat(depth)
      const res = await send({
        method: 'POST',
        url: '/v1/analyze',
        headers,
        payload: `{"text":${JSON.stringify(englishText(2))},"options":${nested}}`,
      })
      if (res.statusCode !== 400) throw new Error(`depth ${depth}: ${res.statusCode}`)
    }),
    { numRuns: 30, seed },
  )
  for (const size of [1024 * 1024 + 1, 5 * 1024 * 1024]) {
    const res = await send({ method: 'POST', url: '/v1/analyze', headers, payload: `{"text":"${'a'.repeat(size)}"}` })
    t.equal(res.statusCode, 400, `${size} bytes`)
    t.equal(res.json().code, 'BODY_TOO_LARGE')
  }
  // 30,000 astral characters written as \u escapes: the largest valid body; it is served.
  const astral = '\\ud835\\udd4f'.repeat(30_001)
  const big = await send({ method: 'POST', url: '/v1/analyze', headers, payload: `{"text":"${astral}"}` })
  t.equal(big.statusCode, 400, 'over 30,000 code points is a 400')
  const fits = await send({
    method: 'POST',
    url: '/v1/analyze',
    headers,
    payload: `{"text":"${'\\ud835\\udd4f'.repeat(29_000)} Tim Cook works for Apple in Berlin."}`,
  })
  t.equal(fits.statusCode, 200, 'a 1 MiB-class body of escaped astral characters within the limit is served')
})

t.test('random headers, tokens, methods and paths', async (t) => {
  const { send, token } = await fuzzApp(t)
  const headerValue = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 120 })
  const authorization = fc.oneof(
    headerValue,
    headerValue.map((s) => `Bearer ${s}`),
    fc.constantFrom(
      `Bearer ${token}`,
      `bearer ${token}`,
      `Bearer  ${token}`,
      `Bearer ${token} `,
      `Bearer ${token.slice(0, -1)}`,
      `Bearer ${token}x`,
      `Basic ${token}`,
      'Bearer tea_live_',
      'Bearer ',
    ),
    fc.stringMatching(/^tea_live_[A-Za-z0-9]{0,60}$/).map((s) => `Bearer ${s}`),
    fc.constant(undefined),
  )
  const path = fc.oneof(
    fc.constantFrom(
      '/v1/analyze',
      '/v1/quota',
      '/healthz',
      '/readyz',
      '/v1/',
      '/v1/analyze/',
      '/V1/QUOTA',
      '/v1/quota?x=1',
      '/v1/analyze?text=1',
      '/%00',
      '/..%2f..%2fetc/passwd',
      '//v1/quota',
    ),
    fc.webPath().map((p) => p || '/'),
  )
  const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD')
  const extra = fc.dictionary(fc.stringMatching(/^x-[a-z-]{1,20}$/), headerValue, { maxKeys: 4 })
  await fc.assert(
    fc.asyncProperty(method, path, authorization, headerValue, extra, async (m, p, auth, requestId, more) => {
      const res = await send({
        method: m,
        url: p,
        headers: {
          ...more,
          ...(auth === undefined ? {} : { authorization: auth }),
          'x-request-id': requestId,
          'content-type': 'application/json',
        },
        ...(m === 'POST' || m === 'PUT' || m === 'PATCH' ? { payload: JSON.stringify({ text: englishText(3) }) } : {}),
      })
      const rid = res.headers['x-request-id']
      if (typeof rid !== 'string' || !/^[A-Za-z0-9._:-]{1,64}$/.test(rid)) throw new Error(`request id ${String(rid)}`)
    }),
    { numRuns: 400, seed, includeErrorInReport: true },
  )
  t.pass('400 requests')
})
