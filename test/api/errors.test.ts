import t from 'tap'
import { buildTestApp, englishText } from '../helpers/app.ts'
import { generateToken } from '../../src/domain/token-format.ts'

const UNAUTHORIZED = { error: 'Unauthorized', code: 'INVALID_TOKEN', message: 'Invalid or missing API token' }

t.test('401: every cause gets the same body, WWW-Authenticate, and no rate-limit headers', async (t) => {
  const h = await buildTestApp(t)
  const { token, tokenId } = await h.account('free')
  const revoked = await h.account('free')
  await h.app.inject({ method: 'GET', url: '/v1/quota', headers: { authorization: `Bearer ${revoked.token}` } })
  const { revokeToken } = await import('../../src/domain/tokens.ts')
  await revokeToken({ repos: h.repos, clock: () => new Date(), tokenPrefix: 'tea_live_' }, revoked.tokenId)
  const flipped = token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A')
  const cases: [string, Record<string, string>][] = [
    ['missing header', {}],
    ['no Bearer prefix', { authorization: token }],
    ['other scheme', { authorization: `Basic ${token}` }],
    ['lower-case scheme with nothing', { authorization: 'Bearer ' }],
    ['bad checksum (mistyped)', { authorization: `Bearer ${flipped}` }],
    ['wrong prefix', { authorization: `Bearer ${token.replace('tea_live_', 'tea_test_')}` }],
    ['well-formed but unknown', { authorization: `Bearer ${generateToken('tea_live_')}` }],
    ['revoked', { authorization: `Bearer ${revoked.token}` }],
    ['garbage', { authorization: 'Bearer \u0000\u00ff' }],
  ]
  for (const [name, headers] of cases) {
    for (const [method, url] of [
      ['GET', '/v1/quota'],
      ['POST', '/v1/analyze'],
    ] as const) {
      const res = await h.app.inject({ method, url, headers, payload: method === 'POST' ? { text: englishText() } : undefined })
      t.equal(res.statusCode, 401, `${name}: ${method} ${url}`)
      t.same(res.json(), UNAUTHORIZED)
      t.equal(res.headers['www-authenticate'], 'Bearer')
      t.notOk(res.headers['x-ratelimit-limit'], 'a 401 has no account, so no rate-limit headers')
    }
  }
  t.ok(tokenId)
})

t.test('401 comes before 400: a bad token with a bad body is a 401', async (t) => {
  const h = await buildTestApp(t)
  const res = await h.app.inject({
    method: 'POST',
    url: '/v1/analyze',
    headers: { 'content-type': 'application/json' },
    payload: '{not json',
  })
  t.equal(res.statusCode, 401)
})

t.test('400: every invalid input has its own code, a clear message, rate-limit headers, and is not counted', async (t) => {
  const h = await buildTestApp(t)
  const { token } = await h.account('free')
  const auth = { authorization: `Bearer ${token}` }
  const text = englishText()
  const cases: { name: string; payload?: string; type?: string; code: string; message?: RegExp }[] = [
    { name: 'malformed JSON', payload: '{"text": "abc', code: 'INVALID_JSON', message: /not valid JSON/ },
    { name: 'empty JSON body', payload: '', code: 'INVALID_JSON' },
    { name: 'prototype poisoning', payload: `{"text": ${JSON.stringify(text)}, "__proto__": {"x": 1}}`, code: 'INVALID_JSON' },
    {
      name: 'wrong content type',
      payload: JSON.stringify({ text }),
      type: 'text/plain',
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: /application\/json/,
    },
    { name: 'form content type', payload: 'text=abc', type: 'application/x-www-form-urlencoded', code: 'UNSUPPORTED_MEDIA_TYPE' },
    { name: 'array body', payload: '[]', code: 'INVALID_BODY' },
    { name: 'string body', payload: '"hello"', code: 'INVALID_BODY' },
    { name: 'null body', payload: 'null', code: 'INVALID_BODY' },
    { name: 'missing text', payload: '{}', code: 'MISSING_FIELD', message: /"text" is required/ },
    { name: 'unknown field', payload: JSON.stringify({ text, mode: 'fast' }), code: 'UNKNOWN_FIELD', message: /"mode"/ },
    {
      name: 'unknown option',
      payload: JSON.stringify({ text, options: { verbose: true } }),
      code: 'UNKNOWN_FIELD',
      message: /"options\.verbose"/,
    },
    {
      name: 'text not a string',
      payload: JSON.stringify({ text: 42 }),
      code: 'INVALID_FIELD_TYPE',
      message: /"text" must be of type string/,
    },
    { name: 'options not an object', payload: JSON.stringify({ text, options: [] }), code: 'INVALID_FIELD_TYPE' },
    {
      name: 'includeEvidence not boolean',
      payload: JSON.stringify({ text, options: { includeEvidence: 'yes' } }),
      code: 'INVALID_FIELD_TYPE',
    },
    { name: '199 characters', payload: JSON.stringify({ text: 'a'.repeat(199) }), code: 'TEXT_TOO_SHORT', message: /it has 199$/ },
    {
      name: '30,001 characters',
      payload: JSON.stringify({ text: 'a '.repeat(15000) + 'b' }),
      code: 'TEXT_TOO_LONG',
      message: /it has 30001$/,
    },
    // 100 astral characters are 200 UTF-16 units but only 100 code points.
    {
      name: '100 emoji (200 UTF-16 units)',
      payload: JSON.stringify({ text: '😀'.repeat(100) }),
      code: 'TEXT_TOO_SHORT',
      message: /it has 100$/,
    },
    {
      name: 'maxEntitiesPerType 0',
      payload: JSON.stringify({ text, options: { maxEntitiesPerType: 0 } }),
      code: 'INVALID_MAX_ENTITIES',
      message: /got 0/,
    },
    {
      name: 'maxEntitiesPerType 101',
      payload: JSON.stringify({ text, options: { maxEntitiesPerType: 101 } }),
      code: 'INVALID_MAX_ENTITIES',
      message: /from 1 to 100; got 101/,
    },
    {
      name: 'maxEntitiesPerType 2.5',
      payload: JSON.stringify({ text, options: { maxEntitiesPerType: 2.5 } }),
      code: 'INVALID_MAX_ENTITIES',
    },
    {
      name: 'maxEntitiesPerType "5"',
      payload: JSON.stringify({ text, options: { maxEntitiesPerType: '5' } }),
      code: 'INVALID_MAX_ENTITIES',
    },
    {
      name: 'languageHint not ISO 639-1',
      payload: JSON.stringify({ text, options: { languageHint: 'english' } }),
      code: 'INVALID_LANGUAGE_HINT',
      message: /got "english"/,
    },
    { name: 'languageHint upper case', payload: JSON.stringify({ text, options: { languageHint: 'EN' } }), code: 'INVALID_LANGUAGE_HINT' },
    {
      name: 'languageHint three letters',
      payload: JSON.stringify({ text, options: { languageHint: 'eng' } }),
      code: 'INVALID_LANGUAGE_HINT',
    },
    // Two lower-case letters pass the spec's pattern; the ISO 639-1 list is the server's.
    {
      name: 'languageHint two letters, not ISO 639-1',
      payload: JSON.stringify({ text, options: { languageHint: 'xx' } }),
      code: 'INVALID_LANGUAGE_HINT',
      message: /got "xx"/,
    },
    { name: 'languageHint a number', payload: JSON.stringify({ text, options: { languageHint: 7 } }), code: 'INVALID_LANGUAGE_HINT' },
    { name: 'body over 1 MiB', payload: JSON.stringify({ text: 'x'.repeat(1024 * 1024) }), code: 'BODY_TOO_LARGE' },
  ]
  for (const c of cases) {
    const res = await h.app.inject({
      method: 'POST',
      url: '/v1/analyze',
      headers: { ...auth, 'content-type': c.type ?? 'application/json' },
      payload: c.payload,
    })
    t.equal(res.statusCode, 400, `${c.name}: 400`)
    const body = res.json()
    t.same(Object.keys(body).sort(), ['code', 'error', 'message'], `${c.name}: error shape`)
    t.equal(body.code, c.code, `${c.name}: ${c.code}`)
    t.equal(body.error, 'Bad Request')
    if (c.message) t.match(body.message, c.message, `${c.name}: message`)
    t.equal(res.headers['x-ratelimit-limit'], '100', `${c.name}: rate-limit headers on a 400`)
    t.equal(res.headers['x-ratelimit-remaining'], '100', `${c.name}: not counted`)
  }
  const ok = await h.app.inject({ method: 'POST', url: '/v1/analyze', headers: auth, payload: { text: '😀'.repeat(197) + 'abc' } })
  t.equal(ok.statusCode, 200, '197 astral characters and 3 letters are 200 code points: accepted')
  const quota = (await h.app.inject({ url: '/v1/quota', headers: auth })).json()
  t.equal(quota.daily.used, 1, 'only the valid request counted')
})

t.test('404 for unknown paths, 405 with Allow for a known path with another method, in the error shape', async (t) => {
  const h = await buildTestApp(t)
  for (const [method, url] of [
    ['GET', '/v1/nothing'],
    ['POST', '/v1/analyze/'],
    ['GET', '/v2/quota?token=secret'],
  ] as const) {
    const res = await h.app.inject({ method, url })
    t.equal(res.statusCode, 404, `${method} ${url}`)
    t.equal(res.json().code, 'NOT_FOUND')
    t.equal(res.json().error, 'Not Found')
    t.notMatch(res.body, /secret/, 'the query string is not echoed')
  }
  const { token } = await h.account('free')
  for (const [method, url, allow] of [
    ['GET', '/v1/analyze', 'POST'],
    ['PUT', '/v1/analyze?token=secret', 'POST'],
    ['HEAD', '/v1/analyze', 'POST'],
    ['TRACE', '/v1/analyze', 'POST'],
    ['DELETE', '/v1/quota', 'GET, HEAD'],
    ['POST', '/v1/quota', 'GET, HEAD'],
    ['PROPFIND', '/v1/quota', 'GET, HEAD'],
    ['POST', '/healthz', 'GET, HEAD'],
  ] as const) {
    // With a token and a malformed body too: the route does not exist, so neither is looked at.
    const res = await h.app.inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: '{',
    })
    t.equal(res.statusCode, 405, `${method} ${url}`)
    t.equal(res.headers.allow, allow, `${method} ${url}: Allow`)
    if (method !== 'HEAD') {
      t.same(res.json(), {
        error: 'Method Not Allowed',
        code: 'METHOD_NOT_ALLOWED',
        message: `${method} is not a method of ${url.split('?')[0]}; it allows ${allow}`,
      })
    }
    t.equal(res.headers['x-ratelimit-limit'], undefined, 'no token is checked for a method the path does not have')
  }
})

t.test('CORS: none; a browser preflight is refused with 405 and a reason, and no Access-Control header is ever sent', async (t) => {
  const h = await buildTestApp(t)
  const { token } = await h.account('free')
  const preflight = await h.app.inject({
    method: 'OPTIONS',
    url: '/v1/analyze',
    headers: {
      origin: 'https://shop.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    },
  })
  t.equal(preflight.statusCode, 405, 'not a 2xx: the browser stops before sending the token')
  t.equal(preflight.headers.allow, 'POST')
  t.equal(preflight.json().code, 'METHOD_NOT_ALLOWED')
  t.match(preflight.json().message, /no CORS headers: call it from a server/)
  const cross = await h.app.inject({
    method: 'GET',
    url: '/v1/quota',
    headers: { origin: 'https://shop.example', authorization: `Bearer ${token}` },
  })
  t.equal(cross.statusCode, 200)
  for (const res of [preflight, cross]) {
    t.same(
      Object.keys(res.headers).filter((name) => name.startsWith('access-control-')),
      [],
      'no Access-Control-* header',
    )
  }
})

t.test('X-Request-Id: a sane caller id is kept, anything else replaced', async (t) => {
  const h = await buildTestApp(t)
  const kept = await h.app.inject({ url: '/healthz', headers: { 'x-request-id': 'abc-123' } })
  t.equal(kept.headers['x-request-id'], 'abc-123')
  const replaced = await h.app.inject({ url: '/healthz', headers: { 'x-request-id': 'a b<script>' } })
  t.match(replaced.headers['x-request-id'], /^req-[0-9a-f-]{36}$/)
})
