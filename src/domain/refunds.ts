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
  close(): Promise<void>
}

export function createRefundQueue(deps: { repos: Repositories; onDrop?: (r: Reservation) => void; intervalMs?: number }): RefundQueue {
  const queue: Reservation[] = []
  let flushing: Promise<number> | undefined
  let timer: NodeJS.Timeout | undefined

  const schedule = () => {
    if (timer || queue.length === 0) return
    timer = setTimeout(() => {
      timer = undefined
      flush().finally(schedule)
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
    async close() {
      if (timer) clearTimeout(timer)
      timer = undefined
      await flush()
    },
  }
}
