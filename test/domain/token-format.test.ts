import t from 'tap'
import { crc32 } from 'node:zlib'
import { crc32Ascii, generateToken, hashToken, isWellFormedToken, tokenPreview } from '../../src/domain/token-format.ts'

t.test('tokens: prefix, 32 random base62, 6-character base62 CRC32 checksum', async (t) => {
  const seen = new Set<string>()
  for (let i = 0; i < 200; i++) {
    const token = generateToken('tea_live_')
    t.match(token, /^tea_live_[0-9A-Za-z]{38}$/)
    t.ok(isWellFormedToken(token, 'tea_live_'))
    seen.add(token)
  }
  t.equal(seen.size, 200, 'random')
})

t.test('a mistyped token fails the checksum', async (t) => {
  const token = generateToken('tea_live_')
  const body = token.slice(9)
  let rejected = 0
  for (let i = 0; i < body.length; i++) {
    const c = body[i] === 'x' ? 'y' : 'x'
    const typo = 'tea_live_' + body.slice(0, i) + c + body.slice(i + 1)
    if (!isWellFormedToken(typo, 'tea_live_')) rejected++
  }
  t.equal(rejected, body.length, 'every single-character typo is caught')
  const swapped = 'tea_live_' + body[1] + body[0] + body.slice(2)
  if (body[0] !== body[1]) t.notOk(isWellFormedToken(swapped, 'tea_live_'), 'a transposition is caught')
  t.notOk(isWellFormedToken(token + 'a', 'tea_live_'), 'too long')
  t.notOk(isWellFormedToken(token.slice(0, -1), 'tea_live_'), 'too short')
  t.notOk(isWellFormedToken(token, 'abc_live_'), 'another prefix')
  t.notOk(isWellFormedToken(token.replace('A', '-'), 'tea_live_') && token.includes('A'), 'alphabet')
})

t.test('hash and preview', async (t) => {
  const token = generateToken('tea_live_')
  t.match(hashToken(token), /^[0-9a-f]{64}$/)
  t.equal(hashToken(token), hashToken(token))
  t.equal(tokenPreview(token, 'tea_live_'), token.slice(0, 13) + '…')
  t.notOk(hashToken(token).includes(token.slice(9, 20)))
})

t.test("the checksum's CRC-32 is zlib's", async (t) => {
  t.equal(crc32Ascii('123456789'), 0xcbf43926, 'the check value of CRC-32')
  t.equal(crc32Ascii(''), 0)
  t.equal(crc32Ascii('xx123456789yy', 2, 11), 0xcbf43926, 'a slice of the text')
  for (let i = 0; i < 100; i++) {
    const s = generateToken('tea_live_')
    t.equal(crc32Ascii(s), crc32(s) >>> 0)
  }
})

t.test('a token with a character outside base62, or outside ASCII, is refused', async (t) => {
  const token = generateToken('tea_live_')
  for (const c of ['-', '_', ' ', 'é', '\u0100', '\u{1F600}'.slice(0, 1)]) {
    t.notOk(isWellFormedToken(token.slice(0, 20) + c + token.slice(21), 'tea_live_'), `in the random part: ${JSON.stringify(c)}`)
    t.notOk(isWellFormedToken(token.slice(0, -1) + c, 'tea_live_'), `in the checksum: ${JSON.stringify(c)}`)
  }
  // A checksum whose digits are all valid but whose value exceeds any CRC-32.
  t.notOk(isWellFormedToken(token.slice(0, -6) + 'zzzzzz', 'tea_live_'))
})
