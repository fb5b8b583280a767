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
  for (let k = 0; blocks.length > 1 && k < blocks.length;) {
    if (blocks[k].n >= minBlock) {
      k++
      continue
    }
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

/** The score kept away from 0 and 1, so that its logarithms stay finite. */
const clip = (s: number) => Math.min(1 - 1e-6, Math.max(1e-6, s))

/**
 * Platt scaling (p = sigmoid(a · logit(score) + b), fitted by Newton's method on the log loss),
 * stored as the same step function on a fine grid of scores so that `calibrate` reads both.
 * Two parameters vary less from one small fitting set to another than isotonic blocks do.
 */
export function fitPlatt(scores: number[], outcomes: number[], steps = 100): Calibration {
  const feats = (s: number) => {
    const p = clip(s)
    return [Math.log(p / (1 - p)), 1]
  }
  return logisticMap(feats, fitLogistic(scores.map(feats), outcomes, [1, 0]), steps)
}

/**
 * Beta calibration (Kull, Silva Filho & Flach 2017): p = sigmoid(a · ln s − b · ln(1 − s) + c).
 * One parameter more than Platt scaling, so that the map can bend where the scores of the two
 * classes are not spread alike; stored as the same step function on a fine grid.
 */
export function fitBeta(scores: number[], outcomes: number[], steps = 100): Calibration {
  const feats = (s: number) => [Math.log(clip(s)), -Math.log(1 - clip(s)), 1]
  return logisticMap(feats, fitLogistic(scores.map(feats), outcomes, [1, 1, 0]), steps)
}

/**
 * Logistic regression of `outcomes` on the rows of X (2 or 3 columns), from `start`, by damped
 * Newton's method on the log loss: each step is halved until the loss decreases.
 */
function fitLogistic(X: number[][], outcomes: number[], start: number[]): number[] {
  const n = start.length
  const dot = (w: number[], x: number[]) => {
    let u = 0
    for (let j = 0; j < n; j++) u += w[j] * x[j]
    return u
  }
  const loss = (w: number[]) => {
    let l = 0
    for (let i = 0; i < X.length; i++) {
      const u = dot(w, X[i])
      // log(1 + e^u) - y u, computed stably
      l += (u > 0 ? u + Math.log1p(Math.exp(-u)) : Math.log1p(Math.exp(u))) - outcomes[i] * u
    }
    return l
  }
  let w = start.slice()
  let cur = loss(w)
  for (let it = 0; it < 100; it++) {
    const g = new Array<number>(n).fill(0)
    const H = Array.from({ length: n }, (_, j) => Array.from({ length: n }, (_, k) => (j === k ? 1e-6 : 0)))
    for (let i = 0; i < X.length; i++) {
      const x = X[i]
      const p = 1 / (1 + Math.exp(-dot(w, x)))
      const h = p * (1 - p)
      for (let j = 0; j < n; j++) {
        g[j] += (p - outcomes[i]) * x[j]
        for (let k = 0; k < n; k++) H[j][k] += h * x[j] * x[k]
      }
    }
    const d = solveSmall(H, g)
    if (!d) break
    let t = 1
    while (t > 1e-6 && loss(w.map((v, j) => v - t * d[j])) > cur) t /= 2
    if (t <= 1e-6) break
    w = w.map((v, j) => v - t * d[j])
    const next = loss(w)
    if (cur - next < 1e-10) break
    cur = next
  }
  return w
}

/** sigmoid(w · feats(score)) on a grid of `steps` score intervals, read at their midpoints. */
function logisticMap(feats: (s: number) => number[], w: number[], steps: number): Calibration {
  const x: number[] = []
  const y: number[] = []
  for (let k = 1; k <= steps; k++) {
    const f = feats((k - 0.5) / steps)
    let u = 0
    for (let j = 0; j < w.length; j++) u += w[j] * f[j]
    x.push(k === steps ? 1 : +(k / steps).toFixed(6))
    y.push(+(1 / (1 + Math.exp(-u))).toFixed(5))
  }
  return { x, y }
}

/** Solves the 2×2 or 3×3 system H d = g by Cramer's rule; undefined when H is singular. */
function solveSmall(H: number[][], g: number[]): number[] | undefined {
  const det = (m: number[][]) =>
    m.length === 2
      ? m[0][0] * m[1][1] - m[0][1] * m[1][0]
      : m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
        m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
        m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
  const D = det(H)
  if (Math.abs(D) < 1e-12) return undefined
  return H.map((_, c) => det(H.map((row, r) => row.map((v, k) => (k === c ? g[r] : v)))) / D)
}
