// Read-only tables of the loaded models, keyed by 30-bit ids (feature ids, word and phrase
// hashes: see features/hashing.ts). A Map of n numbers costs about 60 bytes an entry on the V8 heap,
// and a Map of small Float32Arrays several hundred (each array is an object of its own); an
// open-addressing index in two Int32Arrays with the values in one typed array costs 8–16 bytes
// an entry at half load, off the garbage-collected heap, and looks up as fast. Their typed
// arrays are all of their state, so the pool's workers can read one copy of them in shared
// memory (`table()`, and the constructor given a table: ./shared-models.ts).

/** Marks an empty slot: ids are non-negative 30-bit integers, so -1 is never one. */
const EMPTY = -1

/** A table's slot count: a power of two, at least twice the ids. */
function capacity(n: number): number {
  let cap = 16
  while (cap < n * 2) cap *= 2
  return cap
}

function checkId(id: number): void {
  if (!Number.isInteger(id) || id < 0 || id >= 2 ** 31) throw new Error(`tables: id ${id} is not a non-negative 31-bit integer`)
}

/** An IdIndex's state: `keys` of a power-of-two length (EMPTY where free) and each key's row. */
export interface IdIndexTable {
  size: number
  keys: Int32Array
  rows: Int32Array
}

function indexTable(ids: ArrayLike<number>): IdIndexTable {
  const cap = capacity(ids.length)
  const keys = new Int32Array(cap).fill(EMPTY)
  const rows = new Int32Array(cap)
  const mask = cap - 1
  let size = 0
  for (let r = 0; r < ids.length; r++) {
    const id = ids[r]
    checkId(id)
    let h = id & mask
    while (keys[h] !== EMPTY && keys[h] !== id) h = (h + 1) & mask
    if (keys[h] === EMPTY) size++
    // A repeated id keeps its last row, as Map.set would.
    keys[h] = id
    rows[h] = r
  }
  return { size, keys, rows }
}

/** Id → row (the id's position in the list it was built from), by linear probing. */
export class IdIndex {
  readonly size: number
  private readonly keys: Int32Array
  private readonly rows: Int32Array
  private readonly mask: number

  /** The index of `ids`, or the one over a `table()`'s arrays as they are (not copied). */
  constructor(ids: ArrayLike<number> | IdIndexTable) {
    const t = 'length' in ids ? indexTable(ids) : ids
    this.size = t.size
    this.keys = t.keys
    this.rows = t.rows
    this.mask = t.keys.length - 1
  }

  /** The arrays that make the index, to be read only. */
  table(): IdIndexTable {
    return { size: this.size, keys: this.keys, rows: this.rows }
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

/** An IdIntMap's state: slot k is `slots[2k]` the id (EMPTY when free), `slots[2k + 1]` its value; a power-of-two count of slots. */
export interface IdIntTable {
  size: number
  slots: Int32Array
}

function intTable(ids: ArrayLike<number>, values: ArrayLike<number>): IdIntTable {
  if (ids.length !== values.length) throw new Error(`tables: ${ids.length} ids but ${values.length} values`)
  const cap = capacity(ids.length)
  const slots = new Int32Array(cap * 2).fill(EMPTY)
  const mask = cap - 1
  let size = 0
  for (let r = 0; r < ids.length; r++) {
    const id = ids[r]
    checkId(id)
    let h = id & mask
    while (slots[2 * h] !== EMPTY && slots[2 * h] !== id) h = (h + 1) & mask
    if (slots[2 * h] === EMPTY) size++
    // A repeated id keeps its last value, as Map.set would.
    slots[2 * h] = id
    slots[2 * h + 1] = values[r]
  }
  return { size, slots }
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

  /** `ids[k]` maps to `values[k]`; or the map over a `table()`'s array as it is (not copied). */
  constructor(ids: IdIntTable)
  constructor(ids: ArrayLike<number>, values: ArrayLike<number>)
  constructor(ids: ArrayLike<number> | IdIntTable, values?: ArrayLike<number>) {
    const t = 'length' in ids ? intTable(ids, values ?? []) : ids
    this.size = t.size
    this.slots = t.slots
    this.mask = t.slots.length / 2 - 1
  }

  /** The array that makes the map, to be read only. */
  table(): IdIntTable {
    return { size: this.size, slots: this.slots }
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

/** An IdFloatMap's state: `keys` as in an IdIndexTable, `values[k]` the value of the id in slot k. */
export interface IdFloatTable {
  size: number
  keys: Int32Array
  values: Float64Array
}

/**
 * Id → float64, read-only: the ids probed as in an IdIndex, each value stored at its id's slot, so
 * that an id found costs two likely cache misses (its key, its value), not three (key, row, then
 * the value at that row).
 */
export class IdFloatMap {
  readonly size: number
  private readonly keys: Int32Array
  private readonly values: Float64Array
  private readonly mask: number

  /** The map of `ids` to `values`, or the one over a `table()`'s arrays as they are (not copied). */
  constructor(ids: ArrayLike<number> | IdFloatTable, values: ArrayLike<number> = []) {
    let t: IdFloatTable
    if ('length' in ids) {
      if (ids.length !== values.length) throw new Error(`tables: ${ids.length} ids but ${values.length} values`)
      const it = indexTable(ids)
      t = { size: it.size, keys: it.keys, values: new Float64Array(it.keys.length) }
      for (let h = 0; h < it.keys.length; h++) if (it.keys[h] !== EMPTY) t.values[h] = values[it.rows[h]]
    } else t = ids
    this.size = t.size
    this.keys = t.keys
    this.values = t.values
    this.mask = t.keys.length - 1
  }

  /** The arrays that make the map, to be read only. */
  table(): IdFloatTable {
    return { size: this.size, keys: this.keys, values: this.values }
  }

  /** The value of `id`, or `otherwise`. */
  getOr(id: number, otherwise: number): number {
    const { keys, mask } = this
    let h = id & mask
    for (;;) {
      const k = keys[h]
      if (k === id) return this.values[h]
      if (k === EMPTY) return otherwise
      h = (h + 1) & mask
    }
  }
}
