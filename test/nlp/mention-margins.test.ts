// The tagger's margin a mention carries: the least of its span's decisions that had a choice.
import t from 'tap'
import { spanMargins } from '../../src/nlp/mentions.ts'

type Span = Parameters<typeof spanMargins>[0][number]

t.test("a span's forced last decision (margin 0) leaves its margin to the others", async (t) => {
  // "of Donald Trump ." at a text's end: the tagger left the span open over the full stop, which
  // could only end it (margin 0).
  const spans: Span[] = [{ first: 1, last: 4, type: 'PER' }]
  const m = spanMargins(spans, Float32Array.from([0, 40, 12, 0]))
  t.same([m[1], m[2], m[3]], [12, 12, 12])
  t.ok(Number.isNaN(m[0]), 'no span, no margin')
})

t.test('a span whose decisions all had a choice keeps the least of them; misc spans carry none', async (t) => {
  const spans: Span[] = [
    { first: 0, last: 2, type: 'ORG' },
    { first: 2, last: 3, type: 'MISC' },
  ]
  const m = spanMargins(spans, Float32Array.from([7, 3, 9]))
  t.same([m[0], m[1]], [3, 3])
  t.ok(Number.isNaN(m[2]))
  t.same(Array.from(spanMargins([{ first: 0, last: 1, type: 'LOC' }], Float32Array.from([0]))), [0], 'only a forced decision: 0')
})
