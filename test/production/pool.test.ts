// The analysis worker pool: bounded queue, time limit, replacement of dead workers, refunds,
// and a main thread that keeps answering while the workers are busy. Misbehaving workers are
// scripted (test/fixtures/workers/scripted-worker.mjs); the real worker is tested at the end.
import t from 'tap'
import type { Test } from 'tap'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { buildTestApp, englishText } from '../helpers/app.ts'
import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { createPoolAnalyzer, TSX_WORKER, type PoolAnalyzer } from '../../src/analysis/pool.ts'
import { bundleEntry } from '../../src/bundle.mjs'
import type { WorkerData, WorkerResult, WorkerTask } from '../../src/analysis/worker.ts'
import type { EngineModels } from '../../src/nlp/index.ts'
import { createInlineAnalyzer } from '../../src/analysis/analyzer.ts'
import { applyOptions } from '../../src/analysis/service.ts'
import { cancelTask, newTaskState } from '../../src/analysis/task-state.ts'

const SCRIPTED = new URL('../fixtures/workers/scripted-worker.mjs', import.meta.url).href
const scripted = (opts: { workers: number; queueMax: number; timeoutMs: number }) => createPoolAnalyzer({ ...opts, filename: SCRIPTED })
/** A valid English request text whose prefix tells the scripted worker what to do. */
const script = (command: string, n = 0) => `${command} ${englishText(n)}`

async function setup(t: Test, analyzer: PoolAnalyzer) {
  const h = await buildTestApp(t, { analyzer })
  const { account, token } = await h.account('free')
  const headers = { authorization: `Bearer ${token}` }
  const analyze = (text: string) => h.app.inject({ method: 'POST', url: '/v1/analyze', headers, payload: { text } })
  const used = async () => (await h.app.inject({ url: '/v1/quota', headers })).json().daily.used as number
  return { h, account, headers, analyze, used }
}

/** Waits for `cond`; the bound is only there so that a broken pool fails instead of hanging. */
async function until(cond: () => boolean, what: string, ms = 60_000) {
  const end = Date.now() + ms
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 5))
  }
}

t.test('past the bounded queue: 503 OVERLOADED with Retry-After, never counted', async (t) => {
  const analyzer = await scripted({ workers: 1, queueMax: 2, timeoutMs: 20_000 })
  const { analyze, used } = await setup(t, analyzer)
  // One analysis holds the only worker until each of the other nine has been answered or is
  // waiting in the queue, however long they take to arrive: two of them wait, the rest find it full.
  const release = path.join(t.testdir(), 'release')
  const holder = analyze(script(`[until:${release}]`, 0))
  await until(() => analyzer.stats!().utilization === 1, 'the first analysis to start')
  let answered = 0
  const others = Array.from({ length: 9 }, (_, i) => analyze(script('[spin:1]', i + 1)).finally(() => answered++))
  await until(() => answered + analyzer.stats!().queued === 9, 'the nine to be answered or queued')
  writeFileSync(release, '')
  const results = await Promise.all([holder, ...others])
  const ok = results.filter((r) => r.statusCode === 200)
  const refused = results.filter((r) => r.statusCode === 503)
  t.equal(ok.length, 3, 'one running + two queued are served')
  t.equal(refused.length, 7, 'the rest are refused')
  for (const r of refused) {
    t.equal(r.json().code, 'OVERLOADED')
    t.equal(r.json().error, 'Service Unavailable')
    t.equal(r.headers['retry-after'], '1')
  }
  t.equal(await used(), 3, 'only the served requests are counted')
  t.equal((await analyze(script('[spin:1]', 99))).statusCode, 200, 'room again once the queue drains')
})

t.test('the bound holds for a burst: places are claimed, and calls without one are refused when full', async (t) => {
  // piscina's own maxQueue does not count tasks with an abort signal (all of ours): a burst of
  // submissions in one turn would all be queued. The pool keeps the bound itself.
  const analyzer = await scripted({ workers: 1, queueMax: 2, timeoutMs: 20_000 })
  t.teardown(() => analyzer.close())
  const options = { language: 'en' }
  const burst = Array.from({ length: 6 }, (_, i) => analyzer.analyze(script('[spin:300]', i), options))
  const settled = await Promise.allSettled(burst)
  t.same(
    settled.map((s) => s.status),
    ['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'rejected', 'rejected'],
    'one running and two queued; the other three refused at once',
  )
  for (const s of settled.filter((x) => x.status === 'rejected')) t.equal(s.reason.code, 'OVERLOADED')

  // Places: three admitted fill the pool; a fourth is refused until one is given back.
  const places = [analyzer.admit!(), analyzer.admit!(), analyzer.admit!()]
  t.ok(places.every(Boolean), 'three places for one worker and a queue of two')
  t.equal(analyzer.admit!(), undefined, 'no fourth place')
  await t.rejects(
    analyzer.analyze(script('', 9), options),
    { code: 'OVERLOADED' },
    'a call without a place is refused while the places are held',
  )
  places[0]!.release()
  places[0]!.release()
  const fourth = analyzer.admit!()
  t.ok(fourth, 'a released place is free again, once: releasing twice frees one')
  t.equal(analyzer.admit!(), undefined)
  // A place taken over by its analysis stays counted until the analysis settles.
  const running = analyzer.analyze(script('[spin:200]', 10), { ...options, place: places[1]! })
  places[1]!.release() // the service's own release after the call: does nothing now
  t.equal(analyzer.admit!(), undefined, 'still full while the analysis runs')
  await running
  t.ok(analyzer.admit!(), 'room once it has settled')
})

t.test('an analysis over the time limit: 503 ANALYSIS_TIMEOUT, refunded, its worker replaced', async (t) => {
  // The limit covers waiting and running; 2 s leaves the replacement worker ample time to start.
  const analyzer = await scripted({ workers: 1, queueMax: 4, timeoutMs: 2000 })
  const { analyze, used } = await setup(t, analyzer)
  const before = analyzer.pool.threads[0].threadId
  // piscina announces a replacement once it is ready; waiting for that keeps the worker's own
  // start-up (slow on a loaded machine) out of the next request's time limit.
  const replaced = once(analyzer.pool, 'workerCreate')
  const res = await analyze(script('[forever]'))
  t.equal(res.statusCode, 503)
  t.equal(res.json().code, 'ANALYSIS_TIMEOUT')
  t.equal(res.headers['retry-after'], '1')
  t.equal(await used(), 0, 'refunded')
  // The hung thread is gone and a fresh one serves the next request (one worker in all).
  await replaced
  const next = await analyze(script('', 1))
  t.equal(next.statusCode, 200, 'the pool serves again')
  t.not(analyzer.pool.threads[0].threadId, before, 'a new worker thread')
  t.equal(analyzer.pool.threads.length, 1)
  t.equal(await used(), 1)
})

t.test('a worker killed mid-analysis: 503 ANALYSIS_FAILED, refunded, replaced; queued work goes on', async (t) => {
  const analyzer = await scripted({ workers: 1, queueMax: 4, timeoutMs: 20_000 })
  const { analyze, used } = await setup(t, analyzer)
  const victim = analyzer.pool.threads[0]
  // Busy until killed: the file is never written.
  const killed = analyze(script(`[until:${path.join(t.testdir(), 'never')}]`))
  await until(() => analyzer.stats!().utilization === 1, 'the analysis to start')
  const queued = analyze(script('[spin:1]', 2))
  await until(() => analyzer.stats!().queued === 1, 'the second analysis to queue')
  await victim.terminate()
  const res = await killed
  t.equal(res.statusCode, 503)
  t.equal(res.json().code, 'ANALYSIS_FAILED')
  t.equal(res.headers['retry-after'], '1')
  t.equal((await queued).statusCode, 200, 'the queued analysis runs on the replacement worker')
  t.equal(await used(), 1, 'only the served request is counted')
  t.not(analyzer.pool.threads[0].threadId, victim.threadId)
})

t.test('a worker that exits by itself: 503 ANALYSIS_FAILED, refunded, replaced', async (t) => {
  const analyzer = await scripted({ workers: 1, queueMax: 4, timeoutMs: 20_000 })
  const { analyze, used } = await setup(t, analyzer)
  const res = await analyze(script('[exit]'))
  t.equal(res.statusCode, 503)
  t.equal(res.json().code, 'ANALYSIS_FAILED')
  t.equal(await used(), 0)
  t.equal((await analyze(script('', 3))).statusCode, 200)
  t.equal(await used(), 1)
})

t.test('an extraction that throws in the worker: 500 in the error shape, refunded', async (t) => {
  const analyzer = await scripted({ workers: 1, queueMax: 4, timeoutMs: 20_000 })
  const { analyze, used } = await setup(t, analyzer)
  const res = await analyze(script('[throw]'))
  t.equal(res.statusCode, 500)
  t.equal(res.json().code, 'INTERNAL_ERROR')
  t.notMatch(res.body, /scripted/)
  t.equal(await used(), 0)
})

t.test('busy workers never hold up GET /v1/quota or cached answers', async (t) => {
  const analyzer = await scripted({ workers: 2, queueMax: 8, timeoutMs: 60_000 })
  const { analyze, headers, h } = await setup(t, analyzer)
  const cachedText = script('', 7)
  t.equal((await analyze(cachedText)).statusCode, 200)
  // Both workers busy until this test releases them, and more waiting behind them: however slow
  // the machine, the light requests below are answered while every analysis is still running.
  const release = path.join(t.testdir(), 'release')
  let settled = 0
  const slow = Array.from({ length: 6 }, (_, i) => analyze(script(`[until:${release}]`, 10 + i)).finally(() => settled++))
  await until(() => analyzer.stats!().utilization === 1, 'both workers to be busy')
  for (let i = 0; i < 20; i++) {
    const q = await h.app.inject({ url: '/v1/quota', headers })
    t.equal(q.statusCode, 200)
    const c = await analyze(cachedText)
    t.equal(c.statusCode, 200)
    t.equal(c.json().meta.cached, true)
  }
  t.equal(settled, 0, 'all 40 light requests were answered while every analysis was still running')
  const metrics = (await h.app.inject({ url: '/metrics' })).body
  t.match(metrics, /analysis_pool_utilization 1\b/, 'utilisation gauge fed')
  t.match(metrics, /analysis_pool_queue_depth 4\b/, 'queue depth gauge fed')
  t.match(metrics, /analysis_cache_lookups_total\{result="hit"\} 20\b/, 'cache hits counted')
  writeFileSync(release, '')
  for (const r of await Promise.all(slow)) t.equal(r.statusCode, 200)
})

t.test('the real worker: the model loads in each worker, results equal the inline extraction', async (t) => {
  const analyzer = await createPoolAnalyzer({ workers: 2, queueMax: 16, timeoutMs: 60_000 })
  t.equal(analyzer.ready(), true, 'ready once every worker has loaded its model')
  t.equal(analyzer.pool.threads.length, 2)
  t.match(analyzer.pool.options.filename, /\/node_modules\/\.cache\/tea-bundles\/worker-[0-9a-f]{16}\.mjs$/, 'the workers run the bundle')
  const { analyze, h, used, headers } = await setup(t, analyzer)
  const inline = await createInlineAnalyzer()
  let long = ''
  for (let i = 0; long.length < 29_000; i++) long += englishText(i) + ' '
  const texts = [englishText(1), long.slice(0, 30_000)]
  const results = await Promise.all(texts.map((text) => analyze(text)))
  for (const [i, r] of results.entries()) {
    t.equal(r.statusCode, 200)
    const expected = applyOptions(await inline.analyze(texts[i], { language: 'en' }), undefined)
    t.same(r.json().entities, expected.entities, `entities of the ${texts[i].length}-character text`)
    t.same(r.json().relations, expected.relations, `relations of the ${texts[i].length}-character text`)
  }
  t.equal(await used(), 2)
  // A repeat is answered from the in-process level, which keeps the worker's texts as bytes:
  // the same body, byte for byte, as the first answer's.
  const head = (body: string) => body.slice(0, body.lastIndexOf(',"meta":'))
  const again = await analyze(texts[0])
  t.equal(again.json().meta.cached, true)
  t.equal(head(again.body), head(results[0].body), 'a hit answers the text the first request got')
  const metrics = (await h.app.inject({ url: '/metrics' })).body
  t.match(metrics, /analysis_duration_seconds_count 2\b/, 'analysis time observed for both')
  t.equal((await h.app.inject({ url: '/readyz' })).json().checks.model, 'ok')
  // The detail (mentions, evidence offsets) crossed the worker boundary and was cached with the rest.
  const options = { include: ['mentions' as const], offsetEncoding: 'utf16' as const }
  const detailed = (await h.app.inject({ method: 'POST', url: '/v1/analyze', headers, payload: { text: texts[0], options } })).json()
  t.equal(detailed.meta.cached, true)
  const { meta: _meta, ...view } = detailed
  t.same(
    view,
    applyOptions(await inline.analyze(texts[0], { language: 'en' }), options, texts[0]),
    'mentions from a worker equal the inline ones',
  )
  // A text not seen yet, with other options: the worker writes that view itself.
  const fresh = englishText(2)
  const other = { include: ['mentions' as const], maxEntitiesPerType: 1, includeEvidence: false, offsetEncoding: 'utf8' as const }
  const direct = (await h.app.inject({ method: 'POST', url: '/v1/analyze', headers, payload: { text: fresh, options: other } })).json()
  t.equal(direct.meta.cached, false)
  const { meta: _directMeta, ...directView } = direct
  t.same(
    directView,
    applyOptions(await inline.analyze(fresh, { language: 'en' }), other, fresh),
    'a view the worker wrote equals the inline one',
  )
})

t.test('the workers read one copy of the models, in memory shared with the main thread', async (t) => {
  const analyzer = await createPoolAnalyzer({ workers: 2, queueMax: 4, timeoutMs: 60_000 })
  t.teardown(() => analyzer.close())
  const data = analyzer.pool.options.workerData as WorkerData
  const models = data.models!.models as EngineModels
  t.ok(models.tagger.weights.buffer instanceof SharedArrayBuffer, 'the tagger weights are in a SharedArrayBuffer')
  t.ok(models.tagger.vectors!.table.buffer instanceof SharedArrayBuffer, 'so is the word-vector table')
  // One task per worker at once lands on each worker: both answer from the shared tagger, so
  // once the main thread has zeroed its scores, neither finds the names it found before.
  const text = englishText(3)
  const both = () => Promise.all([0, 1].map(() => analyzer.analyze(text, { language: 'en' })))
  const before = await both()
  t.ok(
    before.every((a) => a.entities.persons.includes('Tim Cook')),
    'both workers find the person',
  )
  for (const table of [models.tagger.weights, models.tagger.outside, models.tagger.vectors!.table]) table.fill(0)
  const after = await both()
  t.ok(
    after.every((a) => !a.entities.persons.includes('Tim Cook')),
    'neither does once the shared scores are zeroed: no worker holds a copy of its own',
  )
})

t.test('the worker bundle: one file per version of the sources, rebuilt the same', async (t) => {
  const dir = t.testdir()
  const worker = new URL('../../src/analysis/worker.ts', import.meta.url)
  const first = await bundleEntry(worker, 'worker', dir)
  t.equal(await bundleEntry(worker, 'worker', dir), first, 'the same sources give the same file')
  t.same(readdirSync(dir), [path.basename(fileURLToPath(first))], 'no temporary or duplicate files left')
  const { default: run } = (await import(first)) as { default: (task: WorkerTask) => WorkerResult }
  const text = englishText(3)
  const inline = await createInlineAnalyzer()
  const result = run({ text, options: { language: 'en' } })
  // The worker answers JSON text, which the main thread parses once and reuses for the cache.
  t.equal(
    'json' in result && result.json,
    JSON.stringify(await inline.analyze(text, { language: 'en' })),
    'the bundle finds the model files and extracts as the sources do',
  )
  const cancelled = newTaskState()
  t.ok(cancelTask(cancelled), 'a task not started can be cancelled')
  t.same(run({ text, options: { language: 'en' }, state: cancelled }), { skipped: true }, 'the worker skips a cancelled task')
  const pending = newTaskState()
  t.ok('json' in run({ text, options: { language: 'en' }, state: pending }), 'a task not cancelled runs')
  t.notOk(cancelTask(pending), 'a started task can no longer be cancelled')
})

t.test('a bundle that cannot be written: the workers load the sources through tsx', async (t) => {
  const blocker = path.join(t.testdir({ file: 'not a directory' }), 'file')
  const fallbacks: unknown[] = []
  const analyzer = await createPoolAnalyzer({
    workers: 1,
    queueMax: 4,
    timeoutMs: 60_000,
    bundleDir: path.join(blocker, 'sub'),
    onBundleFallback: (err) => fallbacks.push(err),
  })
  t.teardown(() => analyzer.close())
  t.equal(fallbacks.length, 1, 'the fallback is reported')
  t.equal(analyzer.pool.options.filename, fileURLToPath(TSX_WORKER), 'the tsx entry')
  const text = englishText(2)
  const inline = await createInlineAnalyzer()
  t.same(await analyzer.analyze(text, { language: 'en' }), await inline.analyze(text, { language: 'en' }))
})

t.test('an analysis whose client went still has its time limit: the worker is replaced, nothing else fails', async (t) => {
  const errors: unknown[] = []
  // A limit far above the scripted tasks' own time: the test waits for the replacement worker to
  // be ready before it times the next call.
  const analyzer = await createPoolAnalyzer({
    workers: 1,
    queueMax: 4,
    timeoutMs: 8000,
    filename: SCRIPTED,
    onWorkerError: (err) => errors.push(err),
  })
  t.teardown(() => analyzer.close())
  const before = analyzer.pool.threads.map((w) => w.threadId)
  // piscina announces a worker once it is ready to take a task; a thread that exists may still
  // be loading its module, which on a loaded machine took longer than the next call's limit.
  let replacementReady = false
  const onCreate = (worker: { id: number }) => {
    if (!before.includes(worker.id)) replacementReady = true
  }
  analyzer.pool.on('workerCreate', onCreate)
  t.teardown(() => analyzer.pool.off('workerCreate', onCreate))
  const client = new AbortController()
  const started = path.join(t.testdir(), 'started')
  const call = analyzer.analyze(script(`[forever:${started}]`), { language: 'en', signal: client.signal })
  await until(() => existsSync(started), 'the worker to start the analysis')
  client.abort(new Error('client gone'))
  await t.rejects(
    call,
    { name: 'AbandonedExtraction', reason: { message: 'client gone' } },
    'the call ends with the client, at once (its extraction had started: the work was done)',
  )
  t.equal(analyzer.stats!().utilization, 1, 'the endless analysis still holds its worker')
  await until(() => analyzer.stats!().utilization === 0, 'the time limit to stop it')
  // The next call's own time limit would otherwise also cover the replacement's start, which
  // under load can take longer than the limit: wait for the worker to be ready, then time the call.
  await until(() => replacementReady, 'a replacement worker ready to take a task')
  const next = await analyzer.analyze(script('[spin:1]', 1), { language: 'en' })
  t.equal(next.model, 'scripted-worker')
  t.not(next.entities.persons[0], `Worker ${before[0]}`, 'a replacement worker answers')
  t.same(errors, [], 'the abandoned analysis is not reported as a failed request')
})
