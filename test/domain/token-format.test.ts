import t from 'tap'
import { generateToken, hashToken, isWellFormedToken, tokenPreview } from '../../src/domain/token-format.ts'

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
