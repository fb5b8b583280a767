// Pure rendering: the escaping template helper and the usage chart.
import t from 'tap'
import { html, raw, escapeHtml } from '../../src/dashboard/html.ts'
import { fillDays, usageChart } from '../../src/dashboard/chart.ts'
import { money } from '../../src/dashboard/layout.ts'

t.test('html escapes every interpolated value unless it is already Html', async (t) => {
  const evil = `<script>alert("x")</script>' \`&`
  t.equal(
    html`<p title="${evil}">${evil}</p>`.value,
    '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; &#96;&amp;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; &#96;&amp;</p>',
  )
  t.equal(html`<ul>${['<a>', html`<li>ok</li>`]}</ul>`.value, '<ul>&lt;a&gt;<li>ok</li></ul>', 'arrays: strings escaped, Html kept')
  t.equal(html`${null}${undefined}${false}${0}`.value, '0')
  t.equal(html`${raw('<br>')}`.value, '<br>')
  t.equal(escapeHtml('a&b'), 'a&amp;b')
})

t.test('fillDays: the last 30 UTC days, oldest first, zeros where nothing was used', async (t) => {
  const days = fillDays(
    [
      { day: '2026-11-20', used: 7 },
      { day: '2026-10-01', used: 9 },
    ],
    '2026-11-22',
    () => 100,
  )
  t.equal(days.length, 30)
  t.same(days[0], { day: '2026-10-24', used: 0, limit: 100 })
  t.same(days[29], { day: '2026-11-22', used: 0, limit: 100 })
  t.same(days[27], { day: '2026-11-20', used: 7, limit: 100 })
  t.notOk(days.some((d) => d.day === '2026-10-01'))
  const leap = fillDays([], '2028-03-01', () => 100)
  t.equal(leap[28].day, '2028-02-29', 'crosses a leap day')
})

t.test('the chart: bars with values and titles, a labelled dashed limit line, a table', async (t) => {
  const days = fillDays(
    [
      { day: '2026-11-22', used: 42 },
      { day: '2026-11-01', used: 100 },
    ],
    '2026-11-22',
    () => 100,
  )
  const svg = usageChart(days, '2026-11-22').value
  t.match(svg, /role="img" aria-labelledby="chart-title chart-desc"/)
  t.match(svg, /<desc id="chart-desc">2026-10-24 to 2026-11-22: 142 requests in total; today 42 of the daily limit of 100\.<\/desc>/)
  t.equal((svg.match(/<g class="bar/g) ?? []).length, 30)
  t.match(
    svg,
    /<g class="bar today" data-day="2026-11-22" data-used="42" data-limit="100"><title>2026-11-22 \(today\): 42 requests of 100<\/title>/,
  )
  t.match(svg, /<text class="value"[^>]*>42<\/text>/, 'the value is written as text')
  t.match(svg, /<text class="day"[^>]*>today<\/text>/)
  t.match(svg, /<g class="limit">[\s\S]*Daily limit 100<\/text>/)
  t.match(svg, /<tr><th scope="row">2026-11-22 \(today\)<\/th><td>42<\/td><td>100<\/td><\/tr>/)
  // The bar at the limit reaches the limit line.
  const limitY = Number(/<g class="limit"><path d="M[\d.]+ ([\d.]+) /.exec(svg)![1])
  const fullBarY = Number(/data-day="2026-11-01"[\s\S]*?<rect x="[\d.]+" y="([\d.]+)"/.exec(svg)![1])
  t.equal(fullBarY, limitY)
  // Usage above a (since lowered) limit still fits in the chart.
  const over = usageChart(
    fillDays([{ day: '2026-11-21', used: 1000 }], '2026-11-22', () => 100),
    '2026-11-22',
  ).value
  const ys = [...over.matchAll(/<rect x="[\d.]+" y="([\d.-]+)"/g)].map((m) => Number(m[1]))
  t.ok(
    ys.every((y) => y >= 0),
    'no bar leaves the drawing',
  )
})

t.test('the limit line follows the plan of each day', async (t) => {
  // Free (100) until 2026-11-15, starter (1,000) from then on.
  const days = fillDays(
    [
      { day: '2026-11-10', used: 100 },
      { day: '2026-11-20', used: 400 },
    ],
    '2026-11-22',
    (d) => (d < '2026-11-15' ? 100 : 1000),
  )
  const svg = usageChart(days, '2026-11-22').value
  t.match(svg, /<title>2026-11-10: 100 requests of 100<\/title>/)
  t.match(svg, /<title>2026-11-20: 400 requests of 1000<\/title>/)
  t.match(svg, /Daily limit 1000<\/text>/, "labelled with today's limit")
  t.match(svg, /The limit changed with the plan during the period\./)
  t.match(svg, /<tr><th scope="row">2026-11-14<\/th><td>0<\/td><td>100<\/td><\/tr>/)
  t.match(svg, /<tr><th scope="row">2026-11-15<\/th><td>0<\/td><td>1000<\/td><\/tr>/)
  // The step line has two levels, and the bar at the old limit reaches the old level.
  const levels = new Set([.../<path d="([^"]+)"/.exec(svg)![1].matchAll(/[ML][\d.]+ ([\d.]+)/g)].map((m) => m[1]))
  t.equal(levels.size, 2)
  const oldLevel = /<path d="M[\d.]+ ([\d.]+) /.exec(svg)![1]
  t.match(svg, new RegExp(`data-day="2026-11-10"[^>]*>[\\s\\S]*?<rect x="[\\d.]+" y="${oldLevel.replace('.', '\\.')}"`))
  const same = usageChart(
    fillDays([], '2026-11-22', () => 100),
    '2026-11-22',
  ).value
  t.notMatch(same, /changed/, 'no mention of a change when there was none')
})

t.test('money', async (t) => {
  t.equal(money(1450), '$14.50')
  t.equal(money(0), '$0.00')
  t.equal(money(-48), '−$0.48')
})
