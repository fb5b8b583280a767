// Token format (product decision, as GitHub does): `<prefix>` + 32 random base62 characters
// + a 6-character base62 CRC32 of the random part. The checksum lets us reject a mistyped
// token without touching the database, and lets secret scanners recognise leaked ones.
import { hash, randomInt } from 'node:crypto'
import { crc32 } from 'node:zlib'

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
const RANDOM_LENGTH = 32
const CHECKSUM_LENGTH = 6

function base62(n: number, width: number): string {
  let out = ''
  for (let i = 0; i < width; i++) {
    out = ALPHABET[n % 62] + out
    n = Math.floor(n / 62)
  }
  return out
}

function checksum(random: string): string {
  return base62(crc32(random) >>> 0, CHECKSUM_LENGTH)
}

export function generateToken(prefix: string): string {
  let random = ''
  for (let i = 0; i < RANDOM_LENGTH; i++) random += ALPHABET[randomInt(62)]
  return prefix + random + checksum(random)
}

/** Each base62 character's value by its char code; -1 outside the alphabet. */
const DIGIT = new Int8Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) DIGIT[ALPHABET.charCodeAt(i)] = i

/** True when the token has the prefix, the right length and alphabet, and a matching checksum. */
export function isWellFormedToken(token: string, prefix: string): boolean {
  if (token.length !== prefix.length + RANDOM_LENGTH + CHECKSUM_LENGTH || !token.startsWith(prefix)) return false
  // Every request checks its token: the alphabet and the checksum's value are read in one pass,
  // without building the checksum's text (6 base62 digits hold any CRC32 exactly, so the values
  // are equal exactly when the texts are).
  const checksumAt = prefix.length + RANDOM_LENGTH
  let given = 0
  for (let i = prefix.length; i < token.length; i++) {
    const c = token.charCodeAt(i)
    const d = c < 128 ? DIGIT[c] : -1
    if (d < 0) return false
    if (i >= checksumAt) given = given * 62 + d
  }
  return given === crc32Ascii(token, prefix.length, checksumAt)
}

/** CRC-32 (zlib's) of the characters of `s` from `start` to `end`, each an ASCII byte: no buffer, no native call. */
const CRC_TABLE = new Int32Array(256)
for (let n = 0; n < 256; n++) {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  CRC_TABLE[n] = c
}
export function crc32Ascii(s: string, start = 0, end = s.length): number {
  let crc = -1
  for (let i = start; i < end; i++) crc = CRC_TABLE[(crc ^ s.charCodeAt(i)) & 0xff] ^ (crc >>> 8)
  return (crc ^ -1) >>> 0
}

/** What we store: hex SHA-256 of the whole token. */
export function hashToken(token: string): string {
  // One-shot: a third of the CPU of createHash().update().digest() (every request hashes its token).
  return hash('sha256', token, 'hex')
}

/** What we show in lists: the prefix and four characters, `tea_live_AbCd…`. */
export function tokenPreview(token: string, prefix: string): string {
  return token.slice(0, prefix.length + 4) + '…'
}
