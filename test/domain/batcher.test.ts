// The coalescing primitive behind the hot-path batchers: a lone call goes at once, calls that
// arrive meanwhile share the next statement, errors reach exactly the calls of their batch.
import t from 'tap'
import { BatchNotSettledError, createBatcher } from '../../src/domain/batcher.ts'

function deferred() {
  let release!: () => void
  const done = new Promise<void>((r) => (release = r))
  return { done, release }
}

t.test('a lone call runs at once; calls arriving meanwhile share the next run', async (t) => {
  const runs: number[][] = []
  const gate = deferred()
  const batch = createBatcher<number, number>({
    maxBatch: () => 100,
    async run(_key, waiters) {
      runs.push(waiters.map((w) => w.item))
      if (runs.length === 1) await gate.done
      for (const w of waiters) w.resolve(w.item * 10)
    },
  })
  const first = batch('k', 1)
  t.same(runs, [[1]], 'the first call started its run synchronously, undelayed')
  const rest = [2, 3, 4].map((i) => batch('k', i))
  const other = batch('other', 9)
  t.same(runs, [[1], [9]], 'another key is another lane, not held up')
  gate.release()
  t.same(await Promise.all([first, ...rest, other]), [10, 20, 30, 40, 90])
  t.same(runs, [[1], [9], [2, 3, 4]], 'the three waiting calls went in one run')
})

t.test('batches are cut at maxBatch', async (t) => {
  const sizes: number[] = []
  const gate = deferred()
  const batch = createBatcher<number, number>({
    maxBatch: (first) => first,
    async run(_key, waiters) {
      sizes.push(waiters.length)
      if (sizes.length === 1) await gate.done
      for (const w of waiters) w.resolve(w.item)
    },
  })
  const all = [1, 2, 2, 2, 3].map((i) => batch('k', i))
  gate.release()
  await Promise.all(all)
  t.same(sizes, [1, 2, 2], 'the first waiting item decides the size of its batch')
})

t.test('a failing run rejects the unsettled calls of its batch only; the lane recovers', async (t) => {
  const gate = deferred()
  let n = 0
  const batch = createBatcher<number, number>({
    maxBatch: () => 100,
    async run(_key, waiters) {
      n++
      if (n === 1) {
        await gate.done
        return waiters[0].resolve(1)
      }
      if (n === 2) {
        waiters[0].resolve(-1)
        throw new Error('connection lost')
      }
      for (const w of waiters) w.resolve(w.item)
    },
  })
  const first = batch('k', 1)
  const second = [2, 3, 4].map((i) => batch('k', i))
  gate.release()
  t.equal(await first, 1)
  const settled = await Promise.allSettled(second)
  t.same(
    settled.map((s) => s.status),
    ['fulfilled', 'rejected', 'rejected'],
    'the one already answered keeps its answer, the others see the error',
  )
  t.equal(await batch('k', 5), 5, 'the next call is served normally')
})

t.test('a call its run forgot is rejected, never left hanging', async (t) => {
  const batch = createBatcher<number, number>({
    maxBatch: () => 100,
    async run() {},
  })
  await t.rejects(batch('k', 1), BatchNotSettledError)
})
