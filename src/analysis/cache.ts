// Two-level analysis cache (product decisions): an in-process LRU bounded in bytes in front
// of a shared table, so every node, and a restarted node, sees the same 24 hours.
// Keys are per account. Nothing readable about the text is stored: the table holds a hash of
// a hash as the key and the result encrypted with a key only the text itself yields.
import { createCipheriv, createDecipheriv, hash, randomBytes } from 'node:crypto'
import { LRUCache } from 'lru-cache'
import type { CacheRepository } from '../db/repositories/cache.ts'
import type { Analysis } from '../nlp/types.ts'
import type { Clock } from '../domain/clock.ts'
import { analysisFromJson, analysisJson } from './analysis-json.ts'

export const CACHE_TTL_MS = 24 * 60 * 60 * 1000

export interface CacheKey {
  accountId: string
  /** Stored: identifies the entry, reveals nothing about the text. */
  key: string
  /** Never stored: decrypts the entry. */
  readonly secret: Buffer
}

/** An analysis as a worker sends it: JSON text, with its model and language read out. */
export interface AnalysisText {
  json: string
  model: string
  language: string
}

/** A worker's analysis as the in-process level keeps it: its JSON text as UTF-8 bytes. */
export interface AnalysisBytes {
  utf8: Buffer
  model: string
  language: string
}

/**
 * A cached analysis: its objects, or the JSON text a worker sent, parsed on first use. A result
 * that only default-options requests use is then never parsed on the main thread (its response
 * text comes from the worker, `body`). The in-process level keeps a worker's JSON text and
 * response text as UTF-8 bytes outside V8's heap: as strings, each uncached result's ~18 KB were
 * copied by the young generation's collections, promoted and then marked and compacted in the
 * old one, although most entries are never read again; the response text is decoded (once) by
 * the first request that uses it.
 */
export class CachedAnalysis {
  /** The default-options response text of the analysis, written on first use (response-body.ts). */
  body: string | undefined
  /** The same as UTF-8 bytes, until `keptBody` decodes it. */
  #bodyUtf8: Buffer | undefined
  #analysis: Analysis | undefined
  readonly #json: string | Buffer | undefined
  readonly #model: string | undefined
  readonly #language: string | undefined
  constructor(
    from: Analysis | AnalysisText | AnalysisBytes,
    readonly createdAt: Date,
    /** The default-options response text of the analysis, if at hand (as text or UTF-8 bytes). */
    body?: string | Buffer,
  ) {
    if ('json' in from || 'utf8' in from) {
      this.#json = 'json' in from ? from.json : from.utf8
      this.#model = from.model
      this.#language = from.language
      this.#analysis = undefined
    } else {
      this.#json = undefined
      this.#model = undefined
      this.#language = undefined
      this.#analysis = from
    }
    if (typeof body === 'object') {
      this.body = undefined
      this.#bodyUtf8 = body
    } else {
      this.body = body
      this.#bodyUtf8 = undefined
    }
  }
  /** The response text kept as bytes, decoded (once: it is then `body`), or undefined when none was kept. */
  keptBody(): string | undefined {
    const utf8 = this.#bodyUtf8
    if (utf8 === undefined) return undefined
    this.#bodyUtf8 = undefined
    return (this.body = utf8.toString('utf8'))
  }
  get analysis(): Analysis {
    if (this.#analysis) return this.#analysis
    const json = this.#json!
    return (this.#analysis = analysisFromJson(typeof json === 'string' ? json : json.toString('utf8')))
  }
  get model(): string {
    return this.#model ?? this.#analysis!.model
  }
  get language(): string {
    return this.#language ?? this.#analysis!.language
  }
}

const KEY_LABEL = Buffer.from('tea-cache-key\0')
const SECRET_LABEL = Buffer.from('tea-cache-secret\0')

/** A class, not an object literal with a getter: such a literal is built as a slow object on every call. */
class DerivedCacheKey implements CacheKey {
  readonly key: string
  #secret: Buffer | undefined = undefined
  constructor(
    readonly accountId: string,
    private readonly digest: Buffer,
  ) {
    this.key = hash('sha256', Buffer.concat([KEY_LABEL, digest]), 'hex')
  }
  get secret(): Buffer {
    return (this.#secret ??= hash('sha256', Buffer.concat([SECRET_LABEL, this.digest]), 'buffer'))
  }
}

/**
 * The shape of a cached analysis. Entries of another shape are never looked up: those written
 * before the analysis kept its detail (`Analysis.detail`, the mentions) would answer only the
 * short form.
 */
const CACHE_FORMAT = 'detail-1'

/**
 * The model and `languageHint` change the analysis (a node with a newer model, during a rolling
 * upgrade too, neither answers with nor is answered by the older one's results); the other
 * options are applied after the cache.
 * The secret is derived when first read: a hit in the in-process level never needs it.
 */
export function cacheKey(model: string, accountId: string, languageHint: string | undefined, text: string): CacheKey {
  return new DerivedCacheKey(accountId, hash('sha256', `${model}\0${CACHE_FORMAT}\0${accountId}\0${languageHint ?? ''}\0${text}`, 'buffer'))
}

/**
 * Random IVs, taken 12 bytes at a time from a block drawn from the CSPRNG: each is as random as
 * `randomBytes(12)` and used once, and one call to the generator serves 341 writes (a call
 * per write was about a third of the encryption's main-thread time, in a profile under load).
 */
const IV_BLOCK = 4092
let ivBlock = Buffer.alloc(0)
let ivAt = IV_BLOCK
function nextIv(): Buffer {
  if (ivAt + 12 > ivBlock.length) {
    ivBlock = randomBytes(IV_BLOCK)
    ivAt = 0
  }
  return ivBlock.subarray(ivAt, (ivAt += 12))
}

function encrypt(secret: Buffer, text: string | Buffer): string {
  const iv = nextIv()
  const cipher = createCipheriv('aes-256-gcm', secret, iv)
  const body = Buffer.concat([typeof text === 'string' ? cipher.update(text, 'utf8') : cipher.update(text), cipher.final()])
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')
}

function decrypt(secret: Buffer, payload: string): string {
  const raw = Buffer.from(payload, 'base64')
  const decipher = createDecipheriv('aes-256-gcm', secret, raw.subarray(0, 12))
  decipher.setAuthTag(raw.subarray(12, 28))
  return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
}

/**
 * An entry's size for the in-process level's bound, from the length of its JSON text: the
 * objects take about two bytes a character of it, and the response text kept beside them
 * (`body`, counted before it exists) about one more; a worker's entry, kept as UTF-8 bytes
 * outside the heap, about one byte a character of each until it is parsed. The callers have that text at hand (they
 * encrypt or decrypt it), so it is not serialised again to be measured.
 */
const entrySize = (jsonLength: number) => jsonLength * 3 + 64

export function createAnalysisCache(deps: { repo: CacheRepository; clock: Clock; maxBytes: number }) {
  const local =
    deps.maxBytes > 0
      ? new LRUCache<string, CachedAnalysis>({
          maxSize: deps.maxBytes,
          // Every set passes its entry's `size` (entrySize).
          ttlAutopurge: false,
        })
      : undefined
  const localKey = (k: CacheKey) => `${k.accountId}:${k.key}`
  let hits = 0
  let misses = 0

  /** The in-process level's entry, if unexpired. */
  const inProcess = (k: CacheKey, now: Date): CachedAnalysis | undefined => {
    const mine = local?.get(localKey(k))
    if (mine && now.getTime() - mine.createdAt.getTime() < CACHE_TTL_MS) {
      hits++
      return mine
    }
    return undefined
  }

  /** The entry of a row of the shared level (kept in the in-process level), or undefined for a miss. */
  const fromRow = (k: CacheKey, row: { payload: string; createdAt: Date } | undefined, now: Date): CachedAnalysis | undefined => {
    if (!row) {
      misses++
      return undefined
    }
    let analysis: Analysis
    let json: string
    try {
      json = decrypt(k.secret, row.payload)
      analysis = JSON.parse(json) as Analysis
    } catch {
      misses++
      return undefined // a key collision or a damaged row: analyse afresh
    }
    const entry = new CachedAnalysis(analysis, row.createdAt)
    local?.set(localKey(k), entry, {
      ttl: Math.max(1, CACHE_TTL_MS - (now.getTime() - row.createdAt.getTime())),
      size: entrySize(json.length),
    })
    hits++
    return entry
  }

  /** `json`: the analysis' JSON text, as text or UTF-8 bytes; `length`: its length in characters. */
  const write = async (
    k: CacheKey,
    from: Analysis | AnalysisBytes,
    json: string | Buffer,
    length: number,
    body?: string | Buffer,
  ): Promise<CachedAnalysis> => {
    const now = deps.clock()
    const createdAt = await deps.repo.put(k.accountId, k.key, encrypt(k.secret, json), now, new Date(now.getTime() - CACHE_TTL_MS))
    const entry = new CachedAnalysis(from, createdAt, body)
    local?.set(localKey(k), entry, { ttl: Math.max(1, CACHE_TTL_MS - (now.getTime() - createdAt.getTime())), size: entrySize(length) })
    return entry
  }

  return {
    async get(k: CacheKey): Promise<CachedAnalysis | undefined> {
      const now = deps.clock()
      const mine = inProcess(k, now)
      if (mine) return mine
      return fromRow(k, await deps.repo.get(k.accountId, k.key, new Date(now.getTime() - CACHE_TTL_MS)), now)
    },

    /**
     * The in-process level alone. On a miss, what the shared level's look-up needs (its key and
     * the oldest creation time still valid), for a caller that reads the table itself (in the
     * statement that counts the request), and then hands the row found, or none, to `found`.
     */
    getLocal(k: CacheKey): { hit: CachedAnalysis; lookUp?: undefined } | { hit?: undefined; lookUp: { key: string; notBefore: Date } } {
      const now = deps.clock()
      const hit = inProcess(k, now)
      return hit ? { hit } : { lookUp: { key: k.key, notBefore: new Date(now.getTime() - CACHE_TTL_MS) } }
    },

    /** The shared level's answer to a `getLocal` miss's look-up (the row found, or undefined). */
    found(k: CacheKey, row: { payload: string; createdAt: Date } | undefined): CachedAnalysis | undefined {
      return fromRow(k, row, deps.clock())
    },

    /** Writes an analysis and returns its entry. */
    async put(k: CacheKey, analysis: Analysis): Promise<CachedAnalysis> {
      const json = analysisJson(analysis)
      return write(k, analysis, json, json.length)
    },

    /**
     * Writes an analysis that came as text (`body`: its default-options response text, if the
     * caller has it) and returns its entry, which parses the text only when first asked for the objects.
     */
    async putText(k: CacheKey, text: AnalysisText, body?: string): Promise<CachedAnalysis> {
      // Encoded once: the bytes are both what is encrypted and what the entry keeps.
      const utf8 = Buffer.from(text.json, 'utf8')
      const from = { utf8, model: text.model, language: text.language }
      return write(k, from, utf8, text.json.length, body === undefined ? undefined : Buffer.from(body, 'utf8'))
    },

    /** Drops expired rows from the shared table; called periodically. */
    async prune(): Promise<number> {
      return deps.repo.deleteOlderThan(new Date(deps.clock().getTime() - CACHE_TTL_MS))
    },

    stats() {
      return { hits, misses, entries: local?.size ?? 0, bytes: local?.calculatedSize ?? 0 }
    },
  }
}
export type AnalysisCache = ReturnType<typeof createAnalysisCache>
