import t from 'tap'
import { createEngine, detectLanguage, loadEngineModels, MODEL_NAME, SUPPORTED_LANGUAGES } from '../../src/nlp/index.ts'
import { RELATION_TYPES } from '../../src/nlp/types.ts'

const { analyze } = createEngine(loadEngineModels())

const PROSE =
  'Tim Cook, the chief executive of Apple, spoke in Cupertino on Monday. ' +
  'Microsoft acquired GitHub in 2018. Angela Merkel was born in Hamburg and lives in Berlin. ' +
  'Cook said the company would keep investing in California.'

t.test('exports the contract', async (t) => {
  t.match(MODEL_NAME, /^tea-extract-\d+\.\d+\.\d+$/)
  t.same([...SUPPORTED_LANGUAGES], ['en'])
  t.equal(detectLanguage(PROSE), 'en')
})

t.test('relations only use listed names and enum types; confidence in [0,1]', async (t) => {
  const a = analyze(PROSE, { language: 'en' })
  const names = new Set(Object.values(a.entities).flat())
  for (const r of a.relations) {
    t.ok(names.has(r.source), `source ${r.source} listed`)
    t.ok(names.has(r.target), `target ${r.target} listed`)
    t.ok((RELATION_TYPES as readonly string[]).includes(r.type))
    t.ok(r.confidence >= 0 && r.confidence <= 1)
    t.ok(PROSE.includes(r.evidence), 'evidence is a verbatim excerpt')
  }
  for (const list of Object.values(a.entities)) t.equal(new Set(list).size, list.length, 'deduplicated')
  t.equal(a.language, 'en')
  t.equal(a.model, MODEL_NAME)
})

t.test('hostile input never throws', async (t) => {
  const pieces = ['\u0000', '\uD800', '\uDC00', '😀', '\u202E', 'e\u0301', 'שלום', '\r\n', '\t', '​', 'A.', '"', "'s"]
  let seed = 7
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff
  for (let n = 0; n < 30; n++) {
    let s = ''
    while (s.length < 200 + n * 50) s += rnd() < 0.5 ? pieces[Math.floor(rnd() * pieces.length)] : ' Word' + Math.floor(rnd() * 9) + ' '
    const a = analyze(s, { language: 'en' })
    t.ok(Array.isArray(a.entities.persons))
    t.type(detectLanguage(s), 'string')
  }
  const onlyEmoji = '😀'.repeat(200)
  t.same(analyze(onlyEmoji, { language: 'en' }).entities, { persons: [], organizations: [], locations: [], objects: [] })
})

t.test('pathological 30,000-character inputs stay fast', async (t) => {
  const texts = (length: number) => {
    const names: string[] = []
    for (let i = 0; names.join(', ').length < length - 1000; i++) names.push(`Name${i.toString(36)} Person${(i * 7).toString(36)}`)
    return {
      'one long token': 'a'.repeat(length),
      'thousands of distinct names': names.join(', '),
      'one sentence of capitalised words': 'Alpha Beta Gamma Delta '.repeat(Math.round(length / 23)),
    }
  }
  // CPU time, not wall time: another process on the machine slows the clock on the wall, not this.
  const cpuMs = (text: string) => {
    const before = process.cpuUsage()
    const a = analyze(text, { language: 'en' })
    const used = process.cpuUsage(before)
    return { a, ms: (used.user + used.system) / 1000 }
  }
  const small = texts(3000)
  const large = texts(30_000)
  for (const name of Object.keys(large) as (keyof typeof large)[]) {
    cpuMs(small[name]) // warm-up: the first call also compiles the code it runs
    const base = Math.min(cpuMs(small[name]).ms, cpuMs(small[name]).ms)
    const { a, ms } = cpuMs(large[name])
    // Ten times the text: linear work costs about ten times the CPU, a quadratic blow-up a hundred
    // times. The allowance of thirty (and 50 ms for the clock's grain) absorbs noise, not growth.
    t.ok(ms <= 30 * base + 50, `${name}: ${ms.toFixed(0)} ms of CPU for 30,000 characters, ${base.toFixed(0)} ms for 3,000`)
    t.ok(large[name].length >= 29_000)
    for (const list of Object.values(a.entities)) t.ok(list.length <= 100)
  }
})
