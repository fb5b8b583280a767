// Read-only tables of the loaded models, keyed by 30-bit ids (feature ids, word and phrase
// hashes: see features/hashing.ts). A Map of n numbers costs about 60 bytes an entry on the V8 heap,
// and a Map of small Float32Arrays several hundred (each array is an object of its own); an
// open-addressing index in two Int32Arrays with the values in one typed array costs 8–16 bytes
// an entry at half load, off the garbage-collected heap, and looks up as fast. Each analysis
// worker holds its own copy of every model, so this is paid once per worker.

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
    // The keys alone: reading the row too would cost a second cache miss (the skip words).
    const { keys, mask } = this
    let h = id & mask
    for (;;) {
      const k = keys[h]
      if (k === id) return true
      if (k === EMPTY) return false
      h = (h + 1) & mask
    }
  }
}

/**
 * Id → 32-bit integer, read-only; reads like the Map it replaces. Each slot holds the id and its
 * value side by side, so that a lookup in a table larger than the caches (the gazetteer, the
 * 100k words of the cluster table) costs one cache miss, not three (keys, rows, values).
 */
export class IdIntMap {
  readonly size: number
  /** Slot k: `slots[2k]` the id (EMPTY when free), `slots[2k + 1]` its value. */
  private readonly slots: Int32Array
  private readonly mask: number

  /** `ids[k]` maps to `values[k]`. */
  constructor(ids: ArrayLike<number>, values: ArrayLike<number>) {
    if (ids.length !== values.length) throw new Error(`tables: ${ids.length} ids but ${values.length} values`)
    let cap = 16
    while (cap < ids.length * 2) cap *= 2
    this.slots = new Int32Array(cap * 2).fill(EMPTY)
    this.mask = cap - 1
    let size = 0
    for (let r = 0; r < ids.length; r++) {
      const id = ids[r]
      if (!Number.isInteger(id) || id < 0 || id >= 2 ** 31) throw new Error(`tables: id ${id} is not a non-negative 31-bit integer`)
      let h = id & this.mask
      while (this.slots[2 * h] !== EMPTY && this.slots[2 * h] !== id) h = (h + 1) & this.mask
      if (this.slots[2 * h] === EMPTY) size++
      // A repeated id keeps its last value, as Map.set would.
      this.slots[2 * h] = id
      this.slots[2 * h + 1] = values[r]
    }
    this.size = size
  }

  /** The value of `id`, or `missing` when absent. */
  getOr(id: number, missing: number): number {
    const at = this.valueAt(id)
    return at < 0 ? missing : this.slots[at]
  }

  get(id: number): number | undefined {
    const at = this.valueAt(id)
    return at < 0 ? undefined : this.slots[at]
  }

  /** Where `id`'s value sits in `slots`, or -1. */
  private valueAt(id: number): number {
    const { slots, mask } = this
    let h = id & mask
    for (;;) {
      const k = slots[2 * h]
      if (k === id) return 2 * h + 1
      if (k === EMPTY) return -1
      h = (h + 1) & mask
    }
  }
}
