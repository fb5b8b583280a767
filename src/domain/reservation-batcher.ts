// Quota reservations of one account, coalesced per node. Every request is counted by one
// atomic statement on the account's row for the day; under load on one account that row is a
// hot spot (each statement waits for the previous one's commit). While a statement for an
// account is in flight, the requests that arrive for it wait, and are then counted together by
// one all-or-nothing statement (used + k ≤ limit). When not all of them fit, they are counted one
// by one, exactly as without batching: N requests against R remaining still succeed exactly
// min(N, R) times, on one node or many. A lone request is sent at once, never delayed.
import type { UsageRepository } from '../db/repositories/usage.ts'

/** Requests counted by one statement at most. */
const MAX_BATCH = 256

interface Waiter {
  resolve(used: number | undefined): void
  reject(err: unknown): void
}

export function withBatchedReservations(usage: UsageRepository): UsageRepository {
  const lanes = new Map<string, Waiter[]>()

  async function pump(key: string, waiting: Waiter[], accountId: string, day: string, limit: number) {
    try {
      while (waiting.length > 0) {
        const batch = waiting.splice(0, Math.max(1, Math.min(waiting.length, limit, MAX_BATCH)))
        try {
          if (batch.length === 1) {
            batch[0].resolve(await usage.reserve(accountId, day, limit))
            continue
          }
          const used = await usage.reserveMany(accountId, day, limit, batch.length)
          if (used !== undefined) {
            batch.forEach((w, i) => w.resolve(used - batch.length + 1 + i))
            continue
          }
          for (const w of batch) w.resolve(await usage.reserve(accountId, day, limit))
        } catch (err) {
          for (const w of batch) w.reject(err) // no effect on those already resolved
        }
      }
    } finally {
      lanes.delete(key)
    }
  }

  return {
    ...usage,
    reserve(accountId: string, day: string, limit: number): Promise<number | undefined> {
      const key = `${accountId}\u0000${day}\u0000${limit}`
      return new Promise((resolve, reject) => {
        const waiting = lanes.get(key)
        if (waiting) {
          waiting.push({ resolve, reject })
          return
        }
        const fresh: Waiter[] = [{ resolve, reject }]
        lanes.set(key, fresh)
        void pump(key, fresh, accountId, day, limit)
      })
    },
  }
}
