// Read-only tables of the loaded models, keyed by 30-bit ids (feature ids, word and phrase
// hashes: see features.ts). A Map of n numbers costs about 60 bytes an entry on the V8 heap,
// and a Map of small Float32Arrays several hundred (each array is an object of its own); an
// open-addressing index in two Int32Arrays with the values in one typed array costs 8–16 bytes
// an entry at half load, off the garbage-collected heap, and looks up as fast. Each analysis
// worker holds its own copy of every model, so this is paid once per worker (issue 5).

/** Marks an empty slot: ids are non-negative 30-bit integers, so -1 is never one. */
const EMPTY = -1

/** Id → row (the id's position in the list it was built from), by linear probing. */
export class IdIndex {
  readonly size: number
  private readonly keys: Int32Array
  private readonly rows: Int32Array
  private readonly mask: number

  constructor(ids: ArrayLike<number>) {
    let cap = 16
    while (cap < ids.length * 2) cap *= 2
    this.keys = new Int32Array(cap).fill(EMPTY)
    this.rows = new Int32Array(cap)
    this.mask = cap - 1
    let size = 0
    for (let r = 0; r < ids.length; r++) {
      const id = ids[r]
      if (!Number.isInteger(id) || id < 0 || id >= 2 ** 31) throw new Error(`tables: id ${id} is not a non-negative 31-bit integer`)
      let h = id & this.mask
      while (this.keys[h] !== EMPTY && this.keys[h] !== id) h = (h + 1) & this.mask
      if (this.keys[h] === EMPTY) size++
      // A repeated id keeps its last row, as Map.set would.
      this.keys[h] = id
      this.rows[h] = r
    }
    this.size = size
  }

  /** The row of `id`, or -1. */
  row(id: number): number {
    const { keys, mask } = this
    let h = id & mask
    for (;;) {
      const k = keys[h]
      if (k === id) return this.rows[h]
      if (k === EMPTY) return -1
      h = (h + 1) & mask
    }
  }

  has(id: number): boolean {
    return this.row(id) >= 0
  }
}

/** Id → 32-bit integer, read-only; reads like the Map it replaces. */
export class IdIntMap {
  private readonly index: IdIndex
  private readonly values: Int32Array

  /** `ids[k]` maps to `values[k]`. */
  constructor(ids: ArrayLike<number>, values: ArrayLike<number>) {
    if (ids.length !== values.length) throw new Error(`tables: ${ids.length} ids but ${values.length} values`)
    this.index = new IdIndex(ids)
    this.values = Int32Array.from(values)
  }

  get size(): number {
    return this.index.size
  }

  get(id: number): number | undefined {
    const r = this.index.row(id)
    return r < 0 ? undefined : this.values[r]
  }
}
