// The WebAssembly layer gives bit for bit the sums of the plain JavaScript loop it replaced.
import t from 'tap'
import { HiddenLayer } from '../../src/nlp/layer.ts'

/** The JavaScript first layer as it was: four sums per unit over the non-zero groups, in input order. */
function reference(
  w: Float32Array,
  b: Float32Array,
  hidden: number,
  inputs: number,
  x: Float64Array,
  runStart: Int32Array,
  runEnd: Int32Array,
  runs: number,
): Float64Array {
  const out = new Float64Array(hidden)
  for (let j = 0; j < hidden; j++) {
    const o = j * inputs
    let a0 = b[j],
      a1 = 0,
      a2 = 0,
      a3 = 0
    let q = 0
    for (let r = 0; r < runs; r++) {
      for (let k = o + runStart[r], e = o + runEnd[r]; k < e; k += 4, q += 4) {
        a0 += w[k] * x[q]
        a1 += w[k + 1] * x[q + 1]
        a2 += w[k + 2] * x[q + 2]
        a3 += w[k + 3] * x[q + 3]
      }
    }
    out[j] = a0 + a1 + a2 + a3
  }
  return out
}

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let x = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
    return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32
  }
}

t.test('same activations as the JavaScript loop, even and odd unit counts, sparse inputs', async (t) => {
  const rand = rng(7)
  for (const [hidden, inputs] of [
    [64, 1004],
    [5, 40],
    [1, 8],
    [2, 4],
  ]) {
    const w = Float32Array.from({ length: hidden * inputs }, () => (rand() - 0.5) * 2 ** (rand() * 8 - 4))
    const b = Float32Array.from({ length: hidden }, () => rand() - 0.5)
    const layer = new HiddenLayer(w, b, hidden, inputs)
    for (let trial = 0; trial < 20; trial++) {
      // Groups of four kept with probability 0.7, merged into runs as sentimentScores does.
      let runs = 0
      let n = 0
      for (let k = 0; k < inputs; k += 4) {
        if (rand() < 0.3) continue
        if (runs === 0 || layer.runEnd[runs - 1] !== k) layer.runStart[runs++] = k
        layer.runEnd[runs - 1] = k + 4
        for (let c = 0; c < 4; c++) layer.x[n++] = Math.fround((rand() - 0.5) * 3)
      }
      layer.run(runs)
      const want = reference(w, b, hidden, inputs, layer.x, layer.runStart, layer.runEnd, runs)
      let same = true
      for (let j = 0; j < hidden; j++) if (!Object.is(layer.out[j], want[j])) same = false
      if (!same) t.fail(`${hidden} × ${inputs}, trial ${trial}: activations differ`)
    }
    t.pass(`${hidden} × ${inputs}: 20 inputs, every activation identical`)
  }
})

t.test('rejects weights that do not fit the shape', async (t) => {
  t.throws(() => new HiddenLayer(new Float32Array(10), new Float32Array(2), 2, 4))
  t.throws(() => new HiddenLayer(new Float32Array(12), new Float32Array(2), 2, 6))
})
