// FewRel 1.0 sentences as extra positives for the relation classifiers (member_of: FEWREL_TYPES).
// Each sentence annotates one pair; its other pairs are unlabelled, not negatives. So only the
// annotated pair's candidates are trained on, as positives, and without the features that say
// how often a text relates a pair (priorFeatures): the sentences teach what a kin or membership
// sentence says, not how many pairs are related. They are never scored, calibrated on, or used
// to set a threshold: the prior of positives-only data is not that of any text.
import { tokenize } from '../../src/nlp/tokens.ts'
import { extractEntities, type EntityModels } from '../../src/nlp/mentions.ts'
import type { EntityType } from '../../src/nlp/entities.ts'
import { RELATION_ENTITY_CUT, priorFeatures, type PlaceTable } from '../../src/nlp/relations.ts'
import type { RelationType } from '../../src/nlp/types.ts'
import { readJsonl } from './data.ts'
import { prepareDoc, type PreparedDoc, type RelDoc } from './relation-data.ts'

export const FEWREL_FILE = 'fewrel/val_wiki_mapped.jsonl'
/**
 * The types trained from it: member of (P463). Its kin sentences (spouse, mother, child) showed no
 * gain for family_of on Re-DocRED (docs/experiments/relations.md).
 */
export const FEWREL_TYPES: RelationType[] = ['member_of']

interface Span {
  text: string
  start: number
  end: number
}

interface FewRelRow {
  id: string
  text: string
  source: Span
  target: Span
  type: RelationType
}

/** The type the engine gives a span (an entity mention overlapping it), else `fallback`. */
function spanType(models: EntityModels, text: string, span: Span, fallback: EntityType): EntityType {
  const entities = extractEntities(tokenize(text), models, { cut: RELATION_ENTITY_CUT })
  for (const e of entities) for (const m of e.mentions) if (m.start < span.end && m.end > span.start && e.type !== 'OBJ') return e.type
  return fallback
}

/** The annotated pairs of FewRel as positives-only prepared documents (both directions for family_of). */
export function prepareFewRel(models: EntityModels, places: PlaceTable, log: (s: string) => void = () => {}): PreparedDoc[] {
  const t0 = Date.now()
  const out: PreparedDoc[] = []
  const strip = new Map<number, Set<number>>()
  let n = 0
  for (const r of readJsonl(FEWREL_FILE) as unknown as FewRelRow[]) {
    if (!FEWREL_TYPES.includes(r.type)) continue
    // Kin are persons; a member is a person, a country or an organization, of an organization.
    const sType: EntityType = r.type === 'family_of' ? 'PER' : spanType(models, r.text, r.source, 'PER')
    const tType: EntityType = r.type === 'family_of' ? 'PER' : 'ORG'
    const triples = new Set([`${r.type}|0|1`])
    if (r.type === 'family_of') triples.add(`${r.type}|1|0`)
    const rel: RelDoc = {
      id: r.id,
      domain: 'fewrel',
      text: r.text,
      clusters: [
        { type: sType, mentions: [r.source] },
        { type: tType, mentions: [r.target] },
      ],
      triples,
      annotated: new Set([r.type]),
      trained: new Set([r.type]),
    }
    const d = prepareDoc(rel, true, places, models)
    for (const set of d.sets) {
      set.items = set.items.filter((it) => it.y === 1)
      for (const it of set.items) {
        const row = set.rows[it.row]
        const tp = row.feats[1]
        let drop = strip.get(tp)
        if (!drop) strip.set(tp, (drop = priorFeatures(row.candidate)))
        row.feats = row.feats.filter((f) => !drop.has(f))
      }
      n += set.items.length
    }
    out.push(d)
  }
  log(`relations: FewRel: ${out.length} sentences, ${n} positive (candidate, type) samples (${Date.now() - t0} ms)`)
  return out
}
