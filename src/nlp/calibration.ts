// Isotonic calibration of classifier scores: a monotone map from score to the observed share
// of correct answers, fitted by pool-adjacent-violators and applied by linear interpolation.

export interface Calibration {
  /** Upper score bound of each isotonic block, increasing … */
  x: number[]
  /** … and the observed rate of correct answers in the block. */
  y: number[]
}

/** The rate of the block the score falls in (a step function, as isotonic regression fits). */
export function calibrate(c: Calibration, score: number): number {
  const { x, y } = c
  if (!x.length) return score
  let lo = 0
  let hi = x.length - 1
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (score <= x[mid]) hi = mid
    else lo = mid + 1
  }
  return y[lo]
}

/**
 * Pool-adjacent-violators fit of outcomes (0/1) against scores. Blocks smaller than
 * `minBlock` are pooled with a neighbour: a step resting on a handful of relations says more
 * about those few than about the score.
 */
export function fitIsotonic(scores: number[], outcomes: number[], minBlock = 20): Calibration {
  const idx = scores.map((_, i) => i).sort((a, b) => scores[a] - scores[b])
  const blocks: { sx: number; sy: number; n: number; max: number }[] = []
  for (const i of idx) {
    blocks.push({ sx: scores[i], sy: outcomes[i], n: 1, max: scores[i] })
    while (blocks.length > 1) {
      const b = blocks[blocks.length - 1]
      const a = blocks[blocks.length - 2]
      if (a.sy / a.n < b.sy / b.n) break
      a.sx += b.sx
      a.sy += b.sy
      a.n += b.n
      a.max = b.max
      blocks.pop()
    }
  }
  for (let k = 0; blocks.length > 1 && k < blocks.length; ) {
    if (blocks[k].n >= minBlock) { k++; continue }
    // Pool with the neighbour whose rate is closer (pooling keeps the rates monotone).
    const rate = (b: { sy: number; n: number }) => b.sy / b.n
    const left = k > 0 ? Math.abs(rate(blocks[k - 1]) - rate(blocks[k])) : Infinity
    const right = k + 1 < blocks.length ? Math.abs(rate(blocks[k + 1]) - rate(blocks[k])) : Infinity
    const j = left <= right ? k - 1 : k + 1
    const [a, b] = j < k ? [blocks[j], blocks[k]] : [blocks[k], blocks[j]]
    a.sx += b.sx
    a.sy += b.sy
    a.n += b.n
    a.max = b.max
    blocks.splice(Math.max(j, k), 1)
    k = Math.min(j, k)
  }
  return {
    x: blocks.map((b, k) => (k === blocks.length - 1 ? 1 : +b.max.toFixed(6))),
    y: blocks.map((b) => +(b.sy / b.n).toFixed(5)),
  }
}

/**
 * Platt scaling (p = sigmoid(a · logit(score) + b), fitted by Newton's method on the log loss),
 * stored as the same step function on a fine grid of scores so that `calibrate` reads both.
 * Two parameters vary less from one small fitting set to another than isotonic blocks do.
 */
export function fitPlatt(scores: number[], outcomes: number[], steps = 100, fixedSlope?: number): Calibration {
  return plattMap(plattParams(scores, outcomes, fixedSlope), steps)
}

/** Platt parameters [a, b]; with `fixedSlope`, only the intercept is fitted. */
export function plattParams(scores: number[], outcomes: number[], fixedSlope?: number): [number, number] {
  const logit = (s: number) => { const p = Math.min(1 - 1e-6, Math.max(1e-6, s)); return Math.log(p / (1 - p)) }
  const z = scores.map(logit)
  const loss = (a: number, b: number) => {
    let l = 0
    for (let i = 0; i < z.length; i++) {
      const u = a * z[i] + b
      // log(1 + e^u) - y u, computed stably
      l += (u > 0 ? u + Math.log1p(Math.exp(-u)) : Math.log1p(Math.exp(u))) - outcomes[i] * u
    }
    return l
  }
  let a = fixedSlope ?? 1
  let b = 0
  let cur = loss(a, b)
  for (let it = 0; it < 100; it++) {
    let ga = 0, gb = 0, haa = 1e-6, hab = 0, hbb = 1e-6
    for (let i = 0; i < z.length; i++) {
      const p = 1 / (1 + Math.exp(-(a * z[i] + b)))
      const g = p - outcomes[i]
      const h = p * (1 - p)
      ga += g * z[i]; gb += g
      haa += h * z[i] * z[i]; hab += h * z[i]; hbb += h
    }
    const det = haa * hbb - hab * hab
    if (Math.abs(det) < 1e-12) break
    const da = fixedSlope === undefined ? (hbb * ga - hab * gb) / det : 0
    const db = fixedSlope === undefined ? (haa * gb - hab * ga) / det : gb / hbb
    // Damped Newton: halve the step until the log loss decreases.
    let t = 1
    while (t > 1e-6 && loss(a - t * da, b - t * db) > cur) t /= 2
    if (t <= 1e-6) break
    a -= t * da
    b -= t * db
    const next = loss(a, b)
    if (cur - next < 1e-10) { cur = next; break }
    cur = next
  }
  return [a, b]
}

function plattMap([a, b]: [number, number], steps: number): Calibration {
  const logit = (s: number) => { const p = Math.min(1 - 1e-6, Math.max(1e-6, s)); return Math.log(p / (1 - p)) }
  const x: number[] = []
  const y: number[] = []
  for (let k = 1; k <= steps; k++) {
    const hi = k / steps
    const mid = (k - 0.5) / steps
    x.push(k === steps ? 1 : +hi.toFixed(6))
    y.push(+(1 / (1 + Math.exp(-(a * logit(mid) + b)))).toFixed(5))
  }
  return { x, y }
}

/**
 * Beta calibration (Kull, Silva Filho & Flach 2017): p = sigmoid(a · ln s − b · ln(1 − s) + c),
 * fitted by damped Newton's method on the log loss. One parameter more than Platt scaling, so
 * that the map can bend where the scores of the two classes are not spread alike; stored as
 * the same step function on a fine grid.
 */
export function fitBeta(scores: number[], outcomes: number[], steps = 100): Calibration {
  const clip = (s: number) => Math.min(1 - 1e-6, Math.max(1e-6, s))
  const feats = (s: number) => [Math.log(clip(s)), -Math.log(1 - clip(s)), 1]
  const X = scores.map(feats)
  const loss = (w: number[]) => {
    let l = 0
    for (let i = 0; i < X.length; i++) {
      const u = w[0] * X[i][0] + w[1] * X[i][1] + w[2]
      l += (u > 0 ? u + Math.log1p(Math.exp(-u)) : Math.log1p(Math.exp(u))) - outcomes[i] * u
    }
    return l
  }
  let w = [1, 1, 0]
  let cur = loss(w)
  for (let it = 0; it < 100; it++) {
    const g = [0, 0, 0]
    const H = [[1e-6, 0, 0], [0, 1e-6, 0], [0, 0, 1e-6]]
    for (let i = 0; i < X.length; i++) {
      const x = X[i]
      const p = 1 / (1 + Math.exp(-(w[0] * x[0] + w[1] * x[1] + w[2])))
      const h = p * (1 - p)
      for (let j = 0; j < 3; j++) {
        g[j] += (p - outcomes[i]) * x[j]
        for (let k = 0; k < 3; k++) H[j][k] += h * x[j] * x[k]
      }
    }
    const d = solve3(H, g)
    if (!d) break
    let t = 1
    while (t > 1e-6 && loss(w.map((v, j) => v - t * d[j])) > cur) t /= 2
    if (t <= 1e-6) break
    w = w.map((v, j) => v - t * d[j])
    const next = loss(w)
    if (cur - next < 1e-10) break
    cur = next
  }
  const x: number[] = []
  const y: number[] = []
  for (let k = 1; k <= steps; k++) {
    const [l0, l1] = feats((k - 0.5) / steps)
    x.push(k === steps ? 1 : +(k / steps).toFixed(6))
    y.push(+(1 / (1 + Math.exp(-(w[0] * l0 + w[1] * l1 + w[2])))).toFixed(5))
  }
  return { x, y }
}

/** Solves the 3×3 system H d = g by Cramer's rule; undefined when H is singular. */
function solve3(H: number[][], g: number[]): number[] | undefined {
  const det = (m: number[][]) =>
    m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
  const D = det(H)
  if (Math.abs(D) < 1e-12) return undefined
  return [0, 1, 2].map((c) => det(H.map((row, r) => row.map((v, k) => (k === c ? g[r] : v)))) / D)
}
