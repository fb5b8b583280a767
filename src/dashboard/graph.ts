// A small graph of an analysis as an SVG rendered on the server: entities as nodes on a circle,
// relations as labelled arrows. Readable without colour: each entity type has its own node
// shape and tag, each arrow its relation in words, and every node and edge a <title>; the same
// facts are in the tables beside it.
import { html, type Html } from './html.ts'
import { relationLabel, TYPE_TAG, type AnalysisView, type Evidence, type EntityType } from './analysis-view.ts'

/** Beyond this many nodes the circle gets too crowded to read; the tables list everything. */
export const MAX_NODES = 12

const W = 720
const H = 440
const R = 18
const LABEL_MAX = 22

interface Node {
  entity: number
  x: number
  y: number
}

function short(name: string): string {
  const chars = [...name]
  return chars.length > LABEL_MAX ? chars.slice(0, LABEL_MAX - 1).join('') + '…' : name
}

function shape(type: EntityType, x: number, y: number): Html {
  const f = (n: number) => n.toFixed(1)
  switch (type) {
    case 'person':
      return html`<circle cx="${f(x)}" cy="${f(y)}" r="${R}"></circle>`
    case 'organization':
      return html`<rect x="${f(x - R)}" y="${f(y - R)}" width="${2 * R}" height="${2 * R}" rx="3"></rect>`
    case 'location':
      return html`<polygon points="${f(x)},${f(y - R - 4)} ${f(x + R + 4)},${f(y)} ${f(x)},${f(y + R + 4)} ${f(x - R - 4)},${f(y)}"></polygon>`
    case 'object': {
      const pts = [0, 1, 2, 3, 4, 5].map((k) => {
        const a = (Math.PI / 3) * k
        return `${f(x + (R + 2) * Math.cos(a))},${f(y + (R + 2) * Math.sin(a))}`
      })
      return html`<polygon points="${pts.join(' ')}"></polygon>`
    }
  }
}

/** The entity index of a relation end: the index the answer gives, else the first entity of that name. */
function endIndex(result: AnalysisView, index: number | undefined, name: string): number | undefined {
  const details = result.entityDetails ?? []
  if (index !== undefined && details[index]) return index
  const found = details.findIndex((d) => d.name === name)
  return found < 0 ? undefined : found
}

export function relationGraph(result: AnalysisView, evidenceOf: (Evidence | undefined)[] = []): Html {
  const details = result.entityDetails ?? []
  if (details.length === 0) return html``
  const edges = result.relations
    .map((r, i) => ({
      r,
      source: endIndex(result, r.sourceIndex, r.source),
      target: endIndex(result, r.targetIndex, r.target),
      evidence: evidenceOf[i],
    }))
    .filter((e): e is typeof e & { source: number; target: number } => e.source !== undefined && e.target !== undefined)

  // Entities in relations first (by how many), then the most salient others, up to MAX_NODES.
  const degree = new Map<number, number>()
  for (const e of edges) for (const n of [e.source, e.target]) degree.set(n, (degree.get(n) ?? 0) + 1)
  const chosen = [...details.keys()]
    .sort((a, b) => (degree.get(b) ?? 0) - (degree.get(a) ?? 0) || details[b].salience - details[a].salience || a - b)
    .slice(0, MAX_NODES)
  const nodes = new Map<number, Node>()
  const cx = W / 2
  const cy = H / 2
  const rx = W / 2 - 110
  const ry = H / 2 - 60
  chosen.forEach((entity, k) => {
    const a = -Math.PI / 2 + (2 * Math.PI * k) / chosen.length
    nodes.set(entity, chosen.length === 1 ? { entity, x: cx, y: cy } : { entity, x: cx + rx * Math.cos(a), y: cy + ry * Math.sin(a) })
  })
  const shown = edges.filter((e) => nodes.has(e.source) && nodes.has(e.target) && e.source !== e.target)

  // Several relations between one pair: their labels are spread along the perpendicular.
  const pairCount = new Map<string, number>()
  const edgeMarkup = shown.map((e) => {
    const a = nodes.get(e.source)!
    const b = nodes.get(e.target)!
    const pair = [e.source, e.target].sort((p, q) => p - q).join('-')
    const k = pairCount.get(pair) ?? 0
    pairCount.set(pair, k + 1)
    const dx = b.x - a.x
    const dy = b.y - a.y
    const len = Math.hypot(dx, dy) || 1
    const ux = dx / len
    const uy = dy / len
    const gap = R + 6
    const [x1, y1, x2, y2] = [a.x + ux * gap, a.y + uy * gap, b.x - ux * gap, b.y - uy * gap]
    const shift = (k % 2 === 0 ? 1 : -1) * Math.ceil(k / 2) * 16
    const lx = (x1 + x2) / 2 - uy * shift
    const ly = (y1 + y2) / 2 + ux * shift - 4
    const label = relationLabel(e.r.type)
    return html`<g class="edge sentiment-${e.r.sentiment}"${e.evidence ? html` data-evidence="${e.evidence.id}"` : ''}><title>${e.r.source} ${label} ${e.r.target} (confidence ${e.r.confidence.toFixed(2)}, ${e.r.sentiment})</title>
<line x1="${x1.toFixed(1)}" y1="${y1.toFixed(1)}" x2="${x2.toFixed(1)}" y2="${y2.toFixed(1)}" marker-end="url(#arrow)"></line>
<text x="${lx.toFixed(1)}" y="${ly.toFixed(1)}" text-anchor="middle">${label}</text></g>`
  })

  const nodeMarkup = [...nodes.values()].map((n) => {
    const d = details[n.entity]
    return html`<g class="node t-${d.type}" data-entity="${n.entity}"><title>${d.name} (${d.type}, salience ${d.salience.toFixed(3)})</title>
${shape(d.type, n.x, n.y)}
<text class="tag" x="${n.x.toFixed(1)}" y="${(n.y + 4).toFixed(1)}" text-anchor="middle">${TYPE_TAG[d.type]}</text>
<text class="name" x="${n.x.toFixed(1)}" y="${(n.y + R + 18).toFixed(1)}" text-anchor="middle">${short(d.name)}</text></g>`
  })

  const left = details.length - nodes.size
  const summary = `${nodes.size} of ${details.length} entities and ${shown.length} of ${result.relations.length} relations drawn${left > 0 ? `; the ${left} least connected entities are left out` : ''}.`
  return html`<figure class="graph">
<svg viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="graph-title graph-desc" xmlns="http://www.w3.org/2000/svg">
<title id="graph-title">Entities and relations</title>
<desc id="graph-desc">${summary} Node shapes: circle person, square organization, diamond location, hexagon object. The tables list the same relations.</desc>
<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"></path></marker></defs>
${edgeMarkup}
${nodeMarkup}
</svg>
<figcaption>${summary} Arrows point from source to target; shapes: ● person, ■ organization, ◆ location, ⬢ object.</figcaption>
</figure>`
}
