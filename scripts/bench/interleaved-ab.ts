// The interleaved A/B loop of extract-ab.ts and wink-ab.ts: both runners over the same texts in
// chunks of ten, alternating A, B then B, A, so that the machine's other load falls on both alike;
// prints each round's process CPU time per side and the ratio B/A.
export function runInterleaved(
  a: (text: string) => unknown,
  b: (text: string) => unknown,
  texts: string[],
  opts: { rounds: number; warmup: number },
): void {
  for (let w = 0; w < opts.warmup; w++) {
    for (const t of texts) {
      a(t)
      b(t)
    }
  }
  const cpu = () => {
    const c = process.cpuUsage()
    return c.user + c.system
  }
  for (let r = 0; r < opts.rounds; r++) {
    let ta = 0
    let tb = 0
    for (let k = 0; k < texts.length; k += 10) {
      const chunk = texts.slice(k, k + 10)
      const order = (k / 10 + r) % 2 === 0 ? [a, b] : [b, a]
      for (const run of order) {
        const c0 = cpu()
        for (const t of chunk) run(t)
        if (run === a) ta += cpu() - c0
        else tb += cpu() - c0
      }
    }
    console.log(`round ${r}: A ${(ta / 1000).toFixed(0)} ms, B ${(tb / 1000).toFixed(0)} ms, B/A ${(tb / ta).toFixed(3)}`)
  }
}
