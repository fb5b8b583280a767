// An analysis answer (with `entityDetails`) shown to a person: the text with every mention
// highlighted and labelled by type, the entity table and the relation table whose evidence
// lights up in the text. Pure functions of the text and the answer; every piece of the text or
// the answer reaches the page through `html` (escaped).
//
// Readable without colour: each entity type has its own underline style and a visible tag
// (PER, ORG, LOC, OBJ), and every mark carries its type and entity in words for screen readers.
import type { components } from '../../generated/api-types.ts'
import { html, type Html } from './html.ts'
import { utf16Index, type OffsetEncoding } from './offsets.ts'

/** The answer of POST /v1/analyze without its `meta`. */
export type AnalysisView = Omit<components['schemas']['AnalyzeResult'], 'meta'>
export type EntityDetail = components['schemas']['EntityDetail']
export type Relation = components['schemas']['Relation']
export type EntityType = EntityDetail['type']

export const TYPE_TAG: Record<EntityType, string> = { person: 'PER', organization: 'ORG', location: 'LOC', object: 'OBJ' }

/** A mention placed in the text: UTF-16 indexes, and the entity it belongs to (index in entityDetails). */
interface Placed {
  start: number
  end: number
  entity: number
  alias: boolean
  children: Placed[]
}

/** A distinct evidence range in the text, shared by the relations that quote it. */
export interface Evidence {
  id: string
  start: number
  end: number
}

export interface TextLayout {
  /** Mentions not highlighted: offsets outside the text, not matching its `text`, or crossing another mention. */
  unplaced: number
  /** The evidence of each relation (same order as `relations`), when its offsets fit the text. */
  evidenceOf: (Evidence | undefined)[]
  markup: Html
}

/** The marked-up text. `encoding` is the one the analysis was asked for. */
export function annotateText(text: string, result: AnalysisView, encoding: OffsetEncoding): TextLayout {
  const toIndex = utf16Index(text, encoding)
  const details = result.entityDetails ?? []
  let unplaced = 0

  const flat: Placed[] = []
  details.forEach((d, entity) => {
    for (const m of d.mentions) {
      const start = toIndex(m.start)
      const end = toIndex(m.end)
      if (start === undefined || end === undefined || start >= end || text.slice(start, end) !== m.text) {
        unplaced++
        continue
      }
      flat.push({ start, end, entity, alias: m.kind === 'alias', children: [] })
    }
  })
  // Outer before inner: by start, the longer first. A mention inside another is drawn inside
  // it; one that crosses another's edge cannot be drawn as an element and is left out.
  flat.sort((a, b) => a.start - b.start || b.end - a.end || a.entity - b.entity)
  const roots: Placed[] = []
  const open: Placed[] = []
  for (const m of flat) {
    while (open.length > 0 && open[open.length - 1].end <= m.start) open.pop()
    const parent = open[open.length - 1]
    if (parent && m.end > parent.end) {
      unplaced++
      continue
    }
    ;(parent ? parent.children : roots).push(m)
    open.push(m)
  }

  // Evidence ranges; an edge that falls inside a highlighted mention moves out to the mention's
  // edge, so each piece of evidence is made of whole marks.
  const snap = (i: number, outward: 'start' | 'end') => {
    for (const r of roots) if (r.start < i && i < r.end) return outward === 'start' ? r.start : r.end
    return i
  }
  const evidence = new Map<string, Evidence>()
  const evidenceOf = result.relations.map((r) => {
    if (r.evidenceStart === undefined || r.evidenceEnd === undefined) return undefined
    const s = toIndex(r.evidenceStart)
    const e = toIndex(r.evidenceEnd)
    if (s === undefined || e === undefined || s >= e) return undefined
    const start = snap(s, 'start')
    const end = snap(e, 'end')
    const key = `${start}:${end}`
    let ev = evidence.get(key)
    if (!ev) {
      ev = { id: `ev${evidence.size}`, start, end }
      evidence.set(key, ev)
    }
    return ev
  })

  // The text cut at every evidence edge; each piece is wrapped once for every evidence range it
  // belongs to. The first piece of each range carries its id: the link target (`#ev3`) for the
  // page without script.
  const ranges = [...evidence.values()]
  const cuts = [...new Set([0, text.length, ...ranges.flatMap((e) => [e.start, e.end])])].sort((a, b) => a - b)
  const anchored = new Set<string>()
  const pieces: Html[] = []
  for (let i = 0; i + 1 < cuts.length; i++) {
    const [a, b] = [cuts[i], cuts[i + 1]]
    let piece = span(text, a, b, roots, details)
    for (const e of ranges.filter((e) => e.start <= a && b <= e.end).reverse()) {
      const first = !anchored.has(e.id)
      anchored.add(e.id)
      piece = html`<span class="ev" data-ev="${e.id}"${first ? html` id="${e.id}"` : ''}>${piece}</span>`
    }
    pieces.push(piece)
  }
  return { unplaced, evidenceOf, markup: html`<div class="annotated" data-testid="annotated">${pieces}</div>` }
}

/** Text from `a` to `b` with the marks (and their inner marks) that lie in it. */
function span(text: string, a: number, b: number, marks: Placed[], details: EntityDetail[]): Html {
  const out: Html[] = []
  let at = a
  for (const m of marks) {
    if (m.end <= a || m.start >= b) continue
    out.push(html`${text.slice(at, m.start)}`)
    out.push(mark(text, m, details))
    at = m.end
  }
  out.push(html`${text.slice(at, b)}`)
  return html`${out}`
}

function mark(text: string, m: Placed, details: EntityDetail[]): Html {
  const d = details[m.entity]
  const words = m.alias ? `${d.type}, refers to ${d.name}` : d.type
  return html`<mark class="m t-${d.type}${m.alias ? ' alias' : ''}" data-entity="${m.entity}" data-tag="${TYPE_TAG[d.type]}" title="${d.name} (${d.type}${m.alias ? ', alias' : ''})">${span(text, m.start, m.end, m.children, details)}<span class="visually-hidden"> (${words})</span></mark>`
}

/** The legend of the marks: each type's tag and underline, in words. */
export function legend(): Html {
  const styles: Record<EntityType, string> = {
    person: 'solid underline',
    organization: 'double underline',
    location: 'dotted underline',
    object: 'dashed underline',
  }
  return html`<ul class="legend" aria-label="Entity types">${(Object.keys(TYPE_TAG) as EntityType[]).map(
    (t) => html`<li><mark class="m t-${t}" data-tag="${TYPE_TAG[t]}">${t}</mark> <span class="hint">${styles[t]}</span></li>`,
  )}<li><mark class="m t-person alias" data-tag="PER">alias</mark> <span class="hint">no fill: a shorter form of a name, such as a surname alone</span></li></ul>`
}

function fixed(n: number, digits: number): string {
  return n.toFixed(digits)
}

export function entityTable(result: AnalysisView): Html {
  const details = result.entityDetails ?? []
  if (details.length === 0) return html`<p>No entities were found in this text.</p>`
  return html`<div class="table-wrap"><table class="stack entities"><caption>Entities, by type and salience</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Type</th><th scope="col" class="num">Confidence</th><th scope="col" class="num">Salience</th><th scope="col" class="num">Mentions</th></tr></thead>
<tbody>${details.map(
    (d, i) =>
      html`<tr data-entity="${i}"><th scope="row" data-label="Name">${d.name}</th><td data-label="Type"><span class="tag t-${d.type}">${TYPE_TAG[d.type]}</span> ${d.type}</td><td class="num" data-label="Confidence">${fixed(d.confidence, 2)}</td><td class="num" data-label="Salience">${fixed(d.salience, 3)}</td><td class="num" data-label="Mentions">${d.mentions.length}</td></tr>`,
  )}</tbody></table></div>`
}

export function relationLabel(type: string): string {
  return type.replaceAll('_', ' ')
}

/**
 * The relations; each row names its evidence range (`data-evidence`), which the page's script
 * highlights in the text while the row is hovered or has the keyboard focus. Without script the
 * evidence is a link to its place in the text, highlighted there as the target.
 */
export function relationTable(result: AnalysisView, evidenceOf: (Evidence | undefined)[]): Html {
  if (result.relations.length === 0) return html`<p>No relations were found between these entities.</p>`
  return html`<div class="table-wrap"><table class="stack relations"><caption>Relations, read as “source relation target”</caption>
<thead><tr><th scope="col">Source</th><th scope="col">Relation</th><th scope="col">Target</th><th scope="col" class="num">Confidence</th><th scope="col">Sentiment</th><th scope="col">Evidence</th></tr></thead>
<tbody>${result.relations.map((r, i) => {
    const ev = evidenceOf[i]
    const quote = r.evidence ?? ''
    return html`<tr class="relation"${ev ? html` data-evidence="${ev.id}"` : ''}><td data-label="Source">${r.source}</td><td data-label="Relation">${relationLabel(r.type)}</td><td data-label="Target">${r.target}</td><td class="num" data-label="Confidence">${fixed(r.confidence, 2)}</td><td data-label="Sentiment">${r.sentiment}</td>
<td data-label="Evidence">${ev ? html`<a class="evidence-link" href="#${ev.id}" aria-label="Evidence for ${r.source} ${relationLabel(r.type)} ${r.target}: ${quote}">${quote || 'show in the text'}</a>` : quote}</td></tr>`
  })}</tbody></table></div>`
}
