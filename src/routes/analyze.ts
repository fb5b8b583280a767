import type { FastifyReply } from 'fastify'
import type { components } from '../../generated/api-types.ts'
import { analyzeResponseBody } from '../analysis/response-body.ts'
import type { AnalysisService, ClientConnection } from '../analysis/service.ts'
import { ClientClosedError } from '../errors.ts'
import type { JsonText, OperationHandler } from '../openapi.ts'

/**
 * Whether the client of one request has gone. The AbortController is made only when an
 * extraction asks for its signal (a cache hit never does): making one costs more than the rest
 * of a cache hit's own work in this route.
 */
class ClientWatch implements ClientConnection {
  private gone: ClientClosedError | undefined = undefined
  private controller: AbortController | undefined = undefined
  constructor(private readonly reply: FastifyReply) {}
  /** The response's 'close' before its end: the client went away before the answer was written. */
  close(): void {
    if (this.reply.raw.writableFinished || this.gone) return
    this.gone = new ClientClosedError()
    this.controller?.abort(this.gone)
  }
  throwIfGone(): void {
    if (this.gone) throw this.gone
  }
  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController()
      if (this.gone) this.controller.abort(this.gone)
    }
    return this.controller.signal
  }
}

/** POST /v1/analyze: body already authenticated and validated by the route table. */
export function analyzeText({ service }: { service: AnalysisService }): OperationHandler<'analyzeText'> {
  return async (request, reply) => {
    const started = performance.now()
    const body = request.body
    // A client that hangs up before the answer is not charged for it. The response's 'close'
    // (not the request's, which on Node ≥16 fires as soon as the body has been read) tells
    // whether the connection went away before the answer was written.
    const client = new ClientWatch(reply)
    const onClose = () => client.close()
    reply.raw.once('close', onClose)
    if (request.raw.socket?.destroyed) onClose()
    try {
      const outcome = await service.analyze(request.account!, body, client)
      // The entry's model and language: an uncached result from a worker is not parsed to read them.
      const about = outcome.entry ?? outcome.analysis
      const meta = {
        model: about.model,
        language: about.language,
        processingMs: Math.round((performance.now() - started) * 100) / 100,
        cached: outcome.cached,
      }
      // JSON text of the AnalyzeResult schema (test/contract checks it); Fastify sends a string as it is.
      reply.type('application/json; charset=utf-8')
      return analyzeResponseBody(outcome, body, meta) as JsonText<components['schemas']['AnalyzeResult']>
    } finally {
      reply.raw.off('close', onClose)
    }
  }
}
