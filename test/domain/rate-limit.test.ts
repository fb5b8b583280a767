// The burst limit's token buckets (src/domain/rate-limit.ts), on a clock of our own.
import t from 'tap'
import { createRateLimiter } from '../../src/domain/rate-limit.ts'

t.test('a burst, then one request per refill, per key; a plan without a limit is never refused', async (t) => {
  const limiter = createRateLimiter({ free: { perSecond: 2, burst: 3 } })
  const at = 1_000_000
  t.same(
    [1, 2, 3].map(() => limiter.take('a', 'free', at)),
    [0, 0, 0],
    'the burst',
  )
  t.equal(limiter.take('a', 'free', at), 1, 'then refused, with the seconds until the next')
  t.equal(limiter.take('b', 'free', at), 0, 'another key has its own bucket')
  t.equal(limiter.take('a', 'free', at + 499), 1, 'less than one refill later: still refused')
  t.equal(limiter.take('a', 'free', at + 500), 0, 'one refill (1/2 s) later: one request')
  t.equal(limiter.take('a', 'free', at + 500), 1, '…and only one')
  t.equal(limiter.take('a', 'free', at - 10_000), 1, 'a clock that went back refills nothing')
  t.same(
    [1, 2, 3, 4].map(() => limiter.take('a', 'free', at + 60_000)),
    [0, 0, 0, 1],
    'a long pause refills the burst, no more',
  )
  t.equal(limiter.take('a', 'business', at), 0, 'no limit for the plan')
  t.equal(limiter.rate('free'), 2)
  t.equal(limiter.rate('business'), undefined)
})
