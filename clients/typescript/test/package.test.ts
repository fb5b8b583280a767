// The package as a consumer gets it: `npm pack` (which builds dist/), installed into a fresh
// project, used from plain `node` against a live server, bundled by esbuild, and type-checked by
// tsc in strict mode. Works offline: the client's only dependency (and its own) is packed from
// this repository's node_modules and installed from those tarballs.
import t, { type Test } from 'tap'
import { execFile as execFileCb } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { build } from 'esbuild'
import { buildTestApp, englishText, manualClock } from '../../../test/helpers/app.ts'

const execFile = promisify(execFileCb)
const clientDir = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const rootDir = resolve(clientDir, '../..')
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'

async function packageJson(dir: string): Promise<{ name: string; version: string; dependencies?: Record<string, string> }> {
  return JSON.parse(await readFile(join(dir, 'package.json'), 'utf8'))
}

/** The folders of `name`'s dependencies, transitively, as installed in the repository. */
async function dependencyDirs(deps: Record<string, string>, seen = new Map<string, string>()): Promise<Map<string, string>> {
  for (const name of Object.keys(deps)) {
    if (seen.has(name)) continue
    const dir = join(rootDir, 'node_modules', name)
    seen.set(name, dir)
    await dependencyDirs((await packageJson(dir)).dependencies ?? {}, seen)
  }
  return seen
}

const CONSUMER = `
import { createTeaClient, isApiError, QuotaExceededError } from '@tea/client'

const out = {}
const tea = createTeaClient({ baseUrl: process.env.TEA_BASE_URL, token: process.env.TEA_TOKEN })
const analysis = await tea.analyze({ text: process.env.TEA_TEXT, options: { maxEntitiesPerType: 5 } })
out.persons = analysis.data.entities.persons
out.rateLimit = { ...analysis.rateLimit, reset: analysis.rateLimit.reset.toISOString() }
out.quota = (await tea.quota()).data.daily

let sent = 0
const counting = (request) => (sent++, fetch(request))
const exhausted = createTeaClient({ baseUrl: process.env.TEA_BASE_URL, token: process.env.TEA_EXHAUSTED_TOKEN, fetch: counting })
try {
  await exhausted.analyze({ text: process.env.TEA_TEXT })
  out.quotaError = 'none'
} catch (err) {
  out.quotaError = {
    typed: err instanceof QuotaExceededError && isApiError(err),
    code: err.code,
    retryAfter: err.retryAfter,
    resetAt: err.resetAt.toISOString(),
    requestsSent: sent,
  }
}
console.log(JSON.stringify(out))
`

const TYPED_CONSUMER = `
import { createTeaClient, isApiError, type AnalyzeResult, type ApiErrorCode, type RateLimit } from '@tea/client'

const tea = createTeaClient({ baseUrl: 'https://api.example.com', token: 'tea_live_x', retry: { maxQuotaWaitSeconds: 60 }, timeoutMs: 10_000 })

export async function persons(text: string, signal: AbortSignal): Promise<string> {
  try {
    const r = await tea.analyze({ text, options: { languageHint: 'en' } }, { signal })
    const result: AnalyzeResult = r.data
    const quota: RateLimit | undefined = r.rateLimit
    return result.entities.persons.join(', ') + String(quota?.reset.getTime())
  } catch (err) {
    if (!isApiError(err)) throw err
    switch (err.code) {
      case 'QUOTA_EXCEEDED':
        return err.resetAt.toISOString() + err.retryAfter
      case 'RATE_LIMITED':
        return String(err.retryAfter)
      case 'TEXT_TOO_SHORT':
        return err.message
      default:
        return err.code
    }
  }
}

// @ts-expect-error: not a code of the API
export const unknown: ApiErrorCode = 'NO_SUCH_CODE'
`

t.test('npm pack → a fresh project installs the tarball → plain node, a bundler and tsc use it', async (t) => {
  const client = await packageJson(clientDir)
  t.same(Object.keys(client.dependencies ?? {}), ['openapi-fetch'], 'no dependency but openapi-fetch: nothing of the server')

  const work = await mkdtemp(join(tmpdir(), 'tea-client-'))
  t.teardown(() => rm(work, { recursive: true, force: true }))
  const { stdout: packed } = await execFile(npm, ['pack', '--json', '--pack-destination', work], { cwd: clientDir })
  const [info] = JSON.parse(packed) as { filename: string; files: { path: string }[] }[]
  const files = info.files.map((f) => f.path).sort()
  for (const f of ['README.md', 'package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/generated/api-types.d.ts'])
    t.ok(files.includes(f), `the tarball has ${f}`)
  t.same(
    files.filter((f) => !f.startsWith('dist/') && f !== 'README.md' && f !== 'package.json'),
    [],
    'nothing but dist/, README.md and package.json',
  )

  const deps = await dependencyDirs(client.dependencies ?? {})
  const { stdout: depsPacked } = await execFile(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', work, ...deps.values()], {
    cwd: work,
  })
  const tarballs = [info.filename, ...(JSON.parse(depsPacked) as { filename: string }[]).map((d) => d.filename)].map((f) => join(work, f))

  const consumer = join(work, 'consumer')
  await mkdir(consumer)
  await writeFile(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }))
  await execFile(npm, ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', ...tarballs], { cwd: consumer })
  await writeFile(join(consumer, 'consumer.mjs'), CONSUMER)

  // A live server on a real port, at a fixed noon: the quota resets in exactly 12 hours.
  const h = await buildTestApp(t, { clock: manualClock(new Date('2026-11-22T12:00:00Z')) })
  const baseUrl = await h.app.listen({ port: 0, host: '127.0.0.1' })
  const fresh = await h.account('free')
  const exhausted = await h.account('free')
  for (let i = 0; i < 100; i++) await h.repos.usage.reserve(exhausted.account.id, '2026-11-22', 100)
  const env = {
    ...process.env,
    TEA_BASE_URL: baseUrl,
    TEA_TOKEN: fresh.token,
    TEA_EXHAUSTED_TOKEN: exhausted.token,
    TEA_TEXT: englishText(31),
  }

  const check = (t: Test, stdout: string, used: number) => {
    const out = JSON.parse(stdout)
    t.ok(out.persons.includes('Tim Cook'))
    t.same(out.rateLimit, { limit: 100, remaining: 100 - used, reset: '2026-11-23T00:00:00.000Z' })
    t.same(out.quota, { limit: 100, used, remaining: 100 - used })
    t.same(
      out.quotaError,
      { typed: true, code: 'QUOTA_EXCEEDED', retryAfter: 12 * 3600, resetAt: '2026-11-23T00:00:00.000Z', requestsSent: 1 },
      'the exhausted quota: a typed error at once, one request',
    )
  }

  await t.test('plain node', async (t) => {
    const { stdout } = await execFile(process.execPath, ['consumer.mjs'], { cwd: consumer, env })
    check(t, stdout, 1)
  })

  await t.test('bundled by esbuild for the browser platform (no Node built-ins), then run', async (t) => {
    const result = await build({
      entryPoints: [join(consumer, 'consumer.mjs')],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      target: 'es2022',
      outfile: join(consumer, 'bundle.mjs'),
      logLevel: 'silent',
    })
    t.same(result.errors, [])
    const bundle = await readFile(join(consumer, 'bundle.mjs'), 'utf8')
    t.notMatch(bundle, /from ["']@tea\/client["']/, 'the package is inlined')
    const { stdout } = await execFile(process.execPath, ['bundle.mjs'], { cwd: consumer, env })
    check(t, stdout, 2)
  })

  await t.test('its declarations type-check a strict TypeScript consumer (errors narrowed by code)', async (t) => {
    await writeFile(join(consumer, 'typed.ts'), TYPED_CONSUMER)
    const tsconfig = {
      compilerOptions: {
        strict: true,
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        target: 'ES2022',
        lib: ['ES2022', 'DOM'],
        types: [],
        noEmit: true,
        skipLibCheck: false,
      },
      files: ['typed.ts'],
    }
    await writeFile(join(consumer, 'tsconfig.json'), JSON.stringify(tsconfig))
    const tsc = join(rootDir, 'node_modules/typescript/bin/tsc')
    const run = await execFile(process.execPath, [tsc, '-p', consumer]).then(
      () => '',
      (err) => String(err.stdout) + String(err.stderr),
    )
    t.equal(run, '', 'tsc reports nothing')
  })
})
