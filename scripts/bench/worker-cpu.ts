// CPU per extraction of the thread that extracts: in process (this main thread) or in piscina
// workers running the service's worker bundle with chosen heap limits, tasks sent one per worker
// back to back, as a saturated node's pool runs them. No HTTP, no database: the cost of the
// worker itself. Prints one JSON line per window of `window` seconds (the warm-up curve) and a
// summary of the measured windows.
// Usage: node [flags] --import tsx scripts/bench/worker-cpu.ts '<json spec>'
//   {"mode":"inprocess"|"worker","chars":2000,"seconds":20,"warmup":5,"window":5,"workers":1,"young":16,"old":256,"perWorker":1,"shared":true}
// `shared` false: each worker loads its own copy of the models instead of the pool's shared one.
import { readFileSync, readdirSync } from 'node:fs'
import { Piscina } from 'piscina'
import { bundleEntry } from '../../src/bundle.mjs'
import { makeText } from './texts.ts'

interface Spec {
  mode: 'inprocess' | 'worker'
  chars: number
  seconds: number
  warmup: number
  window: number
  workers?: number
  young?: number
  old?: number
  /** Tasks handed to each worker at once: 2 sends the next while one runs (the worker then never sleeps between tasks). */
  perWorker?: number
  /** The workers read the models the main thread loaded into shared memory, as the service's pool does. */
  shared?: boolean
}
const spec = {
  workers: 1,
  young: 16,
  old: 256,
  window: 5,
  warmup: 5,
  shared: true,
  ...(JSON.parse(process.argv[2] ?? '{}') as Partial<Spec>),
} as Spec

const base = makeText(spec.chars)
let n = 0
const nextText = () => {
  const prefix = `Item ${n++}. `
  return prefix + base.slice(prefix.length)
}

function threadSeconds(): Map<number, number> {
  const out = new Map<number, number>()
  for (const t of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${t}/stat`, 'utf8')
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      out.set(Number(t), (Number(f[11]) + Number(f[12])) / 100)
    } catch {
      // gone
    }
  }
  return out
}

let run: (count: { done: number }, until: number) => Promise<void>
let pool: Piscina | undefined
if (spec.mode === 'inprocess') {
  const nlp = await import('../../src/nlp/index.ts')
  const engine = nlp.createEngine(nlp.loadEngineModels())
  run = async (count, until) => {
    while (performance.now() < until) {
      engine.analyze(nextText(), { language: 'en' })
      count.done++
    }
  }
} else {
  const filename = await bundleEntry(new URL('../../src/analysis/worker.ts', import.meta.url), 'worker')
  const nlp = await import('../../src/nlp/index.ts')
  const { shareEngineModels } = await import('../../src/nlp/shared-models.ts')
  pool = new Piscina({
    filename,
    workerData: spec.shared ? { models: shareEngineModels(nlp.loadEngineModels()) } : {},
    minThreads: spec.workers,
    maxThreads: spec.workers,
    concurrentTasksPerWorker: spec.perWorker ?? 1,
    idleTimeout: Number.POSITIVE_INFINITY,
    resourceLimits: { maxOldGenerationSizeMb: spec.old, maxYoungGenerationSizeMb: spec.young },
  })
  const p = pool
  run = async (count, until) => {
    const lane = async () => {
      while (performance.now() < until) {
        await p.run({ text: nextText(), options: { language: 'en' } })
        count.done++
      }
    }
    await Promise.all(Array.from({ length: (spec.workers ?? 1) * (spec.perWorker ?? 1) }, lane))
  }
  // Load the workers (the model) before anything is measured.
  await Promise.all(Array.from({ length: spec.workers ?? 1 }, () => p.run({ text: nextText(), options: { language: 'en' } })))
}

const windows: { t: number; n: number; extractUs: number; mainUs: number; otherUs: number; processUs: number }[] = []
const start = performance.now()
const total = spec.warmup + spec.seconds
for (let t = 0; t < total; t += spec.window) {
  const count = { done: 0 }
  const before = threadSeconds()
  const cpu0 = process.cpuUsage()
  await run(count, performance.now() + spec.window * 1000)
  const cpu = process.cpuUsage(cpu0)
  const after = threadSeconds()
  const deltas = [...after].map(([tid, s]) => ({ tid, d: s - (before.get(tid) ?? 0) }))
  // The extracting threads: this main thread in process, else the `workers` busiest others.
  const extracting =
    spec.mode === 'inprocess'
      ? deltas.filter((x) => x.tid === process.pid)
      : deltas
          .filter((x) => x.tid !== process.pid)
          .sort((a, b) => b.d - a.d)
          .slice(0, spec.workers)
  const ex = extracting.reduce((s, x) => s + x.d, 0)
  const all = deltas.reduce((s, x) => s + x.d, 0)
  const main = deltas.find((x) => x.tid === process.pid)?.d ?? 0
  const w = {
    t: Math.round((performance.now() - start) / 1000),
    n: count.done,
    extractUs: (ex * 1e6) / count.done,
    /** This main thread (in worker mode: sending tasks and taking answers). */
    mainUs: (main * 1e6) / count.done,
    otherUs: ((all - ex) * 1e6) / count.done,
    processUs: (cpu.user + cpu.system) / count.done,
  }
  windows.push(w)
  process.stderr.write(JSON.stringify(w) + '\n')
}
const measured = windows.filter((w) => w.t > spec.warmup)
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
process.stdout.write(
  JSON.stringify({
    spec,
    execArgv: process.execArgv.filter((a) => !a.includes('tsx')),
    extractUs: med(measured.map((w) => w.extractUs)),
    mainUs: med(measured.map((w) => w.mainUs)),
    otherUs: med(measured.map((w) => w.otherUs)),
    processUs: med(measured.map((w) => w.processUs)),
    rss: Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024,
    rssNow: Number(/VmRSS:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024,
  }) + '\n',
)
await pool?.close()
