// The extraction baselines, in their own process on one thread: wink-nlp's bare readDoc and the
// service's full analyze(), back to back on one text for a fixed time.
// Usage: node --import tsx scripts/bench/inprocess.ts wink|analyze <text file> <seconds>
import { readFileSync } from 'node:fs'

const [mode, file, seconds] = process.argv.slice(2)
const text = readFileSync(file, 'utf8')
let run: (t: string) => unknown
if (mode === 'wink') {
  const { default: winkNLP } = await import('wink-nlp')
  const { default: model } = await import('wink-eng-lite-web-model')
  const nlp = winkNLP(model)
  run = (t) => nlp.readDoc(t)
} else {
  const nlp = await import('../../src/nlp/index.ts')
  const engine = nlp.createEngine(nlp.loadEngineModels())
  run = (t) => engine.analyze(t, { language: 'en' })
}
/** CPU seconds of this process's main thread (the one that extracts), from Linux's /proc. */
function mainThreadSeconds(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8')
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return (Number(f[11]) + Number(f[12])) / 100 // utime + stime, in USER_HZ ticks
  } catch {
    return NaN
  }
}
// Warm-up, then measure; each call gets a distinct text like an uncached request would.
// A warm-up of a few seconds, as the servers get (`--warmup`): V8 keeps optimising the engine
// well after its first calls, and the CPU compared is that of a running service.
const warmUntil = performance.now() + Math.min(5, Number(seconds)) * 1000
for (let i = 0; i < 20 || performance.now() < warmUntil; i++) run(`Item w${i}. ` + text)
const times: number[] = []
const cpu0 = process.cpuUsage()
const main0 = mainThreadSeconds()
const end = performance.now() + Number(seconds) * 1000
let i = 0
while (performance.now() < end) {
  const t = `Item ${i++}. ` + text.slice(8)
  const s = performance.now()
  run(t)
  times.push(performance.now() - s)
}
const cpu = process.cpuUsage(cpu0)
const main = mainThreadSeconds() - main0
times.sort((a, b) => a - b)
const total = times.reduce((a, b) => a + b, 0)
process.stdout.write(
  JSON.stringify({
    rps: times.length / (total / 1000),
    p50: times[Math.floor(times.length * 0.5)],
    p99: times[Math.floor(times.length * 0.99)],
    total: times.length,
    // CPU µs per extraction: the whole process (its GC and compiler threads too), and its main thread alone.
    cpuUs: (cpu.user + cpu.system) / times.length,
    mainCpuUs: (main * 1e6) / times.length,
  }) + '\n',
)
