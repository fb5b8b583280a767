// Checks the hand-written gradient of the sentiment network with attention heads
// (train-sentiment.ts forwardBackward) against central finite differences of its loss, on a small
// random network and random contexts, for each head layout (plain, masked, with a negated pool).
// Usage: npx tsx scripts/nlp/check-sentiment-grad.ts  (exits 1 if any relative error > 1e-2)
import {
  DIMS,
  DIST_BUCKETS,
  HEAD_OUT,
  HEAD_PARAMS,
  INPUTS,
  inputsOf,
  newContext,
  poolAll,
  poolsOf,
  pushContext,
  type Context,
  type Heads,
  type SentimentModel,
} from '../../src/nlp/sentiment.ts'
import { buildClusterIndex } from '../../src/nlp/features/lexicon.ts'
import { forwardBackward, newNet, type Sample } from './train-sentiment.ts'
import { rng } from './data.ts'

const r = rng(12345)
const gauss = () => Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r())
const ROWS = 40
const vectors = Int8Array.from({ length: ROWS * DIMS }, () => Math.round((r() * 2 - 1) * 127))
const scale = Float32Array.from({ length: ROWS }, () => 0.02 + 0.01 * r())
const table = { rows: buildClusterIndex(new Uint32Array(0), new Uint16Array(0)), vectors, scale, lexicon: new Map<number, number>() }

/**
 * The reference for poolAll: one pool of head `h`: scores the context words admitted by `which` (0 all, 1 those outside a
 * negation scope, 2 those inside), a softmax over them into `alpha` (0 for the others), and the
 * weighted sums (HEAD_OUT numbers) into out[off…]. Nothing is written (zeros) when no word is admitted.
 */
function headPool(
  hw: Float32Array,
  h: number,
  t: Pick<SentimentModel, 'vectors' | 'scale'>,
  c: Context,
  which: number,
  out: Float32Array,
  off: number,
  alpha: Float64Array,
): void {
  const q = h * HEAD_PARAMS
  const wd = q + DIMS
  const wn = wd + 2 * DIST_BUCKETS
  let mx = -Infinity
  for (let i = 0; i < c.n; i++) {
    if ((which === 1 && c.neg[i]) || (which === 2 && !c.neg[i])) {
      alpha[i] = -Infinity
      continue
    }
    const o = c.rows[i] * DIMS
    let s = 0
    for (let j = 0; j < DIMS; j++) s += hw[q + j] * t.vectors[o + j]
    s = s * t.scale[c.rows[i]] + hw[wd + c.bucket[i]] + hw[wn] * c.neg[i] + hw[wn + 1] * c.rate[i] + hw[wn + 2] * Math.abs(c.rate[i])
    alpha[i] = s
    if (s > mx) mx = s
  }
  for (let j = 0; j < HEAD_OUT; j++) out[off + j] = 0
  if (mx === -Infinity) {
    alpha.fill(0, 0, c.n)
    return
  }
  let z = 0
  for (let i = 0; i < c.n; i++) {
    const e = alpha[i] === -Infinity ? 0 : Math.exp(alpha[i] - mx)
    alpha[i] = e
    z += e
  }
  for (let i = 0; i < c.n; i++) {
    const a = (alpha[i] /= z)
    if (!a) continue
    const o = c.rows[i] * DIMS
    const as = a * t.scale[c.rows[i]]
    for (let j = 0; j < DIMS; j++) out[off + j] += as * t.vectors[o + j]
    out[off + DIMS] += a * c.rate[i]
    out[off + DIMS + 1] += a * c.neg[i]
    out[off + DIMS + 2] += a * Math.abs(c.rate[i])
    out[off + DIMS + 3] += a * (c.bucket[i] >= DIST_BUCKETS ? 1 : 0)
  }
}

let worst = 0
for (const layout of [
  { mask: false, negpool: false },
  { mask: true, negpool: false },
  { mask: true, negpool: true },
]) {
  const heads: Heads = { n: 2, w: new Float32Array(0), ...layout }
  const I = inputsOf({ heads })
  const H = 6
  const params = [
    Float32Array.from({ length: H * I }, () => gauss() * 0.3),
    Float32Array.from({ length: H }, () => gauss() * 0.1 + 0.3),
    Float32Array.from({ length: 3 * H }, () => gauss()),
    Float32Array.from({ length: 3 }, () => gauss() * 0.1),
    Float32Array.from({ length: heads.n * HEAD_PARAMS }, () => gauss() * 0.5),
  ]
  const grads = params.map((p) => new Float32Array(p.length))
  const net = newNet(H, I, heads)
  // Doubles for the hidden activations and the input (training keeps float32, whose rounding
  // would swamp a finite difference).
  net.h = new Float64Array(H) as unknown as Float32Array
  const cw = [1.2, 0.9, 0.8]
  for (let trial = 0; trial < 3; trial++) {
    const c = newContext(4)
    const n = 6 + Math.floor(r() * 10)
    // Through the same growth path as sentimentInput's (capacity 4).
    for (let i = 0; i < n; i++) {
      const row = Math.floor(r() * ROWS)
      const bucket = Math.floor(r() * 2 * DIST_BUCKETS)
      // The last trial of each layout: every word negated (a masked pool with no word in it).
      const neg = trial === 2 || r() < 0.35
      pushContext(c, row, bucket, neg, r() < 0.4 ? Math.round(r() * 10 - 5) / 5 : 0)
    }
    const x = new Float64Array(I) as unknown as Float32Array
    for (let k = 0; k < INPUTS; k++) if (r() < 0.3) x[k] = gauss() * 0.2
    const s: Sample = { x, y: Math.floor(r() * 3), c }
    // poolAll (one pass over each vector for all heads) against headPool (one head and pool at a
    // time): the same numbers, bit for bit.
    heads.w = params[4]
    const fused = new Float32Array(I)
    poolAll(heads, table, c, fused)
    const single = new Float32Array(I)
    const P = poolsOf(heads)
    for (let hd = 0; hd < heads.n; hd++)
      for (let p = 0; p < P; p++)
        headPool(
          heads.w,
          hd,
          table,
          c,
          heads.negpool ? p + 1 : heads.mask ? 1 : 0,
          single,
          INPUTS + (hd * P + p) * HEAD_OUT,
          new Float64Array(c.n),
        )
    for (let k = 0; k < I; k++)
      if (!Object.is(fused[k], single[k])) {
        console.log(`poolAll differs from headPool at ${k}: ${fused[k]} against ${single[k]}`)
        process.exit(1)
      }
    const noDrop = () => 1
    forwardBackward(table, net, params, s, cw, 0, noDrop, grads)
    const analytic = grads.map((g) => Float64Array.from(g))
    const check = (p: number, k: number) => {
      const old = params[p][k]
      const eps = 1e-3
      params[p][k] = old + eps
      const hi = params[p][k]
      const up = forwardBackward(table, net, params, s, cw, 0, noDrop, grads)
      params[p][k] = old - eps
      const lo = params[p][k]
      const down = forwardBackward(table, net, params, s, cw, 0, noDrop, grads)
      params[p][k] = old
      const fd = (up - down) / (hi - lo)
      const a = analytic[p][k]
      const err = Math.abs(fd - a) / Math.max(1e-6, Math.abs(fd) + Math.abs(a))
      worst = Math.max(worst, Number.isNaN(err) ? Infinity : err)
      if (err > 1e-2 && process.env.DEBUG)
        console.log(
          `  param ${p}[${k}] (${p === 4 ? `head ${Math.floor(k / HEAD_PARAMS)} item ${k % HEAD_PARAMS}` : ''}) fd ${fd} analytic ${a}`,
        )
      return err
    }
    let e4 = 0
    for (let k = 0; k < params[4].length; k++) e4 = Math.max(e4, check(4, k))
    let e1 = 0
    for (let t = 0; t < 200; t++) e1 = Math.max(e1, check(0, INPUTS + Math.floor(r() * (I - INPUTS)) + Math.floor(r() * H) * I))
    for (let t = 0; t < 50; t++) e1 = Math.max(e1, check(0, Math.floor(r() * H * I)))
    let e2 = 0
    for (let p = 1; p < 4; p++) for (let k = 0; k < params[p].length; k++) e2 = Math.max(e2, check(p, k))
    const negs = Array.from(c.neg.subarray(0, c.n)).reduce((a, b) => a + b, 0)
    console.log(
      `mask ${layout.mask} negpool ${layout.negpool}, ${c.n} words (${negs} negated): max relative error heads ${e4.toExponential(2)}, w1 ${e1.toExponential(2)}, b1/w2/b2 ${e2.toExponential(2)}`,
    )
  }
}
console.log(`worst relative error ${worst.toExponential(2)}`)
if (worst > 1e-2) process.exit(1)
