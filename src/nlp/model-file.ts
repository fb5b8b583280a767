// The binary model files (tagger, sentiment): gzip( uint32 header length | JSON header | typed
// arrays back to back ). The header says how long each array is; the reader takes them in order.
import { readFileSync } from 'node:fs'
import { gunzipSync, gzipSync } from 'node:zlib'

export function encodeModelFile(header: object, arrays: ArrayBufferView[]): Buffer {
  const h = Buffer.from(JSON.stringify(header), 'utf8')
  const len = Buffer.alloc(4)
  len.writeUInt32LE(h.length)
  const parts = arrays.map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength))
  return gzipSync(Buffer.concat([len, h, ...parts]), { level: 9 })
}

export interface ModelFileReader<H> {
  header: H
  /** The next `bytes` of the body, copied into a fresh (so aligned) buffer. */
  take(bytes: number): ArrayBuffer
}

export function readModelFile<H>(path: string | URL): ModelFileReader<H> {
  const raw = gunzipSync(readFileSync(path))
  const hlen = raw.readUInt32LE(0)
  const header = JSON.parse(raw.subarray(4, 4 + hlen).toString('utf8')) as H
  // Copied, because the gunzipped body starts at an arbitrary byte offset and typed arrays
  // need their element alignment.
  let at = 4 + hlen
  return {
    header,
    take(bytes: number) {
      const b = new Uint8Array(bytes)
      b.set(raw.subarray(at, at + bytes))
      at += bytes
      return b.buffer
    },
  }
}
