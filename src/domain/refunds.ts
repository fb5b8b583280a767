// Refunds that could not be written because the database was down. A request that was counted
// and then failed must not stay counted: its refund is kept here and written once the database
// answers again (every second, oldest first), so an outage never over-counts a quota.
import type { Repositories } from '../db/repositories/index.ts'
import type { Reservation } from './quota.ts'

/** Refunds kept in memory at most; past that the oldest are dropped (and logged). */
const MAX_PENDING = 100_000

export interface RefundQueue {
  defer(reservation: Reservation): void
  /** Writes every pending refund it can; stops at the first failure. Returns how many remain. */
  flush(): Promise<number>
  pending(): number
  /**
   * At shutdown: retries until every refund is written or `deadline` (epoch ms) has passed,
   * then hands the refunds it could not write to `onLost`. Resolves with how many those were.
   */
  close(deadline?: number): Promise<number>
}

/** The refunds not written, per account and day: what an operator subtracts by hand. */
export function summarizeRefunds(refunds: readonly Reservation[]): { accountId: string; day: string; count: number }[] {
  const byKey = new Map<string, { accountId: string; day: string; count: number }>()
  for (const r of refunds) {
    const key = `${r.accountId}\u0000${r.day}`
    const entry = byKey.get(key) ?? { accountId: r.accountId, day: r.day, count: 0 }
    entry.count++
    byKey.set(key, entry)
  }
  return [...byKey.values()]
}

export function createRefundQueue(deps: {
  repos: Pick<Repositories, 'usage'>
  onDrop?: (r: Reservation) => void
  /** The refunds still unwritten when close() gave up. */
  onLost?: (refunds: Reservation[]) => void
  intervalMs?: number
}): RefundQueue {
  const queue: Reservation[] = []
  let flushing: Promise<number> | undefined
  let timer: NodeJS.Timeout | undefined

  const schedule = () => {
    if (timer || queue.length === 0) return
    timer = setTimeout(() => {
      timer = undefined
      // drain() never rejects: a refund that fails stays queued for the next round.
      void flush().finally(schedule)
    }, deps.intervalMs ?? 1000)
    timer.unref()
  }

  async function drain(): Promise<number> {
    while (queue.length > 0) {
      try {
        await deps.repos.usage.refund(queue[0].accountId, queue[0].day)
      } catch {
        break
      }
      queue.shift()
    }
    return queue.length
  }

  function flush(): Promise<number> {
    flushing ??= drain().finally(() => {
      flushing = undefined
    })
    return flushing
  }

  return {
    defer(r) {
      queue.push(r)
      while (queue.length > MAX_PENDING) deps.onDrop?.(queue.shift()!)
      schedule()
    },
    flush,
    pending: () => queue.length,
    async close(deadline = 0) {
      if (timer) clearTimeout(timer)
      timer = undefined
      const retryMs = Math.min(deps.intervalMs ?? 1000, 250)
      while ((await flush()) > 0 && Date.now() + retryMs < deadline) {
        await new Promise((r) => setTimeout(r, retryMs))
      }
      const lost = queue.splice(0)
      if (lost.length > 0) deps.onLost?.(lost)
      return lost.length
    },
  }
}
