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

/** True when the token has the prefix, the right length and alphabet, and a matching checksum. */
export function isWellFormedToken(token: string, prefix: string): boolean {
  if (token.length !== prefix.length + RANDOM_LENGTH + CHECKSUM_LENGTH || !token.startsWith(prefix)) return false
  const body = token.slice(prefix.length)
  if (!/^[0-9A-Za-z]+$/.test(body)) return false
  return checksum(body.slice(0, RANDOM_LENGTH)) === body.slice(RANDOM_LENGTH)
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
