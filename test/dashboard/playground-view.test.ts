// The playground's rendering, as pure functions of a text and a hand-made analysis answer:
// offsets in each encoding, highlight boundaries around emoji and combining marks, nested,
// crossing and adjacent mentions, evidence ranges, escaping, the graph.
import t from 'tap'
import fc from 'fast-check'
import { annotateText, entityTable, relationTable, type AnalysisView, type EntityDetail } from '../../src/dashboard/analysis-view.ts'
import { relationGraph, MAX_NODES } from '../../src/dashboard/graph.ts'
import { utf16Index, type OffsetEncoding } from '../../src/dashboard/offsets.ts'
import { EXAMPLES } from '../../src/dashboard/examples.ts'

const ENCODINGS: OffsetEncoding[] = ['utf16', 'codepoint', 'utf8']

/** A UTF-16 index of `text` in `encoding` units (what the API would send). */
function offset(text: string, index: number, encoding: OffsetEncoding): number {
  const before = text.slice(0, index)
  if (encoding === 'utf16') return index
  if (encoding === 'codepoint') return [...before].length
  return Buffer.byteLength(before, 'utf8')
}

type Spec = { name: string; type: EntityDetail['type']; spans: [number, number][]; alias?: boolean }

/** An answer whose mentions are the given UTF-16 spans of `text`, sent in `encoding`. */
function answer(text: string, specs: Spec[], encoding: OffsetEncoding, relations: AnalysisView['relations'] = []): AnalysisView {
  const entityDetails = specs.map((s) => ({
    name: s.name,
    type: s.type,
    confidence: 0.9,
    salience: 1 / specs.length,
    mentions: s.spans.map(([a, b]) => ({
      text: text.slice(a, b),
      start: offset(text, a, encoding),
      end: offset(text, b, encoding),
      kind: s.alias ? ('alias' as const) : ('name' as const),
    })),
  }))
  const list = (type: string) => specs.filter((s) => s.type === type).map((s) => s.name)
  return {
    entities: { persons: list('person'), organizations: list('organization'), locations: list('location'), objects: list('object') },
    relations,
    entityDetails,
  }
}

const UNESCAPE: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#96;': '`' }
const unescape = (s: string) => s.replace(/&(amp|lt|gt|quot|#39|#96);/g, (e) => UNESCAPE[e])

interface Found {
  entity: number
  text: string
  depth: number
}

/** Every mark of the markup with its visible text (screen-reader-only text left out), in document order. */
function marks(markup: string): Found[] {
  const found: Found[] = []
  const open: { tag: string; mark?: Found; hidden: boolean }[] = []
  for (const m of markup.matchAll(/<(\/?)([a-z]+)([^>]*)>|([^<]+)/g)) {
    if (m[4] !== undefined) {
      if (open.some((o) => o.hidden)) continue
      for (const o of open) if (o.mark) o.mark.text += unescape(m[4])
    } else if (m[1]) {
      open.pop()
    } else {
      const mark =
        m[2] === 'mark'
          ? { entity: Number(/data-entity="(\d+)"/.exec(m[3])![1]), text: '', depth: open.filter((o) => o.mark).length }
          : undefined
      if (mark) found.push(mark)
      open.push({ tag: m[2], mark, hidden: m[3].includes('visually-hidden') })
    }
  }
  return found
}

/** The visible text of the markup (what a person reads, tags aside). */
function visible(markup: string): string {
  return unescape(markup.replace(/<span class="visually-hidden">[^<]*<\/span>/g, '').replace(/<[^>]+>/g, ''))
}

t.test('utf16Index: every encoding to UTF-16 indexes; offsets inside a character are refused', async (t) => {
  const text = 'a😀é\u0301b'
  t.equal(utf16Index(text, 'utf16')(3), 3)
  t.equal(utf16Index(text, 'utf16')(2), undefined, 'between the halves of a surrogate pair')
  t.equal(utf16Index(text, 'utf16')(text.length + 1), undefined)
  t.equal(utf16Index(text, 'codepoint')(2), 3, 'the emoji is one code point, two UTF-16 units')
  t.equal(utf16Index(text, 'codepoint')(5), 6)
  t.equal(utf16Index(text, 'codepoint')(6), undefined, 'past the end')
  t.equal(utf16Index(text, 'utf8')(5), 3, 'the emoji is four bytes')
  t.equal(utf16Index(text, 'utf8')(3), undefined, 'inside the emoji')
  t.equal(utf16Index(text, 'utf8')(7), 4, 'é is two bytes')
  t.equal(utf16Index(text, 'utf8')(-1), undefined)
})

t.test('an emoji before the entities shifts no highlight, in every encoding', async (t) => {
  const text = '🎧⭐ Tim Cook runs Apple from Cupertino. 👍🏽 Cook likes it.'
  const at = (s: string, from = 0) => [text.indexOf(s, from), text.indexOf(s, from) + s.length] as [number, number]
  for (const encoding of ENCODINGS) {
    const result = answer(
      text,
      [
        { name: 'Tim Cook', type: 'person', spans: [at('Tim Cook'), at('Cook', text.indexOf('👍'))] },
        { name: 'Apple', type: 'organization', spans: [at('Apple')] },
        { name: 'Cupertino', type: 'location', spans: [at('Cupertino')] },
      ],
      encoding,
    )
    const layout = annotateText(text, result, encoding)
    t.equal(layout.unplaced, 0, encoding)
    t.same(
      marks(layout.markup.value).map((m) => [m.entity, m.text]),
      [
        [0, 'Tim Cook'],
        [1, 'Apple'],
        [2, 'Cupertino'],
        [0, 'Cook'],
      ],
      `${encoding}: each mark holds its mention`,
    )
    t.equal(visible(layout.markup.value), text, `${encoding}: the text is all there, unchanged`)
  }
})

t.test('combining marks and CRLF stay inside the mention they belong to', async (t) => {
  // "Zoë" spelt with a combining diaeresis; "Ñ" too; a CRLF line break in between.
  const text = 'Zoe\u0308 Smith met Jose\u0301 in\r\nN\u0303andu\u0301 today.'
  const zoe = [0, 'Zoe\u0308 Smith'.length] as [number, number]
  const jose = [text.indexOf('Jose'), text.indexOf('Jose') + 5] as [number, number]
  const place = [text.indexOf('N\u0303'), text.indexOf(' today')] as [number, number]
  for (const encoding of ENCODINGS) {
    const result = answer(
      text,
      [
        { name: 'Zoë Smith', type: 'person', spans: [zoe] },
        { name: 'José', type: 'person', spans: [jose] },
        { name: 'Ñandú', type: 'location', spans: [place] },
      ],
      encoding,
    )
    const found = marks(annotateText(text, result, encoding).markup.value)
    t.same(
      found.map((m) => m.text),
      ['Zoe\u0308 Smith', 'Jose\u0301', 'N\u0303andu\u0301'],
      encoding,
    )
  }
})

t.test('nested, crossing and adjacent mentions', async (t) => {
  const text = 'Bank of America and Tim CookApple were named; New York Times Square too, and more words after.'
  const boa = [0, 15] as [number, number]
  const america = [8, 15] as [number, number]
  const cook = [text.indexOf('Tim'), text.indexOf('Apple')] as [number, number]
  const apple = [text.indexOf('Apple'), text.indexOf('Apple') + 5] as [number, number]
  const nyt = [text.indexOf('New York Times'), text.indexOf('New York Times') + 14] as [number, number]
  const timesSquare = [text.indexOf('Times Square'), text.indexOf('Times Square') + 12] as [number, number]
  const result = answer(
    text,
    [
      { name: 'Bank of America', type: 'organization', spans: [boa] },
      { name: 'America', type: 'location', spans: [america] },
      { name: 'Tim Cook', type: 'person', spans: [cook] },
      { name: 'Apple', type: 'organization', spans: [apple] },
      { name: 'New York Times', type: 'organization', spans: [nyt] },
      { name: 'Times Square', type: 'location', spans: [timesSquare] },
    ],
    'utf16',
  )
  const layout = annotateText(text, result, 'utf16')
  const found = marks(layout.markup.value)
  t.same(
    found.map((m) => [m.text, m.depth]),
    [
      ['Bank of America', 0],
      ['America', 1],
      ['Tim Cook', 0],
      ['Apple', 0],
      ['New York Times', 0],
    ],
    'a mention inside another is drawn inside it; adjacent ones side by side',
  )
  t.equal(layout.unplaced, 1, 'the mention crossing the edge of another is left out and counted')
  t.match(
    layout.markup.value,
    /Tim Cook<span class="visually-hidden"> \(person\)<\/span><\/mark><mark class="m t-organization"/,
    'adjacent marks touch, nothing between them',
  )
  t.equal(visible(layout.markup.value), text)
})

t.test('offsets that do not fit the text are not highlighted', async (t) => {
  const text = '😀 Tim Cook spoke at length about the company and its plans for the coming year.'
  const result = answer(text, [{ name: 'Tim Cook', type: 'person', spans: [[3, 11]] }], 'utf16')
  const wrong = structuredClone(result)
  wrong.entityDetails![0].mentions[0] = { ...wrong.entityDetails![0].mentions[0], start: 2, end: 10 } // one unit early
  t.same(
    marks(annotateText(text, result, 'utf16').markup.value).map((m) => m.text),
    ['Tim Cook'],
  )
  const layout = annotateText(text, wrong, 'utf16')
  t.same(marks(layout.markup.value), [])
  t.equal(layout.unplaced, 1)
  // The same offsets read as code points are right: the encoding decides.
  t.same(
    marks(annotateText(text, wrong, 'codepoint').markup.value).map((m) => m.text),
    ['Tim Cook'],
  )
})

t.test('property: for random texts with astral characters, combining marks and CRLF, every mark holds its mention', async () => {
  const piece = fc.constantFrom('a', 'Z', ' ', '😀', '👍🏽', '\u0301', '\r\n', 'é', 'ש', '\u200d', '𝔘', '<', '&', '"')
  fc.assert(
    fc.property(
      fc.array(piece, { minLength: 4, maxLength: 40 }),
      fc.array(fc.tuple(fc.nat(), fc.nat({ max: 6 })), { maxLength: 5 }),
      fc.constantFrom(...ENCODINGS),
      (parts, cuts, encoding) => {
        const text = parts.join('')
        // Boundaries between pieces are character boundaries; non-overlapping spans of pieces.
        const starts = [0]
        for (const p of parts) starts.push(starts[starts.length - 1] + p.length)
        const spans: [number, number][] = []
        let from = 0
        for (const [skip, len] of cuts) {
          const a = from + (skip % 3)
          const b = a + 1 + len
          if (b > parts.length) break
          spans.push([starts[a], starts[b]])
          from = b
        }
        const result = answer(
          text,
          spans.map((s, i) => ({ name: `E${i}`, type: 'object' as const, spans: [s] })),
          encoding,
        )
        const layout = annotateText(text, result, encoding)
        const found = marks(layout.markup.value).map((m) => m.text)
        return (
          layout.unplaced === 0 &&
          JSON.stringify(found) === JSON.stringify(spans.map(([a, b]) => text.slice(a, b))) &&
          visible(layout.markup.value) === text
        )
      },
    ),
  )
})

t.test('everything from the text and the answer is escaped', async (t) => {
  const text = '<script>alert(1)</script> "Evil & Co" <img src=x onerror=alert(2)> was sued by Bob `x` in London, for a long while now.'
  const evil = [text.indexOf('"Evil'), text.indexOf('"Evil') + 11] as [number, number]
  const result = answer(
    text,
    [
      { name: '<b>Evil</b> & "Co"', type: 'organization', spans: [evil] },
      { name: 'Bob<script>', type: 'person', spans: [[text.indexOf('Bob'), text.indexOf('Bob') + 3]] },
    ],
    'utf16',
    [
      {
        source: 'Bob<script>',
        target: '<b>Evil</b> & "Co"',
        type: 'member_of',
        sentiment: 'neutral',
        confidence: 0.7,
        evidence: text,
        evidenceStart: 0,
        evidenceEnd: text.length,
        sourceIndex: 1,
        targetIndex: 0,
      },
    ],
  )
  const layout = annotateText(text, result, 'utf16')
  const all = [
    layout.markup.value,
    entityTable(result).value,
    relationTable(result, layout.evidenceOf).value,
    relationGraph(result, layout.evidenceOf).value,
  ].join('\n')
  t.notMatch(all, /<script|<img|<b>/, 'no markup from the text or the answer')
  t.match(all, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/)
  t.match(all, /&lt;b&gt;Evil&lt;\/b&gt; &amp; &quot;Co&quot;/)
  t.match(layout.markup.value, /title="&lt;b&gt;Evil&lt;\/b&gt; &amp; &quot;Co&quot; \(organization\)"/, 'attributes too')
  t.equal(visible(layout.markup.value), text)
})

t.test('evidence: one range per distinct sentence, linked from its relations, made of whole marks', async (t) => {
  const s1 = 'Tim Cook works for Apple. '
  const s2 = 'Apple is based in Cupertino.'
  const text = '🍏 ' + s1 + s2
  const at = (s: string) => [text.indexOf(s), text.indexOf(s) + s.length] as [number, number]
  const ev1 = at('Tim Cook works for Apple.')
  const rel = (
    source: string,
    type: AnalysisView['relations'][number]['type'],
    target: string,
    [a, b]: [number, number],
    si: number,
    ti: number,
  ) => ({
    source,
    target,
    type,
    sentiment: 'neutral' as const,
    confidence: 0.8,
    evidence: text.slice(a, b),
    evidenceStart: offset(text, a, 'codepoint'),
    evidenceEnd: offset(text, b, 'codepoint'),
    sourceIndex: si,
    targetIndex: ti,
  })
  const result = answer(
    text,
    [
      { name: 'Tim Cook', type: 'person', spans: [at('Tim Cook')] },
      { name: 'Apple', type: 'organization', spans: [at('Apple'), [text.lastIndexOf('Apple'), text.lastIndexOf('Apple') + 5]] },
      { name: 'Cupertino', type: 'location', spans: [at('Cupertino')] },
    ],
    'codepoint',
    [
      rel('Tim Cook', 'works_for', 'Apple', ev1, 0, 1),
      rel('Apple', 'located_in', 'Cupertino', at(s2), 1, 2),
      rel('Tim Cook', 'member_of', 'Apple', ev1, 0, 1),
      // An evidence edge inside a mention ("Cupertino") widens to the whole mention.
      rel('Apple', 'owns', 'Cupertino', [text.lastIndexOf('Apple'), text.indexOf('Cupertino') + 3], 1, 2),
    ],
  )
  const layout = annotateText(text, result, 'codepoint')
  t.same(
    layout.evidenceOf.map((e) => e?.id),
    ['ev0', 'ev1', 'ev0', 'ev2'],
    'relations quoting one sentence share its range',
  )
  const m = layout.markup.value
  // ev0 covers the first sentence; ev1 and ev2 share the second up to the end of "Cupertino".
  t.match(
    m,
    /<span class="ev" data-ev="ev0" id="ev0"><mark[^>]*>Tim Cook<span class="visually-hidden"> \(person\)<\/span><\/mark> works for <mark[^>]*>Apple<span class="visually-hidden"> \(organization\)<\/span><\/mark>\.<\/span>/,
  )
  t.match(
    m,
    /<span class="ev" data-ev="ev1" id="ev1"><span class="ev" data-ev="ev2" id="ev2"><mark[^>]*>Apple<[\s\S]*?>Cupertino<span class="visually-hidden"> \(location\)<\/span><\/mark><\/span><\/span><span class="ev" data-ev="ev1">\.<\/span><\/div>/,
    'nested where ranges share a piece; every range has its id once',
  )
  for (const id of ['ev0', 'ev1', 'ev2']) t.equal(m.split(`id="${id}"`).length, 2, `${id} is one link target`)
  t.equal(visible(m), text)
  const table = relationTable(result, layout.evidenceOf).value
  t.equal([...table.matchAll(/<tr class="relation" data-evidence="(ev\d)">/g)].map((x) => x[1]).join(' '), 'ev0 ev1 ev0 ev2')
  t.match(
    table,
    /<a class="evidence-link" href="#ev0" aria-label="Evidence for Tim Cook works for Apple: Tim Cook works for Apple\.">Tim Cook works for Apple\.<\/a>/,
  )
  t.match(table, /<td data-label="Relation">works for<\/td>/)
})

t.test('a relation without evidence offsets is listed without a link', async (t) => {
  const text = 'Tim Cook works for Apple, a company that makes phones and computers in many countries.'
  const result = answer(
    text,
    [
      { name: 'Tim Cook', type: 'person', spans: [[0, 8]] },
      { name: 'Apple', type: 'organization', spans: [[19, 24]] },
    ],
    'utf16',
    [
      {
        source: 'Tim Cook',
        target: 'Apple',
        type: 'works_for',
        sentiment: 'positive',
        confidence: 0.91,
        evidence: 'Tim Cook works for Apple',
      },
    ],
  )
  const layout = annotateText(text, result, 'utf16')
  t.same(layout.evidenceOf, [undefined])
  const table = relationTable(result, layout.evidenceOf).value
  t.notMatch(table, /evidence-link|data-evidence/)
  t.match(table, /<td data-label="Evidence">Tim Cook works for Apple<\/td>/)
})

t.test('entity table: name, type, confidence, salience, mention count', async (t) => {
  const text = 'Tim Cook and Cook again, then Apple. Plenty of further words follow to make it long enough.'
  const result = answer(
    text,
    [
      {
        name: 'Tim Cook',
        type: 'person',
        spans: [
          [0, 8],
          [13, 17],
        ],
      },
      { name: 'Apple', type: 'organization', spans: [[30, 35]] },
    ],
    'utf16',
  )
  result.entityDetails![0].confidence = 0.934
  result.entityDetails![0].salience = 0.6667
  const table = entityTable(result).value
  t.match(
    table,
    /<tr data-entity="0"><th scope="row" data-label="Name">Tim Cook<\/th><td data-label="Type"><span class="tag t-person">PER<\/span> person<\/td><td class="num" data-label="Confidence">0\.93<\/td><td class="num" data-label="Salience">0\.667<\/td><td class="num" data-label="Mentions">2<\/td><\/tr>/,
  )
  t.match(entityTable({ ...result, entityDetails: [] }).value, /No entities were found/)
})

t.test('alias mentions say which entity they refer to', async (t) => {
  const text = 'Tim Cook reported results. Cook said sales grew in every region over the last quarter.'
  const result = answer(text, [{ name: 'Tim Cook', type: 'person', spans: [[0, 8]] }], 'utf16')
  result.entityDetails![0].mentions.push({ text: 'Cook', start: 27, end: 31, kind: 'alias' })
  const m = annotateText(text, result, 'utf16').markup.value
  t.match(
    m,
    /<mark class="m t-person alias" data-entity="0" data-tag="PER" title="Tim Cook \(person, alias\)">Cook<span class="visually-hidden"> \(person, refers to Tim Cook\)<\/span><\/mark>/,
  )
})

t.test('graph: a node per entity (shape by type), a labelled arrow per relation', async (t) => {
  const text = 'Tim Cook works for Apple, which is based in Cupertino; more words make this long enough.'
  const result = answer(
    text,
    [
      { name: 'Tim Cook', type: 'person', spans: [[0, 8]] },
      { name: 'Apple', type: 'organization', spans: [[19, 24]] },
      { name: 'Cupertino', type: 'location', spans: [[43, 52]] },
    ],
    'utf16',
    [
      { source: 'Tim Cook', target: 'Apple', type: 'works_for', sentiment: 'neutral', confidence: 0.9, sourceIndex: 0, targetIndex: 1 },
      { source: 'Apple', target: 'Cupertino', type: 'located_in', sentiment: 'negative', confidence: 0.8 },
    ],
  )
  const svg = relationGraph(result).value
  t.equal((svg.match(/<g class="node /g) ?? []).length, 3)
  t.match(svg, /<g class="node t-person" data-entity="0"><title>Tim Cook \(person, salience 0\.333\)<\/title>\n<circle /)
  t.match(svg, /<g class="node t-organization" data-entity="1">[\s\S]*?<rect /)
  t.match(svg, /<g class="node t-location" data-entity="2">[\s\S]*?<polygon /)
  t.match(svg, /<title>Tim Cook works for Apple \(confidence 0\.90, neutral\)<\/title>/)
  t.match(svg, /<g class="edge sentiment-negative"><title>Apple located in Cupertino/, 'found by name when the answer has no index')
  t.equal((svg.match(/marker-end="url\(#arrow\)"/g) ?? []).length, 2)
  t.match(svg, /3 of 3 entities and 2 of 2 relations drawn\./)
  t.match(svg, /role="img" aria-labelledby="graph-title graph-desc"/)
})

t.test('graph: at most MAX_NODES nodes, those in relations first', async (t) => {
  const names = Array.from({ length: MAX_NODES + 5 }, (_, i) => `Entity ${i}`)
  const text = names.join(', ') + '.'
  let at = 0
  const specs: Spec[] = names.map((name) => {
    const s: Spec = { name, type: 'organization', spans: [[at, at + name.length]] }
    at += name.length + 2
    return s
  })
  const last = names.length - 1
  const result = answer(text, specs, 'utf16', [
    { source: names[last], target: names[0], type: 'partner_of', sentiment: 'neutral', confidence: 0.7, sourceIndex: last, targetIndex: 0 },
  ])
  const svg = relationGraph(result).value
  t.equal((svg.match(/<g class="node /g) ?? []).length, MAX_NODES)
  t.match(svg, new RegExp(`data-entity="${last}"`), 'the least salient entity is drawn, being in a relation')
  t.match(
    svg,
    new RegExp(`${MAX_NODES} of ${names.length} entities and 1 of 1 relations drawn; the 5 least connected entities are left out`),
  )
})

t.test('the examples are long enough, and one starts with an emoji', async (t) => {
  t.equal(EXAMPLES.length, 3)
  for (const e of EXAMPLES) t.ok([...e.text].length >= 200, `${e.key}: ${[...e.text].length} characters`)
  t.ok(EXAMPLES.some((e) => /^\p{Extended_Pictographic}/u.test(e.text)))
})
