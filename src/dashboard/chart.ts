// The usage chart: requests per UTC day for the last 30 days against the daily limit, as an
// SVG rendered on the server (no script). Readable without colour: the limit is a dashed,
// labelled line, today's bar is outlined and labelled, every bar carries its value as text
// and a <title>, and the same numbers follow in a table.
import { addUtcDays } from '../domain/clock.ts'
import { html, type Html } from './html.ts'

export const CHART_DAYS = 30

export interface DayCount {
  day: string
  used: number
}

export interface ChartDay extends DayCount {
  /** The daily limit of the plan in force that day (at its end, or now for today). */
  limit: number
}

/** The last `days` UTC days ending with `today`, oldest first, with 0 for days without requests. */
export function fillDays(history: DayCount[], today: string, limitOn: (day: string) => number, days = CHART_DAYS): ChartDay[] {
  const byDay = new Map(history.map((h) => [h.day, h.used]))
  const out: ChartDay[] = []
  for (let i = days - 1; i >= 0; i--) {
    const day = addUtcDays(today, -i)
    out.push({ day, used: byDay.get(day) ?? 0, limit: limitOn(day) })
  }
  return out
}

const W = 720
const H = 260
const PAD = { top: 28, right: 28, bottom: 44, left: 56 }

function niceMax(n: number): number {
  if (n <= 10) return 10
  const p = 10 ** Math.floor(Math.log10(n))
  for (const m of [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10]) if (m * p >= n) return m * p
  return 10 * p
}

function shortDay(day: string): string {
  return day.slice(5) // MM-DD
}

export function usageChart(days: ChartDay[], today: string): Html {
  const top = niceMax(Math.max(...days.map((d) => Math.max(d.limit, d.used))) * 1.05)
  const plotW = W - PAD.left - PAD.right
  const plotH = H - PAD.top - PAD.bottom
  const slot = plotW / days.length
  const barW = Math.max(4, slot * 0.7)
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH
  const total = days.reduce((s, d) => s + d.used, 0)
  const last = days[days.length - 1]
  const todayCount = last.day === today ? last.used : 0
  const limit = last.limit
  const ticks = [0, top / 2, top]
  const changed = days.some((d) => d.limit !== limit)
  // The limit as a step line: level across each day's slot, so a plan change shows on its day.
  const steps = days
    .map(
      (d, i) =>
        `${i === 0 ? 'M' : 'L'}${(PAD.left + i * slot).toFixed(1)} ${y(d.limit).toFixed(1)} H${(PAD.left + (i + 1) * slot).toFixed(1)}`,
    )
    .join(' ')

  const bars = days.map((d, i) => {
    const x = PAD.left + i * slot + (slot - barW) / 2
    const h = (d.used / top) * plotH
    const isToday = d.day === today
    const label = `${d.day}${isToday ? ' (today)' : ''}: ${d.used} request${d.used === 1 ? '' : 's'} of ${d.limit}`
    return html`<g class="bar${isToday ? ' today' : ''}" data-day="${d.day}" data-used="${d.used}" data-limit="${d.limit}"><title>${label}</title>
<rect x="${x.toFixed(1)}" y="${(PAD.top + plotH - h).toFixed(1)}" width="${barW.toFixed(1)}" height="${Math.max(h, d.used > 0 ? 1 : 0).toFixed(1)}"></rect>
${d.used > 0 || isToday ? html`<text class="value" x="${(x + barW / 2).toFixed(1)}" y="${(PAD.top + plotH - h - 4).toFixed(1)}" text-anchor="middle">${d.used}</text>` : ''}
${i % 5 === 4 || isToday || i === 0 ? html`<text class="day" x="${(x + barW / 2).toFixed(1)}" y="${H - PAD.bottom + 20}" text-anchor="middle">${isToday ? 'today' : shortDay(d.day)}</text>` : ''}</g>`
  })

  const limitWords = changed
    ? `the daily limit of each day's plan (dashed line; today ${limit})`
    : `the daily limit of ${limit} (dashed line)`
  return html`<figure class="chart">
<svg viewBox="0 0 ${W} ${H}" role="img" aria-labelledby="chart-title chart-desc" xmlns="http://www.w3.org/2000/svg">
<title id="chart-title">Requests per day, last ${days.length} UTC days</title>
<desc id="chart-desc">${days[0].day} to ${today}: ${total} requests in total; today ${todayCount} of the daily limit of ${limit}.${changed ? ' The limit changed with the plan during the period.' : ''}</desc>
${ticks.map((v) => html`<g class="tick"><line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"></line><text x="${PAD.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${Math.round(v)}</text></g>`)}
${bars}
<g class="limit"><path d="${steps}"></path>
<text x="${W - PAD.right}" y="${(y(limit) - 6).toFixed(1)}" text-anchor="end">Daily limit ${limit}</text></g>
</svg>
<figcaption>Requests per UTC day for the last ${days.length} days (bars) against ${limitWords}. Today: <strong>${todayCount}</strong> of ${limit}.</figcaption>
</figure>
<details class="chart-table"><summary>The numbers as a table</summary>
<div class="table-wrap"><table><caption>Requests per UTC day</caption><thead><tr><th scope="col">Day (UTC)</th><th scope="col">Requests</th><th scope="col">Daily limit</th></tr></thead>
<tbody>${[...days].reverse().map((d) => html`<tr><th scope="row">${d.day}${d.day === today ? ' (today)' : ''}</th><td>${d.used}</td><td>${d.limit}</td></tr>`)}</tbody></table></div>
</details>`
}
