// The one place where errors become HTTP responses. Domain code throws typed ApiErrors;
// Fastify's own errors (body parsing, limits) are translated to the same documented shape.
// A 5xx never leaks its message: the caller gets a request id, the log gets the details.
import fp from 'fastify-plugin'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { randomUUID } from 'node:crypto'
import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import {
  ApiError,
  BadRequestError,
  ClientClosedError,
  MethodNotAllowedError,
  NotFoundError,
  ServiceUnavailableError,
  type ErrorCode,
} from '../../errors.ts'
import { allowedMethods } from './openapi-routes.ts'
import { isDatabaseDown } from '../../db/errors.ts'
import { mustCheckBeforeAnswering } from '../../domain/deferred-token-check.ts'

export function toApiError(err: FastifyError | Error): ApiError | undefined {
  if (err instanceof ApiError) return err
  const e = err as FastifyError
  switch (e.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new BadRequestError('UNSUPPORTED_MEDIA_TYPE', 'The request body must be sent as Content-Type: application/json')
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new BadRequestError('BODY_TOO_LARGE', 'The request body is larger than 1 MiB; the text may have at most 30,000 characters')
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new BadRequestError('INVALID_JSON', 'The request body is empty; send a JSON object such as {"text": "..."}')
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new BadRequestError('INVALID_BODY', 'The Content-Length header does not match the body')
  }
  // Fastify's JSON parser refuses malformed JSON and prototype poisoning alike with this code; a
  // parser's own SyntaxError is the same fault.
  if (e.statusCode === 400 && (err instanceof SyntaxError || e.code === 'FST_ERR_CTP_INVALID_JSON_BODY')) {
    return new BadRequestError('INVALID_JSON', `The request body is not valid JSON: ${err.message.slice(0, 200)}`)
  }
  if (isDatabaseDown(err)) {
    return new ServiceUnavailableError('DATABASE_UNAVAILABLE', 'The database is not answering; retry in a few seconds', 5)
  }
  if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    return new BadRequestError('BAD_REQUEST', err.message.slice(0, 200))
  }
  return undefined
}

/** No route matched: a path of the spec with another method is a 405 (with `Allow`), any other a 404. */
function noRoute(request: FastifyRequest): ApiError {
  // The path only: a query string could hold anything a caller typed.
  const path = request.url.split('?')[0].slice(0, 200)
  const allowed = allowedMethods(path)
  if (allowed) return new MethodNotAllowedError(request.method, path, allowed)
  return new NotFoundError(`No route ${request.method} ${path}; see /docs for the API`)
}

/** What a request Node's HTTP parser refused gets: status, code and message by parser error. */
function clientErrorResponse(code: string | undefined): { status: number; code: ErrorCode; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, code: 'HEADERS_TOO_LARGE', message: 'The request line and headers are larger than 16 KiB' }
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, code: 'REQUEST_TIMEOUT', message: 'The request was not received in time' }
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return {
        status: 400,
        code: 'MALFORMED_REQUEST',
        message: 'The request has both Content-Length and Transfer-Encoding, or an invalid Transfer-Encoding',
      }
    case 'HPE_INVALID_HEADER_TOKEN':
      return { status: 400, code: 'MALFORMED_REQUEST', message: 'A header name or value has a character HTTP does not allow' }
    case 'HPE_INVALID_METHOD':
    case 'HPE_INVALID_URL':
    case 'HPE_INVALID_VERSION':
    case 'HPE_INVALID_CONSTANT':
      return { status: 400, code: 'MALFORMED_REQUEST', message: 'The request line is not "<method> <path> HTTP/1.1"' }
    default:
      return { status: 400, code: 'MALFORMED_REQUEST', message: 'The request is not valid HTTP/1.1' }
  }
}

/**
 * Fastify's `clientErrorHandler`: a request Node's parser refused (before any route or hook)
 * still gets the documented error shape and a request id. Only the parser's error code is
 * logged: the error also carries the raw bytes, which may hold a token.
 */
export function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return
  const requestId = `req-${randomUUID()}`
  const answer = clientErrorResponse(err.code)
  this.log.info({ reqId: requestId, parserError: err.code, status: answer.status }, 'request refused by the HTTP parser')
  // As Node's own handler: nothing is written into a response already under way on this socket.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent: boolean } })._httpMessage
  if (socket.writable && !inFlight?.headersSent) {
    const body = JSON.stringify({ error: STATUS_CODES[answer.status], message: answer.message, code: answer.code })
    socket.write(
      `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'X-Content-Type-Options: nosniff\r\n' +
        'Connection: close\r\n\r\n' +
        body,
    )
  }
  socket.destroy()
}

export function sendApiError(reply: FastifyReply, err: ApiError): FastifyReply {
  return reply.code(err.statusCode).headers(err.headers).send(err.body())
}

export default fp(
  async (app) => {
    app.setErrorHandler(async (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      if (err instanceof ClientClosedError) {
        // Nobody is listening: no response, no 5xx in the metrics; the request was refunded.
        request.log.info('client closed the connection before the answer')
        reply.hijack()
        reply.raw.destroy()
        return reply
      }
      // A request whose token check was deferred has it checked before any other answer
      // (src/domain/deferred-token-check.ts).
      if (mustCheckBeforeAnswering(request.account, err)) {
        try {
          await app.verifyDeferredToken(request)
        } catch (authErr) {
          err = authErr as FastifyError
        }
      }
      // A request for no route whose body could not be parsed is still a request for no route.
      if (request.is404) return sendApiError(reply, noRoute(request))
      const api = toApiError(err)
      if (api) {
        if (api.statusCode >= 500) request.log.warn({ err, code: api.code }, 'request failed')
        return sendApiError(reply, api)
      }
      request.log.error({ err }, 'unhandled error')
      // Returned: an async error handler that returns nothing would send an empty body.
      return reply.code(500).send({
        error: 'Internal Server Error',
        code: 'INTERNAL_ERROR' satisfies ErrorCode,
        message: `An unexpected error occurred; quote request id ${request.id} when reporting it`,
        requestId: request.id,
      })
    })
    app.setNotFoundHandler((request, reply) => {
      sendApiError(reply, noRoute(request))
    })
  },
  { name: 'errors', dependencies: ['auth'] },
)
