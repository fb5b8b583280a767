// Every error response of openapi.yaml lists, as an enum, exactly the codes the server can send
// there: the ones of src/errors.ts's ERROR_CODES, the only codes an ApiError can carry.
import t from 'tap'
import spec from '../../generated/openapi.json' with { type: 'json' }
import { ERROR_CODES, type ErrorCode } from '../../src/errors.ts'

const doc = spec as any

function deref(section: 'responses' | 'schemas', node: any): any {
  return node?.$ref ? doc.components[section][node.$ref.split('/').pop()] : node
}

/** The `code` enum of an error response of the spec. */
function codesOf(response: any): string[] {
  const schema = deref('schemas', deref('responses', response).content['application/json'].schema)
  return [...deref('schemas', schema.properties.code).enum].sort()
}

function isErrorBody(response: any): boolean {
  const schema = deref('schemas', deref('responses', response).content?.['application/json']?.schema)
  return schema?.properties?.code !== undefined
}

const catalogue = Object.entries(ERROR_CODES) as [ErrorCode, { status: number; operations: readonly string[] }][]

function expected(status: number, operationId?: string): string[] {
  return catalogue
    .filter(([, c]) => c.status === status && (operationId ? c.operations.includes(operationId) : c.operations.length === 0))
    .map(([code]) => code)
    .sort()
}

const operations = Object.values(doc.paths as Record<string, Record<string, any>>).flatMap((item) => Object.values(item))

t.test('each error response of each operation lists exactly the codes the server can send there', async (t) => {
  for (const op of operations) {
    // Error bodies only (/readyz's 503 is its readiness report, not an error).
    const documented = Object.keys(op.responses).filter((s) => Number(s) >= 400 && isErrorBody(op.responses[s]))
    for (const status of documented) {
      t.same(codesOf(op.responses[status]), expected(Number(status), op.operationId), `${op.operationId} ${status}`)
    }
    // And no status of the catalogue is left undocumented on an operation that can send it.
    const sent = new Set(catalogue.filter(([, c]) => c.operations.includes(op.operationId)).map(([, c]) => String(c.status)))
    t.same(
      [...sent].filter((s) => !documented.includes(s)),
      [],
      `${op.operationId}: every status it can answer is documented`,
    )
  }
})

t.test('the answers of no operation: 404 for an unknown path, 405 for a known one with another method', async (t) => {
  t.same(codesOf(doc.components.responses.NotFound), ['NOT_FOUND'])
  t.same(codesOf(doc.components.responses.MethodNotAllowed), ['METHOD_NOT_ALLOWED'])
  t.same(expected(404), ['NOT_FOUND'])
  t.same(expected(405), ['METHOD_NOT_ALLOWED'])
  t.ok(doc.components.responses.MethodNotAllowed.headers.Allow, '405 declares Allow')
})

t.test('every code the spec names is one the server has; the one never sent is documented nowhere', async (t) => {
  const inSpec = new Set<string>()
  for (const schema of Object.values(doc.components.schemas as Record<string, any>)) {
    const code = deref('schemas', schema.properties?.code)
    for (const c of code?.enum ?? []) inSpec.add(c)
  }
  t.same(
    [...inSpec].filter((c) => !(c in ERROR_CODES)),
    [],
    'no code only in the spec',
  )
  t.same(
    catalogue.filter(([code]) => !inSpec.has(code)).map(([code]) => code),
    ['CLIENT_CLOSED_REQUEST'],
    'only the code of a client that hung up (no answer is sent) is undocumented',
  )
})

t.test('5xx answers declare the rate-limit headers they carry after a token check', async (t) => {
  for (const op of operations) {
    for (const status of ['500', '503']) {
      const response = op.responses[status] && deref('responses', op.responses[status])
      if (!response || op.security?.length === 0) continue
      for (const h of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'])
        t.ok(response.headers?.[h], `${op.operationId} ${status} declares ${h}`)
    }
  }
})
