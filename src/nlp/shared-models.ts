// The engine's models in shared memory, for the analysis pool: the main thread loads the model
// files once and copies every typed array into a SharedArrayBuffer; each worker is handed that
// value (a structured clone, which shares such buffers instead of copying them) and rebuilds the
// engine's models around the same memory. The tables are read-only once loaded, so one copy per
// node serves every worker, instead of one per worker (~40 MB each), and the workers' caches
// hold one working set. Small plain values (the confidence model, the relation calibrations,
// the place and valence Maps) are copied by the clone.
import { HiddenLayer } from './layer.ts'
import { IdFloatMap, IdIndex, IdIntMap, type IdFloatTable, type IdIndexTable, type IdIntTable } from './tables.ts'
import type { EngineModels } from './index.ts'

/** EngineModels as a value that can be posted to a worker, its typed arrays in shared memory. */
export interface SharedEngineModels {
  readonly models: unknown
  /** Bytes of shared memory it holds. */
  readonly bytes: number
}

/** An IdIndex, IdIntMap or IdFloatMap as posted: its arrays, rebuilt into the class around the same memory (./tables.ts). */
interface TableValue {
  $table: 'IdIndex' | 'IdIntMap' | 'IdFloatMap'
  arrays: IdIndexTable | IdIntTable | IdFloatTable
}

type TypedArray = Exclude<NodeJS.TypedArray, DataView>

function sharedCopy(a: TypedArray, counter: { bytes: number }): TypedArray {
  const Ctor = a.constructor as new (b: SharedArrayBuffer) => TypedArray
  const copy = new Ctor(new SharedArrayBuffer(a.byteLength))
  copy.set(a as never)
  counter.bytes += a.byteLength
  return copy
}

function toShared(v: unknown, counter: { bytes: number }): unknown {
  if (ArrayBuffer.isView(v)) {
    if (v instanceof DataView) throw new Error('shared models: a DataView in a model is not shared')
    return v.buffer instanceof SharedArrayBuffer ? v : sharedCopy(v as TypedArray, counter)
  }
  if (v instanceof IdIndex || v instanceof IdIntMap || v instanceof IdFloatMap) {
    const arrays = toShared(v.table(), counter) as TableValue['arrays']
    return { $table: v instanceof IdIndex ? 'IdIndex' : v instanceof IdIntMap ? 'IdIntMap' : 'IdFloatMap', arrays } satisfies TableValue
  }
  // Its WebAssembly memory holds the layer's scratch space too: each thread builds its own (below).
  if (v instanceof HiddenLayer) return undefined
  if (v instanceof Map || v instanceof Set) return v
  if (Array.isArray(v)) return v.map((x) => toShared(x, counter))
  if (typeof v === 'function') throw new Error('shared models: a function in a model cannot be posted to a worker')
  if (v !== null && typeof v === 'object') {
    if (Object.getPrototypeOf(v) !== Object.prototype) {
      throw new Error(`shared models: an instance of ${v.constructor.name} in a model would lose its class in a worker`)
    }
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toShared(x, counter)]))
  }
  return v
}

/** The models with their typed arrays copied into shared memory, to post to workers. */
export function shareEngineModels(models: EngineModels): SharedEngineModels {
  const counter = { bytes: 0 }
  const shared = toShared(models, counter)
  return { models: shared, bytes: counter.bytes }
}

function fromShared(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(fromShared)
  if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v) || v instanceof Map || v instanceof Set) return v
  if ('$table' in v) {
    const { $table, arrays } = v as TableValue
    if ($table === 'IdFloatMap') return new IdFloatMap(arrays as IdFloatTable)
    return $table === 'IdIndex' ? new IdIndex(arrays as IdIndexTable) : new IdIntMap(arrays as IdIntTable)
  }
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fromShared(x)]))
}

/** The engine's models over a SharedEngineModels' memory (in a worker: as posted), nothing copied but the small plain values. */
export function engineModelsFromShared(shared: SharedEngineModels): EngineModels {
  const models = fromShared(shared.models) as EngineModels
  const s = models.sentiment
  s.layer = new HiddenLayer(s.w1, s.b1, s.hidden, s.w1.length / s.hidden)
  return models
}
