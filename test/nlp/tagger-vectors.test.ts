// The tagger's word-vector scores: stored in the model file, read back, and added for the
// previous, this and the next word of a token, within its sentence.
import t from 'tap'
import { mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { encodeTagger, loadTagger, tagDocument, VECTOR_POSITIONS } from '../../src/nlp/tagger.ts'
import { tokenize } from '../../src/nlp/tokens.ts'
import { fnv } from '../../src/nlp/features/hashing.ts'
import { NTAGS, TAGS } from '../../src/nlp/features/tags.ts'

const U_PER = TAGS.indexOf('U-PER')
const U_LOC = TAGS.indexOf('U-LOC')

/** A tagger with no sparse feature: only the vector table decides. */
function modelWith(rows: { word: string; position: number; tag: number; value: number }[]) {
  const words = [...new Set(rows.map((r) => r.word))]
  const table = new Int8Array(VECTOR_POSITIONS * words.length * NTAGS)
  for (const r of rows) table[(r.position * words.length + words.indexOf(r.word)) * NTAGS + r.tag] = r.value
  const scale = new Float32Array(VECTOR_POSITIONS * NTAGS).fill(0.5)
  const file = encodeTagger(
    new Int32Array(0),
    new Float32Array(0),
    new Map(),
    new Set(),
    { words: new Uint32Array(0), codes: new Uint16Array(0) },
    {
      words: Uint32Array.from(words, (w) => fnv(w)),
      table,
      scale,
    },
  )
  const p = path.join(mkdtempSync(path.join(os.tmpdir(), 'tea-vectors-')), 'ner.bin.gz')
  writeFileSync(p, file)
  return loadTagger(p)
}

const typed = (m: ReturnType<typeof modelWith>, text: string) => {
  const doc = tokenize(text)
  return tagDocument(m, doc).spans.map((s) => `${s.type} ${doc.tokens[s.first].text}`)
}

t.test("a word's own row types it, whatever its casing", async (t) => {
  const m = modelWith([{ word: 'zorblat', position: 1, tag: U_PER, value: 10 }])
  t.same(typed(m, 'We met Zorblat today.'), ['PER Zorblat'])
  t.same(typed(m, 'we met zorblat today.'), ['PER zorblat'])
  t.same(typed(m, 'We met Quux today.'), [])
})

t.test("a neighbour's row counts for the token next to it, not across a sentence break", async (t) => {
  // Position 0 is the previous word: "in" makes the next word a place.
  const m = modelWith([{ word: 'in', position: 0, tag: U_LOC, value: 10 }])
  t.same(typed(m, 'They live in Quux.'), ['LOC Quux'])
  t.same(typed(m, 'They live in. Quux'), [])
})

t.test('each of several words keeps its own rows at each position', async (t) => {
  // Position 2 is the next word: "zorblat" before "said" is a person; "in" before a word makes it a place.
  const m = modelWith([
    { word: 'in', position: 0, tag: U_LOC, value: 10 },
    { word: 'said', position: 2, tag: U_PER, value: 10 },
    { word: 'quux', position: 1, tag: U_LOC, value: 1 },
  ])
  t.same(typed(m, 'Then Zorblat said so.'), ['PER Zorblat'])
  t.same(typed(m, 'They live in Zorblat now.'), ['LOC Zorblat'])
  t.same(typed(m, 'Said Zorblat so.'), [])
})
