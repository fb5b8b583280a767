// The analysis workers run one plain-JavaScript file, bundled from src/analysis/worker.ts by
// esbuild when the pool starts, instead of registering tsx in every thread (worker.mjs).
// tsx in a worker costs ~20 MB of RSS per worker (its loader, esbuild's service, the transpiled
// sources held twice) and half a second of start-up; the bundle loads with Node's own loader.
// Building at start-up (~150 ms) rather than at install time means the bundle can never be
// older than the sources it runs.
import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync, existsSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build, type Plugin } from 'esbuild'

const ENTRY = fileURLToPath(new URL('./worker.ts', import.meta.url))
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url))
/** Inside node_modules so that the bundle's package imports (kept external) resolve as the sources' do. */
export const BUNDLE_DIR = path.join(REPO_ROOT, 'node_modules', '.cache', 'tea-worker')

/**
 * Bundles the worker and returns the file's URL. The file is named by a hash of its contents,
 * written to a temporary name and renamed, so several nodes starting at once from one checkout
 * neither race nor pile up copies (one file per version of the sources).
 */
export async function buildWorkerBundle(dir: string = BUNDLE_DIR): Promise<string> {
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // Packages stay imports: the wink model and the other dependencies load from node_modules.
    packages: 'external',
    logLevel: 'silent',
    plugins: [sourceLocationPlugin],
  })
  const code = result.outputFiles[0]!.contents
  const file = path.join(dir, `worker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`)
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true })
    const tmp = `${file}.${process.pid}.tmp`
    writeFileSync(tmp, code)
    renameSync(tmp, file)
  }
  return pathToFileURL(file).href
}

/**
 * The sources find the model files relative to themselves (`new URL('../../models/…',
 * import.meta.url)`); in the bundle each module keeps the URL of the file it came from.
 */
const sourceLocationPlugin: Plugin = {
  name: 'source-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, ({ path: file }) => ({
      contents: readFileSync(file, 'utf8').replaceAll('import.meta.url', JSON.stringify(pathToFileURL(file).href)),
      loader: 'ts',
    }))
  },
}
