// The spec drives the routes (as fastify-openapi-glue does): every operation in openapi.yaml
// becomes a Fastify route, its handler looked up by operationId, its request body checked by
// the generated validator, and its security taken from the spec. An operation without a
// handler fails at start-up instead of silently answering 404.
import fp from 'fastify-plugin'
import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify'
import type { ErrorObject, ValidateFunction } from 'ajv'
import spec from '../../../generated/openapi.json' with { type: 'json' }
import * as validators from '../../../generated/validators.js'
import { BadRequestError } from '../../errors.ts'

export type OperationHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>

/** operationId → validator of its JSON request body (named after the body's schema). */
const BODY_VALIDATORS: Record<string, ValidateFunction> = {
  analyzeText: validators.validateAnalyzeRequest as ValidateFunction,
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

function codePoints(s: string): number {
  let n = 0
  for (const _ of s) n++
  return n
}

function field(path: string): string {
  return path.replace(/^\//, '').replaceAll('/', '.') || 'body'
}

/** One AJV error → one 400 a person can act on, with a stable code per rule. */
export function validationError(err: ErrorObject, body: unknown): BadRequestError {
  const at = err.instancePath
  const name = field(at)
  if (at === '' && err.keyword === 'type') return new BadRequestError('INVALID_BODY', 'The request body must be a JSON object such as {"text": "..."}')
  if (err.keyword === 'required') return new BadRequestError('MISSING_FIELD', `"${field(at + '/' + err.params.missingProperty)}" is required`)
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
  if (at === '/options/languageHint') {
    const value = JSON.stringify((body as { options: { languageHint: unknown } }).options.languageHint)?.slice(0, 40)
    return new BadRequestError('INVALID_LANGUAGE_HINT', `"options.languageHint" must be a lower-case ISO 639-1 code such as "en"; got ${value}`)
  }
  if (err.keyword === 'type') return new BadRequestError('INVALID_FIELD_TYPE', `"${name}" must be of type ${err.params.type}`)
  return new BadRequestError('VALIDATION_ERROR', `"${name}" ${err.message}`)
}

export default fp<{
  handlers: Record<string, OperationHandler>
  /** Operations whose token may be checked together with their quota reservation (auth plugin). */
  deferTokenCheck?: string[]
}>(
  async (app, opts) => {
    for (const [path, item] of Object.entries(spec.paths as Record<string, Record<string, any>>)) {
      for (const method of METHODS) {
        const op = item[method]
        if (!op) continue
        const handler = opts.handlers[op.operationId]
        if (!handler) throw new Error(`openapi-routes: operation "${op.operationId}" (${method.toUpperCase()} ${path}) is not implemented`)
        const secured = (op.security ?? spec.security ?? []).length > 0
        const tokenCheck = { deferrable: opts.deferTokenCheck?.includes(op.operationId) ?? false }
        const validate = BODY_VALIDATORS[op.operationId]
        if (op.requestBody && !validate) throw new Error(`openapi-routes: operation "${op.operationId}" has a body but no generated validator`)
        app.route({
          method: method.toUpperCase() as 'GET',
          url: path.replace(/\{(\w+)\}/g, ':$1'),
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
          handler: handler as RouteHandlerMethod,
        })
      }
    }
  },
  { name: 'openapi-routes', dependencies: ['auth', 'rate-limit', 'errors'] },
)
