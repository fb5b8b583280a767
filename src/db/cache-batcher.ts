// Statements of the shared cache level, coalesced per node (src/db/batcher.ts). On the
// uncached path every request reads the table (an in-process miss) and then writes its result;
// under load those become one read and one write per batch instead of one each per request.
// Writes are still awaited by their request before it is answered (no write-behind), so a text
// analysed on one node is a cache hit on every node as soon as its answer has been sent.
import type { CacheRepository } from './repositories/cache.ts'
import { createBatcher } from './batcher.ts'

/** Entries read or written by one statement at most. */
const MAX_BATCH = 128
/**
 * Reads in flight at once. Writes stay one at a time: two multi-row upserts in flight could
 * lock the same entries in opposite orders.
 */
const MAX_READS_IN_FLIGHT = 2

type Row = Awaited<ReturnType<CacheRepository['get']>>

interface Get {
  accountId: string
  key: string
  notBefore: Date
}

interface Put {
  accountId: string
  key: string
  payload: string
  createdAt: Date
  notBefore: Date
}

const entry = (accountId: string, key: string) => `${accountId}\u0000${key}`

export function withBatchedCacheStatements(repo: CacheRepository): CacheRepository {
  const get = createBatcher<Get, Row>({
    maxBatch: () => MAX_BATCH,
    maxInFlight: MAX_READS_IN_FLIGHT,
    async run(_lane, batch) {
      if (batch.length === 1) {
        const { accountId, key, notBefore } = batch[0].item
        return batch[0].resolve(await repo.get(accountId, key, notBefore))
      }
      // The statement runs after every read of the batch was asked for: the latest cut-off is theirs.
      const notBefore = batch.reduce((t, w) => (w.item.notBefore > t ? w.item.notBefore : t), batch[0].item.notBefore)
      const found = new Map(
        (
          await repo.getMany(
            batch.map((w) => w.item),
            notBefore,
          )
        ).map((r) => [entry(r.accountId, r.key), r]),
      )
      for (const w of batch) {
        const row = found.get(entry(w.item.accountId, w.item.key))
        w.resolve(row && { payload: row.payload, createdAt: row.createdAt })
      }
    },
  })

  const put = createBatcher<Put, Date>({
    maxBatch: () => MAX_BATCH,
    async run(_lane, batch) {
      if (batch.length === 1) {
        const { accountId, key, payload, createdAt, notBefore } = batch[0].item
        return batch[0].resolve(await repo.put(accountId, key, payload, createdAt, notBefore))
      }
      // One row per entry: a statement may not touch a row twice. The same text analysed twice
      // at once is written once; both get the stored time.
      const rows = new Map<string, Put>()
      for (const w of batch) if (!rows.has(entry(w.item.accountId, w.item.key))) rows.set(entry(w.item.accountId, w.item.key), w.item)
      const first = batch[0].item
      const written = await repo.putMany([...rows.values()], first.createdAt.getTime() - first.notBefore.getTime())
      const stored = new Map(written.map((r) => [entry(r.accountId, r.key), r.createdAt]))
      // An entry kept as it was (a live row won) reports the caller's time, as `put` does.
      for (const w of batch) w.resolve(stored.get(entry(w.item.accountId, w.item.key)) ?? w.item.createdAt)
    },
  })

  return {
    ...repo,
    get: (accountId, key, notBefore) => get('', { accountId, key, notBefore }),
    put: (accountId, key, payload, createdAt, notBefore) => put('', { accountId, key, payload, createdAt, notBefore }),
  }
}
