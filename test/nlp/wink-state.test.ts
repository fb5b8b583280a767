// wink-nlp caches every out-of-vocabulary word it reads and its tokenizer consults that cache,
// so unpatched, a text's tokens depend on what the process read before ("Trump's" is one token
// once a text had "Mr. Trump's."). patches/wink-nlp+2.4.0.patch adds `_resetCache()`, which
// tokenize() calls after every document: these tests pin that each text is read as by a freshly
// loaded instance, and that the cache does not grow.
import t from 'tap'
import winkNLP from 'wink-nlp'
import model from 'wink-eng-lite-web-model'
import { createEngine, loadEngineModels } from '../../src/nlp/index.ts'
import { tokenize, winkCacheSize } from '../../src/nlp/tokens.ts'

const { analyze } = createEngine(loadEngineModels())

const TRUMP =
  "Trump's senior staff met on Monday. Kellyanne Conway's office in Washington said the meeting with Reince Priebus went well, and Jared Kushner's team flew to New York."
const CLINTON = "Mrs. Clinton's base views her potential presidency more favorably than does Mr. Trump's."

const values = (text: string) => tokenize(text).tokens.map((k) => k.text)
const full = (text: string) => JSON.stringify({ tokens: tokenize(text), analysis: analyze(text, { language: 'en' }) })

/** Deterministic generator of words no dictionary has: "Qervan", "zulpik's", "Vokra-Tinel", … */
function unseenWords(seed: number) {
  let s = seed >>> 0
  const rnd = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32
  const C = 'bcdfgklmnprstvxz'
  const V = 'aeiou'
  const syl = () => C[Math.floor(rnd() * C.length)] + V[Math.floor(rnd() * V.length)] + C[Math.floor(rnd() * C.length)]
  return () => {
    let w = ''
    for (let n = 2 + Math.floor(rnd() * 2); n > 0; n--) w += syl()
    const r = rnd()
    if (r < 0.4) w = w[0].toUpperCase() + w.slice(1)
    if (r < 0.2) w += "'s"
    else if (r < 0.3) w += '-' + syl()
    else if (r < 0.35) w = w.toUpperCase()
    return w
  }
}

t.test("Trump's: the same tokens and analysis before and after reading other texts", async (t) => {
  // This file runs in its own process, so this is the first text its wink instance reads.
  const tokens0 = values(TRUMP)
  const full0 = full(TRUMP)
  t.same(tokens0.slice(0, 3), ['Trump', "'s", 'senior'], 'fresh: the possessive is split')

  t.ok(values(CLINTON).includes("Trump's"), 'in this text wink keeps "Trump\'s" whole (the word that used to stick)')
  const next = unseenWords(1)
  for (let i = 0; i < 50; i++) full(`${next()} met ${next()} and ${next()} in ${next()} on Friday. ${next()} ${next()} said so.`)

  t.same(values(TRUMP), tokens0, 'tokens unchanged')
  t.equal(full(TRUMP), full0, 'tokens and analyze() output unchanged')
})

t.test('a text tokenized 1000 times, interleaved with unseen words, is the same every time', async (t) => {
  const text = "Zorvak's chief, Belinda Krestova-Mund, told XQT Holdings' board in Ulvenpur that Qarm's deal with Praxo-Dentil was off."
  const ref = JSON.stringify(tokenize(text))
  const next = unseenWords(2)
  let differing = 0
  for (let i = 0; i < 1000; i++) {
    // The words of the text itself in other surroundings (a possessive before punctuation is
    // cached whole: "Zorvak's," then stuck together in the text), then new ones.
    tokenize(`${next()} said Zorvak's, and Qarm's. ${next()}, ${next()} ${next()}'s Praxo-Dentil's.`)
    if (JSON.stringify(tokenize(text)) !== ref) differing++
  }
  t.equal(differing, 0, 'no run differs from the first')
})

t.test('every text is read as by a freshly loaded wink instance', async (t) => {
  const next = unseenWords(3)
  // Warm the shared instance with texts that share words with the probes.
  for (let i = 0; i < 200; i++) tokenize(`${next()} ${next()} ${next()}'s ${next()}.`)
  const probes = [TRUMP, CLINTON, `${next()}'s ${next()} met ${next()}'s ${next()}-${next()} in ${next()}.`]
  for (const text of probes) {
    const fresh = winkNLP(model, ['sbd', 'pos'])
    const doc = fresh.readDoc(text)
    const its = fresh.its
    const expected = doc
      .tokens()
      .out(its.value)
      .filter((v: string) => v.trim() !== '')
    const posExpected = doc
      .tokens()
      .out(its.pos)
      .filter((_: string, i: number) => doc.tokens().out(its.value)[i].trim() !== '')
    const got = tokenize(text).tokens
    t.same(
      got.map((k) => k.text),
      expected,
      `tokens of ${text.slice(0, 30)}…`,
    )
    t.same(
      got.map((k) => k.pos),
      posExpected,
      `POS of ${text.slice(0, 30)}…`,
    )
  }
})

t.test('the cache does not grow', async (t) => {
  tokenize('Warm-up.')
  const size0 = winkCacheSize()
  const next = unseenWords(4)
  for (let i = 0; i < 100; i++) {
    const words: string[] = []
    for (let k = 0; k < 100; k++) words.push(next())
    tokenize(words.join(' ') + '.')
  }
  t.equal(winkCacheSize(), size0, 'same number of lexemes after 10,000 unseen words')

  // The measure itself: an instance that never resets grows with every new word.
  const raw = winkNLP(model, ['sbd', 'pos'])
  const before = raw._cacheSize()
  raw.readDoc('Qervan zulpik Vokratinel.')
  t.ok(raw._cacheSize() > before, 'without _resetCache() the cache grows')
  raw._resetCache()
  t.equal(raw._cacheSize(), before, '_resetCache() restores it')
})

t.test('rolled-back words get their properties back intact when read again', async (t) => {
  // After a rollback the freed lexeme slots are reused by other words; each word's properties
  // (kept in a parallel array in wink) must follow it, not stay with the slot.
  const PROPS = ['value', 'normal', 'shape', 'prefix', 'suffix', 'pos', 'type', 'lemma', 'case', 'stopWordFlag', 'abbrevFlag'] as const
  const propsOf = (nlp: ReturnType<typeof winkNLP>, text: string) => {
    const d = nlp.readDoc(text)
    return JSON.stringify(PROPS.map((p) => d.tokens().out(nlp.its[p] as typeof nlp.its.value)))
  }
  const nlp = winkNLP(model, ['sbd', 'pos'])
  const props = (text: string) => {
    const out = propsOf(nlp, text)
    nlp._resetCache()
    return out
  }
  const text = "Qervan's Zulpik-Tor bought VOKRA in Ulvenpur; ms. Praxo's ZETTIK."
  const expected = propsOf(winkNLP(model, ['sbd', 'pos']), text)
  // Other unknown words take the slots first.
  props('zettik QERVAN-lo Mundavi ulvenpurs Xo.')
  t.equal(props(text), expected, 'as read by a fresh instance')
  const next = unseenWords(5)
  for (let i = 0; i < 100; i++) props(`${next()} ${next()}'s ${next()} ${next()}.`)
  t.equal(props(text), expected, 'the same after 100 other texts')
})

t.test('custom entities learned after loading survive _resetCache()', async (t) => {
  const nlp = winkNLP(model)
  nlp.learnCustomEntities([{ name: 'gadget', patterns: ['Zorblax phone'] }])
  const found = () => {
    const d = nlp.readDoc('She bought a Zorblax phone and a Quintrel watch.')
    const out = d.customEntities().out()
    nlp._resetCache()
    return out
  }
  t.same(found(), ['Zorblax phone'])
  nlp.readDoc('Zorblax Quintrel Vokra.')
  nlp._resetCache()
  t.same(found(), ['Zorblax phone'], 'still found after a rollback')
})

t.test('a word is found in the lexicon as by its dictionary, short or long, known or not', async (t) => {
  // The patch looks up words of up to 12 UTF-16 units in a table of its own (longer ones in
  // wink's dictionary): a token's lexeme number must be the dictionary's either way.
  const { lexeme } = (model as unknown as { core(): { features: { lexeme: { list: string[]; hash: Record<string, number> } } } }).core()
    .features
  const nlp = winkNLP(model, ['sbd', 'pos'])
  const idOf = (word: string) => {
    const d = nlp.readDoc(word)
    const ids = d.tokens().out(nlp.its.uniqueId) as unknown as number[]
    nlp._resetCache()
    return ids.length === 1 ? ids[0] : -1
  }
  const words = lexeme.list.filter((w) => /^\p{L}+$/u.test(w))
  const sample = (keep: (w: string) => boolean) => words.filter(keep).filter((_, i) => i % 97 === 0)
  const short = sample((w) => w.length <= 12)
  const long = sample((w) => w.length > 12)
  const beyondAscii = sample((w) => w.length <= 12 && [...w].some((c) => c.charCodeAt(0) > 127))
  t.ok(short.length > 100 && long.length > 10 && beyondAscii.length > 0, 'samples of each kind')
  for (const [name, list] of [
    ['short', short],
    ['long', long],
    ['beyond ASCII', beyondAscii],
  ] as const) {
    const read = list.filter((w) => idOf(w) !== -1)
    t.ok(read.length > list.length / 2, `${name} words: most (${read.length} of ${list.length}) read as one token`)
    t.same(
      read.filter((w) => idOf(w) !== lexeme.hash[w]),
      [],
      `${name} words: the dictionary's number`,
    )
  }
  // Unknown words, short and long, get numbers past the lexicon's.
  for (const w of ['Qervanzul', 'Zulpikovratinelski', 'Ølvenpür']) t.ok(idOf(w) >= lexeme.list.length, `${w} is not in the lexicon`)
})

t.test('spaces between tokens, non-breaking or not, are kept as read', async (t) => {
  // The patch finds the non-breaking spaces of a run by character codes instead of an expression.
  const nlp = winkNLP(model, ['sbd', 'pos'])
  const NBSP = ['\u00a0', '\u2002', '\u2003', '\u2004', '\u2005', '\u2009', '\u200a', '\u202f', '\u205f']
  for (const s of NBSP) {
    const text = `Anna${s}Berg met  Carl${s} ${s}Dahl.`
    t.equal(nlp.readDoc(text).out(), text, `U+${s.charCodeAt(0).toString(16).padStart(4, '0')} kept`)
  }
  const plain = 'Anna  Berg met Carl.'
  t.equal(nlp.readDoc(plain).out(), plain, 'plain spaces')
  // A space outside that set (an em quad, an ideographic space) is not taken for one: wink drops
  // it, as it did when an expression looked for them.
  for (const s of ['\u2001', '\u3000']) t.equal(nlp.readDoc(`Anna${s}Berg.`).out(), 'AnnaBerg.', 'not a space to wink')
})

t.test("runs of spaces and of line breaks cut a text as the model's splitter expression does", async (t) => {
  // The patch cuts the raw text by a scan of character codes instead of `split` by the model's
  // expression; these are what the expression gave (wink-nlp 2.4.0 with the earlier patch): the
  // tokens, their types, the spaces before each (non-breaking ones as read) and the text again.
  const nlp = winkNLP(model, ['sbd', 'pos'])
  const its = nlp.its
  const cases: [string, string[], string[], string[], string][] = [
    [
      'Anna \n Berg\t\tmet\r\n\u00a0Carl .',
      ['Anna', '\n', 'Berg', '\t\t', 'met', '\r\n', 'Carl', '.'],
      ['word', 'tabCRLF', 'word', 'tabCRLF', 'word', 'tabCRLF', 'word', 'punctuation'],
      ['', ' ', ' ', '', '', '', '\u00a0', ' '],
      'Anna \n Berg\t\tmet\r\n\u00a0Carl .',
    ],
    [
      ' \u2002\nDahl\u205f\u202f, Eve\n\n',
      ['\n', 'Dahl', ',', 'Eve', '\n\n'],
      ['tabCRLF', 'word', 'punctuation', 'word', 'tabCRLF'],
      [' \u2002', '', '\u205f\u202f', ' ', ''],
      'Dahl\u205f\u202f, Eve',
    ],
    ['\t', ['\t'], ['tabCRLF'], [''], ''],
    [
      'Fay\u2009\u200a\u2003(Gus)\n \n',
      ['Fay', '(', 'Gus', ')', '\n', '\n'],
      ['word', 'punctuation', 'word', 'punctuation', 'tabCRLF', 'tabCRLF'],
      ['', '\u2009\u200a\u2003', '', '', '', ' '],
      'Fay\u2009\u200a\u2003(Gus)',
    ],
  ]
  for (const [text, values, types, spaces, out] of cases) {
    const doc = nlp.readDoc(text)
    t.same(
      [doc.tokens().out(its.value), doc.tokens().out(its.type), doc.tokens().out(its.precedingSpaces), doc.out()],
      [values, types, spaces, out],
      JSON.stringify(text),
    )
  }
})
