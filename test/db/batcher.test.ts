// The coalescing primitive behind the hot-path batchers: the calls of one turn of the event loop
// go together at its end, calls that arrive while a statement is in flight share the next one,
// errors reach exactly the calls of their batch.
import t from 'tap'
import { BatchNotSettledError, createBatcher } from '../../src/db/batcher.ts'

/** The end of the current turn of the event loop, when the batcher sends what the turn gathered. */
const endOfTurn = () => new Promise((r) => setImmediate(r))

function deferred() {
  let release!: () => void
  const done = new Promise<void>((r) => (release = r))
  return { done, release }
}

/**
 * A batcher that records the items of each of its runs, holds its first run until
 * `gate.release()`, and answers each call with `answer(item)`.
 */
function heldBatcher({
  answer = (item: number) => item,
  maxBatch = (_first: number) => 100,
}: { answer?: (item: number) => number; maxBatch?: (first: number) => number } = {}) {
  const runs: number[][] = []
  const gate = deferred()
  const batch = createBatcher<number, number>({
    maxBatch,
    async run(_key, waiters) {
      runs.push(waiters.map((w) => w.item))
      if (runs.length === 1) await gate.done
      for (const w of waiters) w.resolve(answer(w.item))
    },
  })
  return { batch, runs, gate }
}

t.test('the calls of one turn go together at its end; calls arriving meanwhile share the next run', async (t) => {
  const { batch, runs, gate } = heldBatcher({ answer: (i) => i * 10 })
  const first = [1, 2].map((i) => batch('k', i))
  t.same(runs, [], 'nothing is sent before the turn ends')
  await endOfTurn()
  t.same(runs, [[1, 2]], "the turn's two calls went in one run")
  const rest = [3, 4, 5].map((i) => batch('k', i))
  const other = batch('other', 9)
  await endOfTurn()
  t.same(runs, [[1, 2], [9]], 'another key is another lane, not held up; the rest wait for the run in flight')
  gate.release()
  t.same(await Promise.all([...first, ...rest, other]), [10, 20, 30, 40, 50, 90])
  t.same(runs, [[1, 2], [9], [3, 4, 5]], 'the three waiting calls went in one run')
  await endOfTurn()
  const lone = batch('k', 6)
  await endOfTurn()
  t.same(runs.at(-1), [6], 'a lone call on an idle lane goes at the end of its turn, waiting for nothing else')
  t.equal(await lone, 60)
})

t.test('fewer calls waiting than the last statement carried wait one more turn for others', async (t) => {
  const { batch, runs, gate } = heldBatcher()
  const first = [1, 2, 3].map((i) => batch('k', i))
  await endOfTurn()
  const early = batch('k', 4)
  gate.release()
  await Promise.all(first)
  await endOfTurn()
  t.same(runs, [[1, 2, 3]], 'one call waiting after a run of three: not sent at once')
  const late = batch('k', 5)
  await endOfTurn()
  await endOfTurn()
  t.same(
    runs,
    [
      [1, 2, 3],
      [4, 5],
    ],
    'the next run took the call of the following turn too',
  )
  t.same(await Promise.all([early, late]), [4, 5])
  // A run of one is followed at once: an idle node's calls never wait for others.
  const single = heldBatcher()
  const a = single.batch('j', 6)
  await endOfTurn()
  const b = single.batch('j', 7)
  single.gate.release()
  await a
  // Microtasks only: no turn of the event loop ends meanwhile.
  for (let i = 0; i < 10; i++) await Promise.resolve()
  t.same(single.runs.at(-1), [7], 'after a run of one, the waiting call went at once')
  t.equal(await b, 7)
})

t.test('batches are cut at maxBatch', async (t) => {
  const { batch, runs, gate } = heldBatcher({ maxBatch: (first) => first })
  const all = [1, 2, 2, 2, 3].map((i) => batch('k', i))
  gate.release()
  await Promise.all(all)
  t.same(
    runs.map((run) => run.length),
    [1, 2, 2],
    'the first waiting item decides the size of its batch',
  )
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
  await endOfTurn()
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

t.test('maxInFlight 2: the calls of one turn share a second statement while the first is in flight', async (t) => {
  const runs: number[][] = []
  const gates: (() => void)[] = []
  let inFlight = 0
  let peak = 0
  const batch = createBatcher<number, number>({
    maxBatch: () => 100,
    maxInFlight: 2,
    async run(_key, waiters) {
      runs.push(waiters.map((w) => w.item))
      peak = Math.max(peak, ++inFlight)
      await new Promise<void>((r) => gates.push(r))
      inFlight--
      for (const w of waiters) w.resolve(w.item)
    },
  })
  const first = batch('k', 1)
  await endOfTurn()
  t.same(runs, [[1]], 'a lone call goes at the end of its turn')
  const turn = [2, 3, 4].map((i) => batch('k', i))
  t.same(runs, [[1]], 'calls arriving meanwhile wait for the end of the turn')
  await endOfTurn()
  t.same(runs, [[1], [2, 3, 4]], "the turn's calls went together as the second statement")
  const later = [5, 6].map((i) => batch('k', i))
  await endOfTurn()
  t.equal(runs.length, 2, 'no third statement while two are in flight')
  gates.shift()!()
  t.equal(await first, 1)
  await endOfTurn()
  t.same(runs[2], [5, 6], 'when one came back, the waiting calls went together')
  while (gates.length) gates.shift()!()
  t.same(await Promise.all([...turn, ...later]), [2, 3, 4, 5, 6])
  t.equal(peak, 2, 'never more than two in flight')
  t.same(runs.flat().sort(), [1, 2, 3, 4, 5, 6], 'each call served exactly once')
  await endOfTurn()
  const again = batch('k', 7)
  await endOfTurn()
  t.equal(runs.length, 4, 'the lane is reusable once idle')
  gates.shift()!()
  t.equal(await again, 7)
})

t.test('maxInFlight 2: a failing statement rejects only its own calls', async (t) => {
  let n = 0
  const release: (() => void)[] = []
  const batch = createBatcher<number, number>({
    maxBatch: () => 100,
    maxInFlight: 2,
    async run(_key, waiters) {
      const mine = ++n
      await new Promise<void>((r) => release.push(r))
      if (mine === 2) throw new Error('connection lost')
      for (const w of waiters) w.resolve(w.item)
    },
  })
  const first = batch('k', 1)
  await endOfTurn()
  const second = [2, 3].map((i) => batch('k', i))
  await endOfTurn()
  release.forEach((r) => r())
  t.equal(await first, 1, 'the first statement is unaffected')
  t.same(
    (await Promise.allSettled(second)).map((s) => s.status),
    ['rejected', 'rejected'],
  )
})
