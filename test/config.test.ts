import t from 'tap'
import { ConfigError, loadConfig } from '../src/config.ts'
import { trustProxyOption } from '../src/app.ts'

t.test('TRUST_PROXY: a hop count or proxy addresses; never "trust every hop"', async (t) => {
  const trust = (value?: string) => loadConfig({ TRUST_PROXY: value }).trustProxy
  t.equal(trust(undefined), false, 'unset: no proxy')
  t.equal(trust('false'), false)
  t.equal(trust('0'), false)
  t.equal(trust('1'), 1)
  t.equal(trust('2'), 2)
  t.same(trust('127.0.0.1'), ['127.0.0.1'])
  t.same(trust('10.0.0.0/8, 192.168.1.7,::1, fd00::/8, loopback'), ['10.0.0.0/8', '192.168.1.7', '::1', 'fd00::/8', 'loopback'])
  for (const value of ['true', 'TRUE', 'yes']) {
    t.throws(() => trust(value), ConfigError, value)
    t.throws(
      () => trust(value),
      /TRUST_PROXY="[^"]+" is invalid; expected the number of proxies .* "true" trusted every hop, which lets any client choose its own address/,
    )
  }
  for (const value of ['10.0.0.0/33', '::1/129', 'nginx', '1.2.3', '127.0.0.1,', '17', '-1']) {
    t.throws(() => trust(value), ConfigError, value)
  }
  t.throws(() => trust('10.0.0.0/8,proxy.internal'), /"proxy\.internal" is neither/)
})

t.test('a hop count trusts exactly that many hops', async (t) => {
  const fn = trustProxyOption(2) as (address: string, hop: number) => boolean
  t.same(
    [0, 1, 2, 3].map((hop) => fn('192.0.2.1', hop)),
    [true, true, false, false],
  )
  t.same(trustProxyOption(['127.0.0.1']), ['127.0.0.1'], 'addresses are handed to Fastify as they are')
  t.equal(trustProxyOption(false), false)
})
