// Where gold objects (products, works) are lost on a dev set: for each gold object name (canonical
// names per text, the scoring of `npm run eval`), whether it is reported, found as an object but
// under the report cut, found with another type, found by the tagger as a miscellaneous span,
// found with other boundaries, or missing; and what the reported objects that are wrong are.
// Usage: npx tsx scripts/nlp/object-errors.ts <file.jsonl> [--models DIR] [--examples N]
import { parseArgs } from 'node:util'
import { loadEntityModels } from '../../src/nlp/index.ts'
import { entityCandidates } from '../../src/nlp/mentions.ts'
import { confidenceOf, REPORT_CUT } from '../../src/nlp/confidence.ts'
import { tagDocument } from '../../src/nlp/tagger.ts'
import { tokenize } from '../../src/nlp/tokens.ts'
import { cleanName } from '../../src/nlp/entities.ts'
import { goldCanon, goldMentions } from './data.ts'
import { readNer } from './ner-data.ts'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { models: { type: 'string' }, examples: { type: 'string', default: '8' } },
})
const models = loadEntityModels(values.models)
const nEx = Number(values.examples)
const norm = (s: string) =>
  cleanName(s)
    .toLowerCase()
    .replace(/[.’']/g, '')
    .replace(/^the\s+/, '')
    .replace(/\s+/g, ' ')
    .trim()

for (const file of positionals) {
  const rows = readNer(file)
  const cats = new Map<string, string[]>()
  const add = (c: string, ex: string) => {
    const l = cats.get(c) ?? []
    l.push(ex)
    cats.set(c, l)
  }
  const fps = new Map<string, string[]>()
  const addFp = (c: string, ex: string) => {
    const l = fps.get(c) ?? []
    l.push(ex)
    fps.set(c, l)
  }
  let gold = 0
  const noisyDocs = { all: 0, noisy: 0 }
  for (const ex of rows) {
    const doc = tokenize(ex.text)
    const g = goldCanon(ex)
    const goldObj = [...g.names].filter((k) => k.startsWith('OBJ|')).map((k) => k.slice(4))
    const goldAny = new Map<string, string>()
    for (const k of g.names) goldAny.set(norm(k.slice(k.indexOf('|') + 1)), k.slice(0, k.indexOf('|')))
    // Gold MISC names too (CrossNER's other labels): a predicted object that is gold MISC is no error of ours.
    const goldMisc = new Set((ex.entities ?? []).filter((e) => e.type === 'MISC' || e.type === 'Other').map((e) => norm(e.text)))
    const cands = entityCandidates(doc, models.tagger).map(({ entity, features }) => ({
      e: entity,
      conf: confidenceOf(models.confidence, features),
    }))
    const { spans, noisy } = tagDocument(models.tagger, doc)
    noisyDocs.all++
    if (noisy) noisyDocs.noisy++
    const miscSpans = spans
      .filter((s) => s.type === 'MISC')
      .map((s) => doc.text.slice(doc.tokens[s.first].start, doc.tokens[s.last - 1].end))
    const gms = goldMentions(ex).filter((m) => m.type === 'OBJ')
    for (const name of goldObj) {
      gold++
      const n = norm(name)
      const tag = `${name}${noisy ? ' [noisy]' : ''}`
      const same = cands.filter((c) => norm(c.e.name) === n)
      const obj = same.find((c) => c.e.type === 'OBJ')
      if (obj) {
        if (obj.conf >= REPORT_CUT) add(obj.e.name === name ? 'reported' : 'reported, other spelling', `${tag} / ${obj.e.name}`)
        else add('object under the cut', `${tag} (${obj.conf.toFixed(2)})`)
        continue
      }
      if (same.length) {
        add(`typed ${same[0].e.type}`, `${tag} (${same[0].conf.toFixed(2)})`)
        continue
      }
      if (miscSpans.some((s) => norm(s) === n)) {
        add('tagger MISC, exact', tag)
        continue
      }
      // Overlap of any candidate mention with a gold mention of this name.
      const gm = gms.filter((m) => norm(m.text) === n)
      const over = cands.find((c) => c.e.mentions.some((m) => gm.some((x) => m.start < x.end && m.end > x.start)))
      if (over) {
        add(`boundary (as ${over.e.type})`, `${tag} ~ ${over.e.name} (${over.conf.toFixed(2)})`)
        continue
      }
      const ms = spans.find(
        (s) => s.type === 'MISC' && gm.some((x) => doc.tokens[s.first].start < x.end && doc.tokens[s.last - 1].end > x.start),
      )
      if (ms) {
        add('tagger MISC, boundary', `${tag} ~ ${doc.text.slice(doc.tokens[ms.first].start, doc.tokens[ms.last - 1].end)}`)
        continue
      }
      add('missing', tag)
    }
    for (const c of cands) {
      if (c.e.type !== 'OBJ' || c.conf < REPORT_CUT) continue
      if (g.names.has(`OBJ|${c.e.name}`)) continue
      const n = norm(c.e.name)
      const t = goldAny.get(n)
      const tag = `${c.e.name} (${c.conf.toFixed(2)})`
      if (t) addFp(`gold ${t}`, tag)
      else if (goldMisc.has(n)) addFp('gold MISC', tag)
      else if (goldObj.some((o) => norm(o).includes(n) || n.includes(norm(o)))) addFp('boundary', tag)
      else addFp('not in gold', tag)
    }
  }
  const tp = (cats.get('reported') ?? []).length
  const fp = [...fps.values()].reduce((a, l) => a + l.length, 0)
  const fpMisc = (fps.get('gold MISC') ?? []).length
  const f1 = (p: number) => (2 * tp) / Math.max(1, tp + p + gold)
  console.log(`\n${file}: ${gold} gold object names; ${noisyDocs.noisy}/${noisyDocs.all} texts informal`)
  console.log(
    `  objects F1 ${f1(fp).toFixed(3)} (${tp} right, ${fp} wrong); ${f1(fp - fpMisc).toFixed(3)} if an object that is a gold miscellaneous name counted neither way`,
  )
  for (const [c, l] of [...cats].sort((a, b) => b[1].length - a[1].length))
    console.log(`  ${c.padEnd(28)} ${String(l.length).padStart(4)}  ${l.slice(0, nEx).join(' | ')}`)
  console.log('  wrong objects reported:')
  for (const [c, l] of [...fps].sort((a, b) => b[1].length - a[1].length))
    console.log(`  ${c.padEnd(28)} ${String(l.length).padStart(4)}  ${l.slice(0, nEx).join(' | ')}`)
}
