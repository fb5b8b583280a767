// npx tsx scripts/bench/pglite-commit.ts [-- --count 3000] [-- --rounds 5]
// What a synchronous commit costs a count on the embedded database (PGlite in a data folder
// on disk): the same counting statement, one at a time, committed asynchronously and
// synchronously in alternating rounds; the median per round is reported for each.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../src/db/client.ts'
import { createRepositories } from '../../src/db/repositories/index.ts'
import { createUsageRepository } from '../../src/db/repositories/usage.ts'
import { createAccount } from '../../src/domain/accounts.ts'

const args = process.argv.slice(2)
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? Number(args[i + 1]) : fallback
}
const COUNT = flag('count', 3000)
const ROUNDS = flag('rounds', 5)
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const dir = mkdtempSync(join(tmpdir(), 'tea-bench-commit-'))
try {
  const database = await openDatabase({ dataDir: dir, owner: 'bench' })
  const repos = createRepositories(database.db)
  const account = await createAccount({ repos, clock: () => new Date() }, { email: 'bench@example.com', plan: 'business' })
  const kinds = {
    async: createUsageRepository(database.db, { asyncCommit: true }),
    sync: createUsageRepository(database.db, { asyncCommit: false }),
  }
  const perRound: Record<keyof typeof kinds, number[]> = { async: [], sync: [] }
  let day = 0
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of ['async', 'sync'] as const) {
      // A day of its own per round: the first count of a day is an insert, the rest updates.
      const d = new Date(Date.UTC(2030, 0, 1 + day++)).toISOString().slice(0, 10)
      await kinds[kind].reserve(account.id, d, 1_000_000)
      const started = performance.now()
      for (let i = 0; i < COUNT; i++) await kinds[kind].reserve(account.id, d, 1_000_000)
      perRound[kind].push(((performance.now() - started) * 1000) / COUNT)
    }
  }
  await database.close()
  const a = median(perRound.async)
  const s = median(perRound.sync)
  console.log(`PGlite on disk, ${COUNT} counts one at a time, median of ${ROUNDS} rounds:`)
  console.log(`  asynchronous commit: ${a.toFixed(1)} µs per count (${Math.round(1e6 / a)}/s)`)
  console.log(`  synchronous commit:  ${s.toFixed(1)} µs per count (${Math.round(1e6 / s)}/s), +${(s - a).toFixed(1)} µs`)
  console.log(
    `  rounds (µs): async ${perRound.async.map((x) => x.toFixed(0)).join(' ')}; sync ${perRound.sync.map((x) => x.toFixed(0)).join(' ')}`,
  )
} finally {
  rmSync(dir, { recursive: true, force: true })
}
