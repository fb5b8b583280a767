import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { operations } from '../../generated/api-types.ts'
import { analyzeResponseBody } from '../analysis/response-body.ts'
import { analyzeForAccount } from '../analysis/service.ts'
import { ClientClosedError } from '../errors.ts'

type AnalyzeBody = operations['analyzeText']['requestBody']['content']['application/json']

/** POST /v1/analyze: body already authenticated and validated by the route table. */
export function analyzeText(app: FastifyInstance) {
  return async (request: FastifyRequest, reply: FastifyReply): Promise<string> => {
    const started = performance.now()
    const body = request.body as AnalyzeBody
    // A client that hangs up before the answer is not charged for it. The response's 'close'
    // (not the request's, which on Node ≥16 fires as soon as the body has been read) tells
    // whether the connection went away before the answer was written.
    const gone = new AbortController()
    const onClose = () => {
      if (!reply.raw.writableFinished) gone.abort(new ClientClosedError())
    }
    reply.raw.once('close', onClose)
    if (request.raw.socket?.destroyed) onClose()
    try {
      const { analysis, cached, entry } = await analyzeForAccount(app.ctx, request.account!, body, gone.signal)
      const meta = { model: analysis.model, language: analysis.language, processingMs: Math.round((performance.now() - started) * 100) / 100, cached }
      // JSON text of the AnalyzeResult schema; Fastify sends a string as it is.
      reply.type('application/json; charset=utf-8')
      return analyzeResponseBody(analysis, body.options, meta, entry)
    } finally {
      reply.raw.off('close', onClose)
    }
  }
}
