// postgres.js 3.4.9 keeps its connections in queues (src/queue.js) whose shift() only frees its
// array when the queue empties. The queue of open connections never empties under a steady load
// that uses fewer connections than the pool has (our batched statements seldom have more than a
// few in flight), so it kept one entry per statement ever sent, and remove(), which every
// statement calls on the connection it took from that queue, scanned them all: thousands of
// entries per call within a minute of steady load, main-thread time per request growing without
// bound. patches/postgres+3.4.9.patch bounds both; these tests pin it on the module the
// service loads, counting the work through an Array subclass (Queue copies its initial array
// with slice(), which keeps the subclass). The same patch makes the pool hand a statement to the
// connection used last (pop) rather than the one idle longest: pinned at the end of this file.
import t from 'tap'
import postgres from 'postgres'

const Queue = (await import(new URL('./queue.js', import.meta.resolve('postgres')).href)).default as <T>(initial?: T[]) => {
  readonly length: number
  push(x: T): T
  shift(): T | undefined
  pop(): T | undefined
  remove(x: T): T | null
}

/** Records the longest array a queue held and how many entries its remove() calls scanned. */
function spy() {
  const seen = { longest: 0, scanned: 0 }
  class Watched<T> extends Array<T> {
    override push(...xs: T[]) {
      const n = super.push(...xs)
      seen.longest = Math.max(seen.longest, n)
      return n
    }
    override indexOf(x: T, from = 0) {
      seen.scanned += this.length - from
      return super.indexOf(x, from)
    }
  }
  return { initial: new Watched<object>(), seen }
}

t.test('a queue that never empties keeps a bounded array, and remove() scans only what it holds', async (t) => {
  const { initial, seen } = spy()
  const q = Queue(initial)
  // Ten connections, eight of them always idle: take the oldest, leave it (as move() does after
  // a shift), put it back, as every statement on a steady load does.
  const connections = Array.from({ length: 10 }, (_, i) => ({ i }))
  for (const c of connections) q.push(c)
  for (let n = 0; n < 100_000; n++) {
    const c = q.shift()!
    q.remove(c)
    q.push(c)
  }
  t.equal(q.length, 10, 'no connection lost or duplicated')
  t.ok(seen.longest <= 200, `the array stayed short (longest ${seen.longest}; unpatched it grows by one per statement)`)
  t.ok(seen.scanned / 100_000 <= 20, `remove() scanned ${(seen.scanned / 100_000).toFixed(1)} entries a call (unpatched: ~50,000)`)
})

t.test('the queue keeps its order, its pop() and its remove() through the compactions', async (t) => {
  const q = Queue<number>()
  const model: number[] = []
  let next = 0
  // A deterministic mix of pushes, shifts and removes, with the live part between 0 and ~150
  // entries, so that it empties, compacts and grows again many times.
  let s = 7
  const rnd = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32
  const wrong: string[] = []
  for (let step = 0; step < 50_000 && wrong.length < 5; step++) {
    const r = rnd()
    if (r < 0.5 || model.length === 0) {
      q.push(next)
      model.push(next++)
    } else if (r < 0.75) {
      const got = q.shift()
      const want = model.shift()
      if (got !== want) wrong.push(`step ${step}: shift gave ${got}, expected ${want}`)
    } else if (r < 0.9) {
      const got = q.pop()
      const want = model.pop()
      if (got !== want) wrong.push(`step ${step}: pop gave ${got}, expected ${want}`)
    } else {
      const pick = rnd() < 0.2 ? -1 : model[Math.floor(rnd() * model.length)]
      const at = model.indexOf(pick)
      const got = q.remove(pick)
      if (got !== (at === -1 ? null : pick)) wrong.push(`step ${step}: remove(${pick}) gave ${got}`)
      if (at !== -1) model.splice(at, 1)
    }
    if (q.length !== model.length) wrong.push(`step ${step}: length ${q.length}, expected ${model.length}`)
  }
  const rest: (number | undefined)[] = []
  while (q.length) rest.push(q.shift())
  t.same(wrong, [], 'every shift, remove and length as an array would give')
  t.same(rest, model, 'what is left, in order')
  t.equal(q.length, 0)
})

t.test(
  'statements one after another go to the connection used last, not to each connection in turn',
  { skip: !process.env.TEST_DATABASE_URL && 'TEST_DATABASE_URL is not set' },
  async (t) => {
    const sql = postgres(process.env.TEST_DATABASE_URL!, { max: 4, onnotice: () => {} })
    t.teardown(() => sql.end())
    // Open all four connections, then send statements one at a time.
    await Promise.all(Array.from({ length: 4 }, () => sql`select pg_sleep(0.05)`))
    const pids = new Set<number>()
    for (let i = 0; i < 20; i++) pids.add((await sql<{ pid: number }[]>`select pg_backend_pid() as pid`)[0].pid)
    t.equal(pids.size, 1, `one backend served them all (${pids.size} did)`)
    // Two at once still get two connections: nothing waits behind another statement.
    const both = await Promise.all([1, 2].map(() => sql<{ pid: number }[]>`select pg_backend_pid() as pid, pg_sleep(0.05)`))
    t.not(both[0][0].pid, both[1][0].pid)
  },
)
