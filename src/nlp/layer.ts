// The sentiment network's first layer (./sentiment.ts) in WebAssembly SIMD. In JavaScript it
// was the largest single cost after the tagger's table lookups: every product and sum is a
// scalar double operation with a bounds check, and each hidden unit's four running sums form
// one chain of dependent additions. Here two hidden units go through the input together, two
// doubles per instruction, which keeps four chains of additions in flight instead of one.
//
// The arithmetic is exactly that of the JavaScript loop it replaces: each weight is the float32
// widened to a double, each product and each sum is one IEEE double operation (WebAssembly has
// no fused multiply-add unless asked), every unit keeps four sums, a0 started at its bias, that
// each add their terms in input order, and a0 + a1 + a2 + a3 is added up left to right. So every
// activation, and every sentiment, is bit for bit what it was.

/** Bytes of the module's one function, `layer(w, stride, b, x, rs, re, runs, out, h)` (see HiddenLayer.run). */
function moduleBytes(): Uint8Array<ArrayBuffer> {
  const leb = (n: number): number[] => {
    const out: number[] = []
    do {
      let b = n & 0x7f
      n >>>= 7
      if (n) b |= 0x80
      out.push(b)
    } while (n)
    return out
  }
  // Signed LEB128 for i32.const of small non-negative numbers (below 64).
  const i32 = (n: number) => [0x41, n]
  const get = (i: number) => [0x20, i]
  const set = (i: number) => [0x21, i]
  const simd = (op: number, ...imm: number[]) => [0xfd, ...leb(op), ...imm]
  const ADD = 0x6a,
    MUL = 0x6c,
    SHL = 0x74,
    GE_S = 0x4e,
    GE_U = 0x4f
  const F64_ADD = 0xa0
  const block = [0x02, 0x40],
    loop = [0x03, 0x40],
    end = 0x0b
  const brIf = (d: number) => [0x0d, d],
    br = (d: number) => [0x0c, d]
  const i32Load = [0x28, 2, 0]
  const f64Load = (off: number) => [0x2b, 3, off]
  const f64Store = (off: number) => [0x39, 3, off]
  const v128Load = (off: number) => simd(0x00, 3, off)
  const load64Zero = (off: number) => simd(0x5d, 2, off)
  const promoteLow = simd(0x5f)
  const f64x2Add = simd(0xf0),
    f64x2Mul = simd(0xf2)
  const lane = (l: number) => simd(0x21, l)
  const replaceLane0 = simd(0x22, 0)
  const zero = simd(0x0c, ...new Array<number>(16).fill(0))

  // Parameters 0–8, then locals.
  const W = 0,
    STRIDE = 1,
    Bias = 2,
    X = 3,
    RS = 4,
    RE = 5,
    RUNS = 6,
    OUT = 7,
    H = 8
  const J = 9,
    R = 10,
    K = 11,
    E = 12,
    Q = 13,
    D = 14
  const A0 = 15,
    A1 = 16,
    A2 = 17,
    A3 = 18,
    X01 = 19,
    X23 = 20

  // acc += widen(weights at byte k + off) * x (two lanes).
  const term = (acc: number, kPlusD: boolean, off: number, x: number) => [
    ...get(acc),
    ...get(K),
    ...(kPlusD ? [...get(D), ADD] : []),
    ...load64Zero(off),
    ...promoteLow,
    ...get(x),
    ...f64x2Mul,
    ...f64x2Add,
    ...set(acc),
  ]
  // The byte address of weight (unit j, column list[r]): w + (j * stride + list[r]) * 4.
  const rowAt = (list: number) => [
    ...get(W),
    ...get(J),
    ...get(STRIDE),
    MUL,
    ...get(list),
    ...get(R),
    ...i32(2),
    SHL,
    ADD,
    ...i32Load,
    ADD,
    ...i32(2),
    SHL,
    ADD,
  ]
  const sum = (lo: number, hi: number) => [
    ...get(lo),
    ...lane(0),
    ...get(lo),
    ...lane(1),
    F64_ADD,
    ...get(hi),
    ...lane(0),
    F64_ADD,
    ...get(hi),
    ...lane(1),
    F64_ADD,
  ]
  const biasOf = (off: number) => [...zero, ...get(Bias), ...get(J), ...i32(3), SHL, ADD, ...f64Load(off), ...replaceLane0]

  const body = [
    // Local declarations: six i32, six v128.
    2,
    6,
    0x7f,
    6,
    0x7b,
    ...get(STRIDE),
    ...i32(2),
    SHL,
    ...set(D),
    ...block,
    ...loop,
    ...get(J),
    ...get(H),
    GE_S,
    ...brIf(1),
    ...biasOf(0),
    ...set(A0),
    ...zero,
    ...set(A1),
    ...biasOf(8),
    ...set(A2),
    ...zero,
    ...set(A3),
    ...get(X),
    ...set(Q),
    ...i32(0),
    ...set(R),
    ...block,
    ...loop,
    ...get(R),
    ...get(RUNS),
    GE_S,
    ...brIf(1),
    ...rowAt(RS),
    ...set(K),
    ...rowAt(RE),
    ...set(E),
    ...block,
    ...loop,
    ...get(K),
    ...get(E),
    GE_U,
    ...brIf(1),
    ...get(Q),
    ...v128Load(0),
    ...set(X01),
    ...get(Q),
    ...v128Load(16),
    ...set(X23),
    ...term(A0, false, 0, X01),
    ...term(A1, false, 8, X23),
    ...term(A2, true, 0, X01),
    ...term(A3, true, 8, X23),
    ...get(K),
    ...i32(16),
    ADD,
    ...set(K),
    ...get(Q),
    ...i32(32),
    ADD,
    ...set(Q),
    ...br(0),
    end,
    end,
    ...get(R),
    ...i32(1),
    ADD,
    ...set(R),
    ...br(0),
    end,
    end,
    ...get(OUT),
    ...get(J),
    ...i32(3),
    SHL,
    ADD,
    ...sum(A0, A1),
    ...f64Store(0),
    ...get(OUT),
    ...get(J),
    ...i32(3),
    SHL,
    ADD,
    ...sum(A2, A3),
    ...f64Store(8),
    ...get(J),
    ...i32(2),
    ADD,
    ...set(J),
    ...br(0),
    end,
    end,
    end,
  ]
  const section = (id: number, content: number[]) => [id, ...leb(content.length), ...content]
  const name = (s: string) => [s.length, ...Array.from(s, (c) => c.charCodeAt(0))]
  return new Uint8Array([
    0x00,
    0x61,
    0x73,
    0x6d,
    0x01,
    0x00,
    0x00,
    0x00,
    ...section(1, [1, 0x60, 9, ...new Array<number>(9).fill(0x7f), 0]),
    // Memory imported, so that its size can follow the model's.
    ...section(2, [1, ...name('env'), ...name('mem'), 0x02, 0x00, 0]),
    ...section(3, [1, 0]),
    ...section(7, [1, ...name('layer'), 0x00, 0]),
    ...section(10, [1, ...leb(body.length), ...body]),
  ])
}

const compiled = new WebAssembly.Module(moduleBytes())

/**
 * A layer of `hidden` units over `inputs` inputs (a multiple of 4) with float32 weights (row-major)
 * and biases, copied into WebAssembly memory; the caller writes the non-zero stretches of the
 * input into `x`, `runStart` and `runEnd`, calls `run`, and reads `out`.
 */
export class HiddenLayer {
  /** The input's non-zero stretches one after the other (what `run` reads), as doubles. */
  readonly x: Float64Array
  /** Stretch r covers inputs [runStart[r], runEnd[r]); both multiples of 4. */
  readonly runStart: Int32Array
  readonly runEnd: Int32Array
  /** Activation before the nonlinearity, per unit. */
  readonly out: Float64Array
  private readonly layer: (
    w: number,
    stride: number,
    b: number,
    x: number,
    rs: number,
    re: number,
    runs: number,
    out: number,
    h: number,
  ) => void
  private readonly at: { w: number; b: number; x: number; rs: number; re: number; out: number }
  private readonly units: number

  constructor(
    w: Float32Array,
    b: Float32Array,
    readonly hidden: number,
    readonly inputs: number,
  ) {
    if (inputs % 4 !== 0 || w.length !== hidden * inputs || b.length !== hidden)
      throw new Error(`layer: ${w.length} weights and ${b.length} biases for ${hidden} × ${inputs}`)
    // Units go in pairs: an odd one out is paired with a unit of zero weights whose output is never read.
    this.units = hidden + (hidden & 1)
    const align = (n: number) => (n + 15) & ~15
    let top = 0
    const take = (bytes: number) => {
      const a = top
      top = align(top + bytes)
      return a
    }
    const at = {
      w: take(this.units * inputs * 4),
      b: take(this.units * 8),
      x: take(inputs * 8),
      rs: take(inputs),
      re: take(inputs),
      out: take(this.units * 8),
    }
    const memory = new WebAssembly.Memory({ initial: Math.ceil(top / 65536) })
    const buf = memory.buffer
    new Float32Array(buf, at.w, hidden * inputs).set(w)
    new Float64Array(buf, at.b, hidden).set(b)
    this.x = new Float64Array(buf, at.x, inputs)
    this.runStart = new Int32Array(buf, at.rs, inputs / 4)
    this.runEnd = new Int32Array(buf, at.re, inputs / 4)
    this.out = new Float64Array(buf, at.out, hidden)
    this.at = at
    const instance = new WebAssembly.Instance(compiled, { env: { mem: memory } })
    this.layer = instance.exports.layer as HiddenLayer['layer']
  }

  /** Fills `out` from the first `runs` stretches of the input. */
  run(runs: number): void {
    const { at } = this
    this.layer(at.w, this.inputs, at.b, at.x, at.rs, at.re, runs, at.out, this.units)
  }
}
