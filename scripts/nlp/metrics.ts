// Scoring helpers for scripts/eval.ts.

export class Counts {
  tp = 0
  fp = 0
  fn = 0
  get p(): number {
    return this.tp / Math.max(1, this.tp + this.fp)
  }
  get r(): number {
    return this.tp / Math.max(1, this.tp + this.fn)
  }
  get f1(): number {
    const p = this.p,
      r = this.r
    return p + r > 0 ? (2 * p * r) / (p + r) : 0
  }
  add(o: Counts): void {
    this.tp += o.tp
    this.fp += o.fp
    this.fn += o.fn
  }
}

/** Counts per label, plus micro-averages over label subsets. */
export class Scoreboard {
  by = new Map<string, Counts>()
  get(label: string): Counts {
    let c = this.by.get(label)
    if (!c) this.by.set(label, (c = new Counts()))
    return c
  }
  /** Compares two sets of "label|key" items. */
  compare(gold: Iterable<string>, pred: Iterable<string>): void {
    const g = new Set(gold)
    const p = new Set(pred)
    for (const x of p) this.get(x.slice(0, x.indexOf('|')))[g.has(x) ? 'tp' : 'fp']++
    for (const x of g) if (!p.has(x)) this.get(x.slice(0, x.indexOf('|'))).fn++
  }
  micro(labels?: string[]): Counts {
    const m = new Counts()
    for (const [l, c] of this.by) if (!labels || labels.includes(l)) m.add(c)
    return m
  }
  print(title: string, groups: [string, string[] | undefined][]): void {
    console.log(`\n${title}`)
    console.log('  type            precision  recall     F1   support')
    const row = (l: string, c: Counts) =>
      console.log(
        `  ${l.padEnd(16)}${c.p.toFixed(4).padStart(9)}${c.r.toFixed(4).padStart(9)}${c.f1.toFixed(4).padStart(9)}${String(c.tp + c.fn).padStart(9)}`,
      )
    for (const l of [...this.by.keys()].sort()) row(l, this.by.get(l)!)
    for (const [name, labels] of groups) row(name, this.micro(labels))
  }
}

/** Expected calibration error with equal-width bins. */
export function ece(pairs: { conf: number; correct: boolean }[], bins = 10): { ece: number; table: string[] } {
  const sum = new Array(bins).fill(0)
  const hit = new Array(bins).fill(0)
  const n = new Array(bins).fill(0)
  for (const { conf, correct } of pairs) {
    const b = Math.min(bins - 1, Math.floor(conf * bins))
    sum[b] += conf
    hit[b] += correct ? 1 : 0
    n[b]++
  }
  let e = 0
  const table: string[] = []
  for (let b = 0; b < bins; b++) {
    if (!n[b]) continue
    e += (n[b] / pairs.length) * Math.abs(sum[b] / n[b] - hit[b] / n[b])
    table.push(
      `  [${(b / bins).toFixed(1)},${((b + 1) / bins).toFixed(1)}) n=${n[b]} mean conf ${(sum[b] / n[b]).toFixed(3)} accuracy ${(hit[b] / n[b]).toFixed(3)}`,
    )
  }
  return { ece: pairs.length ? e : 0, table }
}

export function macroF1(
  gold: string[],
  pred: string[],
  labels: string[],
): { macro: number; per: Record<string, number>; accuracy: number } {
  const per: Record<string, number> = {}
  let ok = 0
  for (let i = 0; i < gold.length; i++) if (gold[i] === pred[i]) ok++
  for (const l of labels) {
    const c = new Counts()
    for (let i = 0; i < gold.length; i++) {
      if (pred[i] === l && gold[i] === l) c.tp++
      else if (pred[i] === l) c.fp++
      else if (gold[i] === l) c.fn++
    }
    per[l] = c.f1
  }
  return { macro: labels.reduce((a, l) => a + per[l], 0) / labels.length, per, accuracy: ok / Math.max(1, gold.length) }
}

/** Stable 32-bit FNV-1a hash, used to hold out a fixed share of a file by key. */
export function hash32(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

/** NewsMTSC dev: 15% of train held out by sentence (shared by training and eval). */
export const isHeldOut = (sentenceId: string) => hash32(sentenceId) % 100 < 15
