// The contract check: every response the suite receives from a documented route is validated
// against openapi.yaml (status documented, body matches its schema, documented headers present).
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import type { ValidateFunction } from 'ajv'
import spec from '../../generated/openapi.json' with { type: 'json' }
import { schemasAsDefs } from '../../src/openapi.ts'

const ID = 'https://schemas.tea.local/openapi.json'
const ajv = new Ajv2020({ allErrors: true, strict: false })
// Under NodeNext the default import of this CommonJS module is its `module.exports`, whose `default` is the plugin.
addFormats.default(ajv)
ajv.addSchema(schemasAsDefs(spec, ID))
const compiled = new Map<string, ValidateFunction>()

function resolveResponse(ref: any): any {
  if (ref?.$ref) return (spec as any).components.responses[ref.$ref.split('/').pop()]
  return ref
}

function resolveHeader(ref: any): any {
  if (ref?.$ref) return (spec as any).components.headers[ref.$ref.split('/').pop()]
  return ref
}

/** What a route-less request answers: 404 for an unknown path, 405 for a known one with another method. */
const NO_ROUTE: Record<number, unknown> = {
  404: (spec as any).components.responses.NotFound,
  405: (spec as any).components.responses.MethodNotAllowed,
}

function validatorFor(schema: any): ValidateFunction {
  const text = JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${ID}#/$defs/`)
  let v = compiled.get(text)
  if (!v) {
    v = ajv.compile(JSON.parse(text))
    compiled.set(text, v)
  }
  return v
}

export interface ObservedResponse {
  method: string
  /** The matched route pattern (`/v1/analyze`), or undefined when no route matched. */
  route: string | undefined
  url: string
  status: number
  /** As Node and light-my-request hold them. */
  headers: Record<string, string | number | string[] | undefined>
  body: string
}

/** Returns the contract violations of one response (empty when it conforms). */
export function checkContract(r: ObservedResponse): string[] {
  const path = r.url.split('?')[0]
  if (path.startsWith('/docs') || path.startsWith('/dashboard')) return []
  const where = `${r.method} ${path} → ${r.status}`
  // HEAD is GET without a body (RFC 9110 §9.3.2): Fastify answers it on every GET route.
  const head = r.method === 'HEAD'
  const op = r.route ? (spec as any).paths[r.route]?.[head ? 'get' : r.method.toLowerCase()] : undefined
  const response = op ? resolveResponse(op.responses[String(r.status)]) : NO_ROUTE[r.status]
  if (!response) return [`${where}: status not documented`]
  const problems: string[] = []
  for (const [name, ref] of Object.entries(response.headers ?? {})) {
    const header = resolveHeader(ref)
    const value = r.headers[name.toLowerCase()]
    if (value === undefined) {
      if (header.required) problems.push(`${where}: required header ${name} missing`)
    } else if (header.schema?.type === 'integer' && !/^\d+$/.test(String(value))) {
      problems.push(`${where}: header ${name} is not an integer: ${String(value)}`)
    }
  }
  if (head) return problems
  const content = response.content ?? {}
  const type = String(r.headers['content-type'] ?? '').split(';')[0]
  if (content['application/json']) {
    if (type !== 'application/json') return [...problems, `${where}: content-type ${type}, expected application/json`]
    let body: unknown
    try {
      body = JSON.parse(r.body)
    } catch {
      return [...problems, `${where}: body is not JSON`]
    }
    const validate = validatorFor(content['application/json'].schema)
    if (!validate(body)) problems.push(`${where}: ${ajv.errorsText(validate.errors)} in ${r.body.slice(0, 300)}`)
  } else if (content['text/plain'] && type !== 'text/plain') {
    problems.push(`${where}: content-type ${type}, expected text/plain`)
  }
  return problems
}
