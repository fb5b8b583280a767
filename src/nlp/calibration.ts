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
