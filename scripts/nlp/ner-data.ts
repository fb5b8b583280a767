// The corpora as the entity tagger and its evaluation read them: one flat list of labelled
// spans per text, whatever the file's own shape (Re-DocRED's entity clusters, CrossNER's fine
// labels), and folds by document for the sets that have no dev split.
import { createRequire } from 'node:module'
import { hash32 } from './metrics.ts'
import { readJsonl, type Example, type GoldEntity } from './data.ts'

const require = createRequire(import.meta.url)

/** CrossNER fine labels that name a product or a work: the service's objects. */
export const OBJECT_LABELS = new Set(['product', 'album', 'song', 'book', 'poem', 'magazine', 'musicalinstrument'])

/** Sets without a dev split: scored by cross-validation, folds by document. */
export const CV_SETS = ['redocred/train.jsonl', 'btc/train_grouped.jsonl', 'sec/train_grouped.jsonl']

let demonyms: Set<string> | undefined
/** Nationality adjectives and their plurals ("German", "Germans", "Transylvanian" is not known). */
export function isDemonym(text: string): boolean {
  if (!demonyms) {
    demonyms = new Set()
    const wc = require('world-countries') as
      { demonyms?: Record<string, { f: string; m: string }> }[] | { default: { demonyms?: Record<string, { f: string; m: string }> }[] }
    for (const c of Array.isArray(wc) ? wc : wc.default) {
      const d = c.demonyms?.eng
      if (!d) continue
      for (const w of [d.m, d.f]) {
        if (!w) continue
        demonyms.add(w.toLowerCase())
        demonyms.add(w.toLowerCase() + 's')
      }
    }
    for (const w of [
      'english',
      'scottish',
      'welsh',
      'irish',
      'british',
      'european',
      'african',
      'asian',
      'arab',
      'arabs',
      'soviet',
      'latin',
      'scandinavian',
      'hispanic',
      'jewish',
      'persian',
      'roman',
      'ottoman',
      'byzantine',
      'catalan',
      'basque',
      'flemish',
      'bavarian',
      'prussian',
      'kurdish',
      'tamil',
      'punjabi',
      'bengali',
      'quebecois',
      'texan',
      'californian',
      'canadian',
      'australian',
      'american',
      'americans',
      'hawaiian',
    ])
      demonyms.add(w)
  }
  return demonyms.has(text.trim().toLowerCase())
}

/**
 * One text's labelled spans with the tagger's label in `type` (PER, ORG, LOC, MISC, OBJ, or a
 * label the tagger does not learn). Re-DocRED: every mention of every cluster; TIME and NUM are
 * no names (dropped, so tagged O). Everywhere: a "location" that is a nationality adjective
 * ("German", DocRED's convention) is MISC, as CoNLL-2003 has it: no location in this API.
 */
export function nerView(ex: Example): Example {
  const out: GoldEntity[] = []
  for (const e of (ex.entities ?? []) as (GoldEntity & { label?: string; mentions?: GoldEntity[] })[]) {
    if (e.mentions) {
      if (e.type === 'TIME' || e.type === 'NUM') continue
      for (const m of e.mentions) out.push({ text: m.text, start: m.start, end: m.end, type: e.type })
      continue
    }
    let type = e.type
    if (e.label && OBJECT_LABELS.has(e.label)) type = 'OBJ'
    out.push({ text: e.text, start: e.start, end: e.end, type })
  }
  for (const e of out) if ((e.type === 'LOC' || e.type === 'Loc' || e.type === 'location') && isDemonym(e.text)) e.type = 'MISC'
  out.sort((a, b) => a.start - b.start || b.end - a.end)
  // A cluster's mentions can overlap another's (DocRED): the first and longest wins.
  const kept: GoldEntity[] = []
  let end = -1
  for (const e of out) {
    if (e.start < end) continue
    kept.push(e)
    end = e.end
  }
  return { id: ex.id, text: ex.text, entities: kept }
}

export function readNer(file: string): Example[] {
  return readJsonl(file).map(nerView)
}

/** Fold of a document (by its id), 0..k-1: the same for training and evaluation. */
export function foldOf(id: string, k: number): number {
  return hash32(id) % k
}
