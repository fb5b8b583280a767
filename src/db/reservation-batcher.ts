// Quota reservations of one account, coalesced per node. Every request is counted by one
// atomic statement on the account's row for the day; under load on one account that row is a
// hot spot (each statement waits for the previous one's commit). While a statement for an
// account is in flight, the requests that arrive for it wait, and are then counted together by
// one all-or-nothing statement (used + k ≤ limit). When not all of them fit, they are counted one
// by one, exactly as without batching: N requests against R remaining still succeed exactly
// min(N, R) times, on one node or many. A lone request goes at the end of its turn of the event loop (src/db/batcher.ts).
// The same holds for reservations that also check the token (`reserveWithToken`), batched per
// token: one statement checks the token and counts the batch; a token found invalid counts none.
// Requests that also look up the shared cache (`reserveWithTokenLookingUp`, an in-process miss)
// share that lane: when one of a batch looks up, the batch's statement reads every entry its
// requests look up, and each gets its own.
import type { CachedRow, UsageRepository } from './repositories/usage.ts'
import { createBatcher } from './batcher.ts'

/** Requests counted by one statement at most. */
const MAX_BATCH = 256

interface Reserve {
  accountId: string
  day: string
  limit: number
}

interface ReserveWithToken {
  hash: string
  accountId: string
  day: string
  now: Date
  /** The cache entry the request looks up, if any. */
  key?: string
  notBefore?: Date
}

type WithToken = Awaited<ReturnType<UsageRepository['reserveWithTokenLookingUp']>>

const NONE: CachedRow[] = []

export function withBatchedReservations(usage: UsageRepository): UsageRepository {
  const reserve = createBatcher<Reserve, number | undefined>({
    // Never more than the limit in one all-or-nothing statement: it could not fit.
    maxBatch: (first) => Math.min(first.limit, MAX_BATCH),
    async run(_key, batch) {
      const { accountId, day, limit } = batch[0].item
      if (batch.length === 1) return batch[0].resolve(await usage.reserve(accountId, day, limit))
      const used = await usage.reserveMany(accountId, day, limit, batch.length)
      if (used !== undefined) return batch.forEach((w, i) => w.resolve(used - batch.length + 1 + i))
      for (const w of batch) w.resolve(await usage.reserve(accountId, day, limit))
    },
  })
  const reserveWithToken = createBatcher<ReserveWithToken, WithToken>({
    // The limit is only known to the statement; a batch larger than it does not fit and falls
    // back to one by one, like any batch that does not fit.
    maxBatch: () => MAX_BATCH,
    async run(_key, batch) {
      const { hash, accountId, day } = batch[0].item
      // The statement runs after every request of the batch arrived: the latest time and cut-off are theirs.
      const now = batch.reduce((t, w) => (w.item.now > t ? w.item.now : t), batch[0].item.now)
      let notBefore: Date | undefined
      const keys = new Set<string>()
      for (const { item } of batch) {
        if (item.key === undefined) continue
        keys.add(item.key)
        if (!notBefore || item.notBefore! > notBefore) notBefore = item.notBefore
      }
      const all: (Omit<NonNullable<WithToken>, 'cached'> & { cached?: CachedRow[] }) | undefined = notBefore
        ? await usage.reserveWithTokenLookingUp(hash, accountId, day, now, batch.length, [...keys], notBefore)
        : await usage.reserveWithToken(hash, accountId, day, now, batch.length)
      if (!all) return batch.forEach((w) => w.resolve(undefined)) // not a valid token: none counted
      const found = all.cached ?? NONE
      const cachedFor = (item: ReserveWithToken) =>
        item.key === undefined || found.length === 0 ? NONE : found.filter((r) => r.key === item.key)
      if (all.used !== undefined || batch.length === 1) {
        // Each request gets its own copy of the principal: callers keep their quota state in it.
        return batch.forEach((w, i) =>
          w.resolve({
            principal: { ...all.principal },
            used: all.used === undefined ? undefined : all.used - batch.length + 1 + i,
            cached: cachedFor(w.item),
          }),
        )
      }
      // The entries were read; only the counts go one by one.
      for (const w of batch) {
        const one = await usage.reserveWithToken(hash, accountId, day, now, 1)
        w.resolve(one && { ...one, cached: cachedFor(w.item) })
      }
    },
  })
  return {
    ...usage,
    reserve: (accountId, day, limit) => reserve(`${accountId}\u0000${day}\u0000${limit}`, { accountId, day, limit }),
    reserveWithToken: (hash, accountId, day, now, k = 1) =>
      k === 1
        ? reserveWithToken(`${hash}\u0000${accountId}\u0000${day}`, { hash, accountId, day, now })
        : usage.reserveWithToken(hash, accountId, day, now, k),
    reserveWithTokenLookingUp: (hash, accountId, day, now, k, keys, notBefore) =>
      k === 1 && keys.length === 1
        ? reserveWithToken(`${hash}\u0000${accountId}\u0000${day}`, { hash, accountId, day, now, key: keys[0], notBefore })
        : usage.reserveWithTokenLookingUp(hash, accountId, day, now, k, keys, notBefore),
  }
}
