// Where entity recall and precision are lost (persons, organizations, places; canonical names per
// text, the scoring of `npm run eval`), out of fold: each document is read by the fold tagger
// trained without it (`TEA_FOLDS_DIR`, as `npm run eval -- --cv K`), scored by the committed entity
// confidence. Each gold name that is not reported goes to the first bucket that fits:
//   cut       the engine has that very name and type, under the report cut;
//   spelling  a reported name of the type that differs only in case, dots or a leading "the";
//   merge     a reported entity of the type holds a mention with a gold mention's exact span,
//             under another canonical name (the merging of mentions into names differs);
//   type      the name is a candidate of another type (reported or not);
//   boundary  a candidate's mention overlaps a gold mention of the name, with other boundaries;
//   MISC      only a miscellaneous span of the tagger overlaps it;
//   missing   nothing overlaps any of its mentions: the tagger never proposed it.
// Reported names not in gold likewise (type, boundary, not in gold).
// Usage: TEA_FOLDS_DIR=<dir> npx tsx scripts/nlp/entity-errors.ts <file.jsonl>... [--cv K] [--examples N]
//        [--cut X]  (a cut other than REPORT_CUT, to see what it would move)
import { parseArgs } from 'node:util'
import { REPORT_CUT } from '../../src/nlp/confidence.ts'
import { tagDocument } from '../../src/nlp/tagger.ts'
import { buildEntities, type Entity } from '../../src/nlp/entities.ts'
import { goldCanon, goldMentions, unscoredKey } from './data.ts'
import { readNer } from './ner-data.ts'
import { trainFoldTaggers } from './cv.ts'
import { outOfFoldReadings } from './oof-readings.ts'

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { cv: { type: 'string', default: '3' }, examples: { type: 'string', default: '10' }, cut: { type: 'string' } },
})
const k = Number(values.cv)
const nEx = Number(values.examples)
const cut = values.cut ? Number(values.cut) : REPORT_CUT
const NAMED = new Set(['PER', 'ORG', 'LOC'])
const folds = await trainFoldTaggers(k)

for (const file of positionals) {
  const rows = readNer(file)
  const miss = new Map<string, string[]>()
  const spur = new Map<string, string[]>()
  const add = (m: Map<string, string[]>, c: string, ex: string) => {
    const l = m.get(c) ?? []
    l.push(ex)
    m.set(c, l)
  }
  let tp = 0
  let goldN = 0
  let predN = 0
  for (const { ex, doc, tagger, engine, cands } of outOfFoldReadings(rows, folds, k)) {
    const g = goldCanon(ex)
    const reported = new Set<string>()
    if (values.cut) {
      for (const c of cands) if (c.conf >= cut) reported.add(`${c.e.type}|${c.e.name}`)
    } else for (const e of engine.extract(doc).entities) reported.add(`${e.type}|${e.name}`)
    const goldEnts = buildEntities(goldMentions(ex), ex.text.length)
    const { spans } = tagDocument(tagger, doc)
    const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && a.end > b.start
    for (const ge of goldEnts) {
      if (!NAMED.has(ge.type)) continue
      const key = `${ge.type}|${ge.name}`
      goldN++
      if (reported.has(key)) {
        tp++
        continue
      }
      const n = unscoredKey(ge.name)
      const tag = ge.name
      const same = cands.find((c) => c.e.type === ge.type && c.e.name === ge.name)
      if (same) {
        add(miss, `cut (${ge.type})`, `${tag} ${same.conf.toFixed(2)}`)
        continue
      }
      const spelled = [...reported].find((r) => r.startsWith(ge.type + '|') && unscoredKey(r.slice(4)) === n)
      if (spelled) {
        add(miss, 'spelling', `${tag} / ${spelled.slice(4)}`)
        continue
      }
      const exactSpan = (e: Entity) => e.mentions.some((m) => ge.mentions.some((x) => x.start === m.start && x.end === m.end))
      const merged = cands.find((c) => c.e.type === ge.type && c.conf >= cut && exactSpan(c.e))
      if (merged) {
        add(miss, 'merge', `${tag} / ${merged.e.name}`)
        continue
      }
      const other = cands.find((c) => unscoredKey(c.e.name) === n)
      if (other) {
        add(miss, `type ${ge.type}→${other.e.type}${other.conf >= cut ? '' : ' (under cut)'}`, `${tag} ${other.conf.toFixed(2)}`)
        continue
      }
      const over = cands.find((c) => c.e.mentions.some((m) => ge.mentions.some((x) => overlaps(m, x))))
      if (over) {
        const sub = over.e.type === ge.type ? '' : ` as ${over.e.type}`
        add(miss, `boundary (${ge.type}${sub})`, `${tag} ~ ${over.e.name} ${over.conf.toFixed(2)}`)
        continue
      }
      const misc = spans.find(
        (s) =>
          s.type === 'MISC' && ge.mentions.some((x) => overlaps({ start: doc.tokens[s.first].start, end: doc.tokens[s.last - 1].end }, x)),
      )
      if (misc) {
        add(miss, `tagger MISC (${ge.type})`, tag)
        continue
      }
      add(miss, `missing (${ge.type}${/^\p{Ll}/u.test(ge.name) ? ', lower case' : ''})`, tag)
    }
    const goldKeys = new Map<string, string>()
    for (const ge of goldEnts) goldKeys.set(unscoredKey(ge.name), ge.type)
    for (const r of reported) {
      const type = r.slice(0, 3)
      const name = r.slice(4)
      if (!NAMED.has(type)) continue
      if (!g.names.has(r) && g.unscored.has(unscoredKey(name))) continue
      predN++
      if (g.names.has(r)) continue
      const c = cands.find((x) => `${x.e.type}|${x.e.name}` === r)
      const conf = c ? c.conf.toFixed(2) : '-'
      const t = goldKeys.get(unscoredKey(name))
      if (t === type) add(spur, 'spelling or merge', `${name} ${conf}`)
      else if (t) add(spur, `type ${t}→${type}`, `${name} ${conf}`)
      else if (c && c.e.mentions.some((m) => goldEnts.some((ge) => ge.mentions.some((x) => overlaps(m, x)))))
        add(spur, `boundary (${type})`, `${name} ${conf}`)
      else if (c && (ex.entities ?? []).some((x) => !NAMED.has(x.type) && c.e.mentions.some((m) => overlaps(m, x))))
        add(spur, `overlaps gold MISC (${type})`, `${name} ${conf}`)
      else add(spur, `not in gold (${type})`, `${name} ${conf}`)
    }
  }
  const p = tp / Math.max(1, predN)
  const r = tp / Math.max(1, goldN)
  console.log(`\n${file} (${k} folds, cut ${cut}): ${goldN} gold names, ${predN} reported, ${tp} right`)
  console.log(`  P ${p.toFixed(3)} R ${r.toFixed(3)} F1 ${((2 * p * r) / Math.max(1e-9, p + r)).toFixed(3)}`)
  const show = (m: Map<string, string[]>, total: number) => {
    for (const [c, l] of [...m].sort((a, b) => b[1].length - a[1].length))
      console.log(
        `  ${c.padEnd(34)} ${String(l.length).padStart(5)} ${((100 * l.length) / total).toFixed(1).padStart(5)}%  ${l.slice(0, nEx).join(' | ')}`,
      )
  }
  console.log(`  gold names not reported (${goldN - tp}; % of them):`)
  show(miss, goldN - tp)
  console.log(`  reported names not in gold (${predN - tp}; % of them):`)
  show(spur, predN - tp)
}
