// The refunds the database could not take when they were due (src/domain/refunds.ts): written
// once it answers again. At shutdown they are retried until half the grace period after the
// shutdown began (the process is stopped at its end, and the database must still close), and
// those still unwritten are logged.
import fp from 'fastify-plugin'
import { createRefundQueue, summarizeRefunds, type RefundQueue } from '../../domain/refunds.ts'

declare module 'fastify' {
  interface FastifyInstance {
    refunds: RefundQueue
  }
}

export default fp<{ shutdownGraceMs: number }>(
  async (app, opts) => {
    const refunds = createRefundQueue({
      repos: app.repos,
      onDrop: (r) => app.log.error({ accountId: r.accountId, day: r.day }, 'pending refund dropped'),
      // Account ids and days only: what an operator needs to subtract the counts by hand.
      onLost: (lost) =>
        app.log.error(
          { refundsNotWritten: lost.length, counts: summarizeRefunds(lost) },
          'refunds not written before shutdown: these daily counts are too high by `count`',
        ),
    })
    app.decorate('refunds', refunds)
    let closingAt = 0
    app.addHook('preClose', async () => {
      closingAt = Date.now()
    })
    app.addHook('onClose', async () => {
      await refunds.close((closingAt || Date.now()) + opts.shutdownGraceMs / 2)
    })
  },
  { name: 'refunds', dependencies: ['database'] },
)
