// The relation fit averages the weights of several shuffled SGD orders: deterministic for a seed,
// the mean of its single-order fits, and less dependent on the seed than one order.
import t from 'tap'
import { rng } from '../../scripts/nlp/data.ts'
import { ORDERS, ORDER_STRIDE, fit, vector, type Sample } from '../../scripts/nlp/train-relations.ts'

// A small noisy problem over feature ids no training run uses: feature 0 of each sample says
// the label four times in five, the other two are noise.
const r = rng(7)
const samples: Sample[] = Array.from({ length: 200 }, (_, i) => {
  const y = r() < 0.4 ? 1 : 0
  const cue = r() < 0.8 === (y === 1) ? 1 : 0
  return { x: vector([990_000 + cue, 990_010 + Math.floor(r() * 5), 990_020 + Math.floor(r() * 5)], 0), y, doc: i }
})
const fitAt = (seed: number, orders: number) => Array.from(fit(samples, { seed, epochs: 6, orders }))

t.test('the same seed gives the same averaged weights', async (t) => {
  t.ok(ORDERS > 1, 'the default averages several orders')
  t.same(fitAt(5, ORDERS), fitAt(5, ORDERS))
})

t.test('one order is the single fit; more orders are the mean of the single fits', async (t) => {
  const one = fitAt(5, 1)
  const other = fitAt(5 + ORDER_STRIDE, 1)
  t.notSame(one, other, 'another order gives other weights')
  const two = fitAt(5, 2)
  t.notSame(two, one, 'two orders differ from the first alone')
  two.forEach((w, d) => t.ok(Math.abs(w - (one[d] + other[d]) / 2) < 1e-12, `weight ${d} is the mean`))
})

t.test('averaged weights move less with the seed than one order', async (t) => {
  const spread = (orders: number) => {
    const fits = [1, 2, 3, 4, 5, 6].map((s) => fitAt(s, orders))
    let sum = 0
    for (let d = 0; d < fits[0].length; d++) {
      const mean = fits.reduce((a, f) => a + f[d], 0) / fits.length
      sum += fits.reduce((a, f) => a + (f[d] - mean) ** 2, 0)
    }
    return sum
  }
  const one = spread(1)
  const three = spread(3)
  t.ok(three < one, `variance over seeds ${three.toFixed(5)} < ${one.toFixed(5)}`)
})
