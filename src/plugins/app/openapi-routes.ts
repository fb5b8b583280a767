// The spec drives the routes (as fastify-openapi-glue does): every operation in openapi.yaml
// becomes a Fastify route, its handler looked up by operationId, its request body checked by
// the generated validator, and its security taken from the spec. An operation without a
// handler fails at start-up instead of silently answering 404.
import fp from 'fastify-plugin'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { ErrorObject, ValidateFunction } from 'ajv'
import spec from '../../../generated/openapi.json' with { type: 'json' }
import { bodyValidators } from '../../../generated/validators.js'
import { BadRequestError } from '../../errors.ts'
import { invalidLanguageHint } from '../../domain/languages.ts'
import type { OperationHandler, OperationHandlers, OperationId, OperationRoute } from '../../openapi.ts'

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const
type Method = (typeof METHODS)[number]

/** What the route table reads of an operation of the spec. */
interface SpecOperation {
  operationId: OperationId
  security?: unknown[]
  requestBody?: unknown
  responses?: Record<string, { content?: Record<string, { schema?: unknown }> }>
}

const PATHS = spec.paths as Record<string, Partial<Record<Method, SpecOperation>>>
const SECURITY: unknown[] = spec.security

/** Each path of the spec as a pattern, with the methods it has (a GET route answers HEAD too). */
const PATH_METHODS = Object.entries(PATHS).map(([path, item]) => {
  const methods = METHODS.filter((m) => item[m]).map((m) => m.toUpperCase())
  if (methods.includes('GET')) methods.splice(methods.indexOf('GET') + 1, 0, 'HEAD')
  const escaped = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
  const pattern = new RegExp('^' + escaped.replace(/\{\w+\}/g, '[^/]+') + '$')
  return { pattern, methods }
})

/**
 * The methods of a path of the spec, or undefined when the spec has no such path: a request for
 * a known path with another method is a 405 with `Allow`, not a 404 (src/plugins/app/errors.ts).
 */
export function allowedMethods(path: string): string[] | undefined {
  return PATH_METHODS.find((p) => p.pattern.test(path))?.methods
}

function codePoints(s: string): number {
  let n = 0
  for (const _ of s) n++
  return n
}

function field(path: string): string {
  return path.replace(/^\//, '').replaceAll('/', '.') || 'body'
}

/** The value at a JSON pointer of the body (AJV's `instancePath`). */
function valueAt(body: unknown, pointer: string): unknown {
  let v = body
  for (const part of pointer.split('/').slice(1))
    v = (v as Record<string, unknown> | undefined)?.[part.replaceAll('~1', '/').replaceAll('~0', '~')]
  return v
}

/** One AJV error → one 400 a person can act on, with a stable code per rule. */
export function validationError(err: ErrorObject, body: unknown): BadRequestError {
  const at = err.instancePath
  const name = field(at)
  if (at === '' && err.keyword === 'type')
    return new BadRequestError('INVALID_BODY', 'The request body must be a JSON object such as {"text": "..."}')
  if (err.keyword === 'required')
    return new BadRequestError('MISSING_FIELD', `"${field(at + '/' + err.params.missingProperty)}" is required`)
  if (err.keyword === 'additionalProperties') {
    const extra = field(at + '/' + err.params.additionalProperty)
    return new BadRequestError('UNKNOWN_FIELD', `Unknown field "${extra}"; see /docs for the request schema`)
  }
  if (at === '/text' && (err.keyword === 'minLength' || err.keyword === 'maxLength')) {
    const n = codePoints((body as { text: string }).text)
    return err.keyword === 'minLength'
      ? new BadRequestError('TEXT_TOO_SHORT', `"text" must have at least 200 characters (Unicode code points); it has ${n}`)
      : new BadRequestError('TEXT_TOO_LONG', `"text" may have at most 30,000 characters (Unicode code points); it has ${n}`)
  }
  if (at === '/options/maxEntitiesPerType') {
    const value = JSON.stringify((body as { options: { maxEntitiesPerType: unknown } }).options.maxEntitiesPerType)
    return new BadRequestError('INVALID_MAX_ENTITIES', `"options.maxEntitiesPerType" must be an integer from 1 to 100; got ${value}`)
  }
  if (at === '/options/languageHint') return invalidLanguageHint((body as { options: { languageHint: unknown } }).options.languageHint)
  if (err.keyword === 'type') return new BadRequestError('INVALID_FIELD_TYPE', `"${name}" must be of type ${err.params.type}`)
  if (err.keyword === 'enum') {
    const allowed = (err.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')
    return new BadRequestError(
      'VALIDATION_ERROR',
      `"${name}" must be one of ${allowed}; got ${JSON.stringify(valueAt(body, at))?.slice(0, 100)}`,
    )
  }
  return new BadRequestError('VALIDATION_ERROR', `"${name}" ${err.message}`)
}

const SCHEMAS = spec.components.schemas as Record<string, unknown>

/** A schema of the spec with its `#/components/schemas/…` references written out in place. */
function inlined(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(inlined)
  if (!schema || typeof schema !== 'object') return schema
  const ref = (schema as { $ref?: unknown }).$ref
  if (typeof ref === 'string') {
    const name = /^#\/components\/schemas\/([^/]+)$/.exec(ref)?.[1]
    if (!name || !(name in SCHEMAS)) throw new Error(`openapi-routes: cannot resolve "${ref}"`)
    return inlined(SCHEMAS[name])
  }
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, inlined(v)]))
}

/** Validators by operationId: looked up for each operation the spec lists. */
const BODY_VALIDATORS: Partial<Record<OperationId, ValidateFunction>> = bodyValidators

interface RouteOptions<Id extends OperationId> {
  method: Method
  path: string
  operation: SpecOperation & { operationId: Id }
  handler: OperationHandler<Id>
  tokenCheck: { deferrable: boolean }
  compiledResponse: boolean
}

/** One operation as a Fastify route, typed by its operationId. */
function addRoute<Id extends OperationId>(
  app: FastifyInstance,
  { method, path, operation: op, handler, tokenCheck, compiledResponse }: RouteOptions<Id>,
): void {
  // Fastify compiles a serializer (fast-json-stringify) from the 200 body's schema, which writes
  // the object's known fields directly instead of walking it as JSON.stringify does.
  const okSchema = compiledResponse ? op.responses?.['200']?.content?.['application/json']?.schema : undefined
  if (compiledResponse && !okSchema)
    throw new Error(`openapi-routes: operation "${op.operationId}" has no application/json 200 schema to compile`)
  const secured = (op.security ?? SECURITY).length > 0
  const validate = BODY_VALIDATORS[op.operationId]
  if (op.requestBody && !validate) throw new Error(`openapi-routes: operation "${op.operationId}" has a body but no generated validator`)
  app.route<OperationRoute<Id>>({
    method: method.toUpperCase(),
    url: path.replace(/\{(\w+)\}/g, ':$1'),
    schema: okSchema ? { response: { 200: inlined(okSchema) } } : undefined,
    // The token, then its burst limit: both before the body is read.
    onRequest: secured
      ? async (request: FastifyRequest) => {
          await app.requireToken(request, tokenCheck)
          app.limitRate(request)
        }
      : undefined,
    preValidation: validate
      ? async (request) => {
          if (!validate(request.body)) throw validationError(validate.errors![0], request.body)
        }
      : undefined,
    handler,
  })
}

export default fp<{
  handlers: OperationHandlers
  /** Operations whose token may be checked by the statement that counts them (src/domain/deferred-token-check.ts). */
  deferTokenCheck?: OperationId[]
  /**
   * Operations whose 200 body is written by a serializer compiled from the spec's schema: for
   * handlers that return a plain object on a hot path. (Fields the schema does not name are
   * left out of the body; the contract tests hold the handlers to the schema anyway.)
   */
  compiledResponses?: OperationId[]
}>(
  async (app, opts) => {
    for (const [path, item] of Object.entries(PATHS)) {
      for (const method of METHODS) {
        const operation = item[method]
        if (!operation) continue
        // The spec is read at run time, so its operationId is any of them: each handler is
        // typed for its own operation where it is written (OperationHandlers).
        const handler = opts.handlers[operation.operationId] as OperationHandler<OperationId> | undefined
        if (!handler)
          throw new Error(`openapi-routes: operation "${operation.operationId}" (${method.toUpperCase()} ${path}) is not implemented`)
        const tokenCheck = { deferrable: opts.deferTokenCheck?.includes(operation.operationId) ?? false }
        const compiledResponse = opts.compiledResponses?.includes(operation.operationId) ?? false
        addRoute(app, { method, path, operation, handler, tokenCheck, compiledResponse })
      }
    }
  },
  { name: 'openapi-routes', dependencies: ['auth', 'rate-limit', 'errors'] },
)
