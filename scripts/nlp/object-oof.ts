// Objects out of fold: each training text is read by the fold tagger trained without it
// (`TEA_FOLDS_DIR`, as `npm run eval -- --cv K`), scored by the committed entity confidence, canonical
// names per text as `npm run eval` scores them. Prints objects P / R / F1 per file and, with --dump,
// each gold object name (reported, under the cut, typed otherwise, other boundaries, the tagger's
// MISC span, missing) and each wrong reported object, with its sentence and the tagger's spans in it.
// Usage: TEA_FOLDS_DIR=<dir> npx tsx scripts/nlp/object-oof.ts <file.jsonl>... [--cv K] [--dump]
import { parseArgs } from 'node:util'
import { writeFileSync } from 'node:fs'
import { tagDocument } from '../../src/nlp/tagger.ts'
import { buildEntities } from '../../src/nlp/entities.ts'
import { goldCanon, goldMentions, unscoredKey } from './data.ts'
import { readNer } from './ner-data.ts'
import { trainFoldTaggers } from './cv.ts'
import { outOfFoldReadings } from './oof-readings.ts'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { cv: { type: 'string', default: '3' }, dump: { type: 'boolean', default: false }, list: { type: 'string' } },
})
const k = Number(values.cv)
const folds = await trainFoldTaggers(k)
const listed: string[] = []
const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && a.end > b.start

for (const file of positionals) {
  const rows = readNer(file)
  const counts: Record<string, { tp: number; pred: number; gold: number }> = {}
  for (const t of ['PER', 'ORG', 'LOC', 'OBJ']) counts[t] = { tp: 0, pred: 0, gold: 0 }
  const lines: string[] = []
  for (const { ex, doc, tagger, engine, cands } of outOfFoldReadings(rows, folds, k)) {
    const g = goldCanon(ex)
    const { spans } = tagDocument(tagger, doc)
    const reported = new Set<string>()
    for (const e of engine.extract(doc).entities) {
      const key = `${e.type}|${e.name}`
      if (!g.names.has(key) && g.unscored.has(unscoredKey(e.name))) continue
      reported.add(key)
      listed.push(`${ex.id}\t${key}\t${g.names.has(key) ? 'right' : 'wrong'}\t${(e.confidence ?? 0).toFixed(2)}`)
      counts[e.type].pred++
      if (g.names.has(key)) counts[e.type].tp++
    }
    for (const key of g.names) counts[key.slice(0, 3)].gold++
    if (!values.dump) continue
    const sentOf = (start: number, end: number) => {
      const ts = doc.tokens.filter((x) => x.start < end && x.end > start)
      const s = ts.length ? ts[0].sent : 0
      const sent = doc.sentences[s]
      const out: string[] = []
      for (let i = sent.first; i < sent.last; i++) {
        const open = spans.filter((x) => x.first === i)
        for (const o of open) out.push(`[${o.type}:`)
        out.push(doc.tokens[i].text)
        const close = spans.filter((x) => x.last === i + 1)
        for (const _ of close) out.push(']')
      }
      return out.join(' ')
    }
    const goldEnts = buildEntities(goldMentions(ex), ex.text.length)
    for (const ge of goldEnts) {
      if (ge.type !== 'OBJ') continue
      const key = `OBJ|${ge.name}`
      let status: string
      const same = cands.find((c) => c.e.type === 'OBJ' && c.e.name === ge.name)
      const other = cands.find((c) => unscoredKey(c.e.name) === unscoredKey(ge.name))
      const over = cands.find((c) => c.e.mentions.some((m) => ge.mentions.some((x) => overlaps(m, x))))
      if (reported.has(key)) status = 'OK'
      else if (same) status = `CUT ${same.conf.toFixed(2)}`
      else if (other) status = `TYPE ${other.e.type} ${other.conf.toFixed(2)}`
      else if (over) status = `BOUND ${over.e.type} "${over.e.name}" ${over.conf.toFixed(2)}`
      else status = 'MISSING'
      const m = ge.mentions[0]
      lines.push(`G ${status.padEnd(12)} ${ge.name}  <<< ${sentOf(m.start, m.end)}`)
    }
    for (const r of reported) {
      if (!r.startsWith('OBJ|') || g.names.has(r)) continue
      const c = cands.find((x) => `${x.e.type}|${x.e.name}` === r)
      const m = c?.e.mentions[0]
      const goldOver = m
        ? (ex.entities ?? []).filter((x) => overlaps(m, x)).map((x) => `${(x as { label?: string }).label ?? x.type}:${x.text}`)
        : []
      lines.push(`W ${(c?.conf ?? 0).toFixed(2)} ${r.slice(4)} {${goldOver.join('; ')}}  <<< ${m ? sentOf(m.start, m.end) : ''}`)
    }
  }
  const f = (c: { tp: number; pred: number; gold: number }) => {
    const p = c.tp / Math.max(1, c.pred)
    const r = c.tp / Math.max(1, c.gold)
    return `${c.tp}/${c.pred}/${c.gold} P ${p.toFixed(3)} R ${r.toFixed(3)} F1 ${((2 * p * r) / Math.max(1e-9, p + r)).toFixed(3)}`
  }
  console.log(`\n${file} (${k} folds): tp/pred/gold`)
  for (const t of ['PER', 'ORG', 'LOC', 'OBJ']) console.log(`  ${t} ${f(counts[t])}`)
  for (const l of lines.sort()) console.log(l)
}
if (values.list) writeFileSync(values.list, listed.join('\n') + '\n')
