// Bundles one of the service's TypeScript entry points into a single plain-JavaScript ES module
// with esbuild, so that the process (scripts/start.mjs) and the analysis workers (analysis/pool.ts)
// run on Node's own loader instead of tsx's. tsx costs every thread that uses it its loader
// hooks, a transform service and the sources held twice: tens of MB of RSS per thread and a
// slower start (figures: docs/performance.md, Memory). Bundling at
// start-up (a few hundred milliseconds) rather than at install time means a bundle can never be
// older than the sources it runs.
// Plain JavaScript on purpose: the start script loads it before anything can load TypeScript.
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build, stop } from 'esbuild'

/** Inside node_modules, so that the bundles' package imports (kept external) resolve as the sources' do. */
export const BUNDLE_DIR = fileURLToPath(new URL('../node_modules/.cache/tea-bundles/', import.meta.url))

/** Builds in progress in this process; esbuild's helper process is stopped when none is left. */
let building = 0

/**
 * Bundles `entry` (a path or file URL) and returns the bundle's file URL. The file is named by a
 * hash of its contents and written under a temporary name, then renamed, so several nodes
 * starting at once from one checkout neither race nor pile up copies (one file per version).
 * @param {string | URL} entry
 * @param {string} name the file name's prefix
 * @param {string} [dir]
 * @returns {Promise<string>}
 */
export async function bundleEntry(entry, name, dir = BUNDLE_DIR) {
  building++
  let code
  try {
    const result = await build({
      entryPoints: [entry instanceof URL ? fileURLToPath(entry) : entry],
      bundle: true,
      write: false,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      // Packages stay imports: fastify, the wink model and the rest load from node_modules.
      packages: 'external',
      logLevel: 'silent',
      plugins: [sourceLocation],
    })
    code = result.outputFiles[0].contents
  } finally {
    if (--building === 0) await stop()
  }
  const file = path.join(dir, `${name}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`)
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true })
    const tmp = `${file}.${process.pid}.tmp`
    writeFileSync(tmp, code)
    renameSync(tmp, file)
  }
  return pathToFileURL(file).href
}

/**
 * The sources find their files relative to themselves (`new URL('../../models/…',
 * import.meta.url)`, the migrations, the dashboard's assets); in a bundle each module keeps
 * the URL of the file it came from.
 * @type {import('esbuild').Plugin}
 */
const sourceLocation = {
  name: 'source-import-meta-url',
  setup(b) {
    b.onLoad({ filter: /\.(ts|mjs|js)$/ }, ({ path: file }) => ({
      contents: readFileSync(file, 'utf8').replace(/\bimport\.meta\.url\b/g, JSON.stringify(pathToFileURL(file).href)),
      loader: file.endsWith('.ts') ? 'ts' : 'js',
    }))
  },
}
