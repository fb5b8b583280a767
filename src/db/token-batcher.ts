// Token look-ups, coalesced per node (src/db/batcher.ts): the look-ups that arrive while one
// is in flight are answered by one `token_hash = any($hashes)` statement. Every request still
// gets the database's answer from a statement sent after it arrived, so a token revoked through
// any node before the request arrived is refused, exactly as with one statement per request.
// Nothing about a token is kept between statements.
import type { TokenPrincipal, TokensRepository } from './repositories/tokens.ts'
import { createBatcher } from './batcher.ts'

/** Look-ups answered by one statement at most. */
export const MAX_BATCH = 256
/**
 * Look-up statements in flight at once. One: a second would halve the batches and keep a second
 * database backend awake, which costs PostgreSQL more CPU per request than the wait it saves.
 */
export const MAX_IN_FLIGHT = 1

interface Lookup {
  hash: string
  now: Date
}

export function withBatchedTokenLookups(tokens: TokensRepository): TokensRepository {
  const lookup = createBatcher<Lookup, TokenPrincipal | undefined>({
    maxBatch: () => MAX_BATCH,
    maxInFlight: MAX_IN_FLIGHT,
    // One lane per UTC day (the day picks today's usage row). The effective plan is taken at the
    // latest of the batch's times: the statement runs after all of them, as a later one would.
    async run(day, batch) {
      const now = batch.reduce((t, w) => (w.item.now > t ? w.item.now : t), batch[0].item.now)
      if (batch.length === 1) return batch[0].resolve(await tokens.findActiveByHash(batch[0].item.hash, day, now))
      const hashes = [...new Set(batch.map((w) => w.item.hash))]
      const found = new Map((await tokens.findActiveByHashes(hashes, day, now)).map((row) => [row.hash, row]))
      // Each request gets its own copy (callers update `used` on theirs), built field by field:
      // the same shape as a lone look-up's, without the row's hash, and no object rest or spread.
      for (const w of batch) {
        const p = found.get(w.item.hash)
        w.resolve(p && { tokenId: p.tokenId, accountId: p.accountId, plan: p.plan, limit: p.limit, used: p.used })
      }
    },
  })
  return {
    ...tokens,
    findActiveByHash: (hash, day, now) => lookup(day, { hash, now }),
  }
}
