// Generates everything in generated/ from openapi.yaml, the single source of truth:
//   openapi.json       the document as JSON (served by /docs, read by the route table)
//   api-types.ts       openapi-typescript types (paths, components, operations)
//   validators.js/.d.ts  AJV standalone validators of the request bodies, as `bodyValidators`:
//                      operationId → validator, typed from api-types.ts's `operations`
// and the same api-types.ts for the client package (clients/typescript/src/generated/), which
// must build on its own.
// `--check` writes nothing and exits 1 when a file differs from what would be generated,
// so CI catches a spec edited without regenerating (or a generated file edited by hand).
import { readFileSync, writeFileSync, mkdirSync, existsSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parse } from 'yaml'
import openapiTS, { astToString } from 'openapi-typescript'
import { Ajv2020 } from 'ajv/dist/2020.js'
import standalone from 'ajv/dist/standalone/index.js'
import { schemasAsDefs } from '../src/openapi.ts'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const specPath = join(root, 'openapi.yaml')
const outDir = join(root, 'generated')
const clientOutDir = join(root, 'clients/typescript/src/generated')
const HEADER = '// GENERATED CODE - DO NOT MODIFY. Produced by scripts/generate.ts from openapi.yaml (npm run generate).\n'

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const

interface Spec {
  paths: Record<
    string,
    Partial<Record<(typeof METHODS)[number], { operationId: string; requestBody?: { content?: Record<string, { schema?: unknown }> } }>>
  >
  components: { schemas: Record<string, unknown> }
}

/** operationId → the JSON schema of its JSON request body, for every operation that has one. */
function bodySchemas(spec: Spec): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const item of Object.values(spec.paths)) {
    for (const method of METHODS) {
      const op = item[method]
      const schema = op?.requestBody?.content?.['application/json']?.schema
      if (op && schema) out[op.operationId] = schema
    }
  }
  return out
}

/**
 * AJV's ESM standalone output still `require`s its runtime helpers (ajv-validator/ajv#2209);
 * give the module a real `require` so it loads as an ES module under any loader.
 */
function esmImports(code: string): string {
  if (!code.includes('require(')) return code
  return (
    'import { createRequire } from "node:module";\nconst require = createRequire(import.meta.url);\n' + code.replace('"use strict";', '')
  )
}

/**
 * AJV counts a string's code points (minLength/maxLength) with a loop over its UTF-16 units,
 * twice per check, over up to 30,000 characters on every POST /v1/analyze. A string
 * without a high surrogate has as many code points as units; only the others are counted.
 */
const UCS2LENGTH = 'require("ajv/dist/runtime/ucs2length").default'
function fastUcs2length(code: string): string {
  if (!code.includes(UCS2LENGTH)) return code
  return code.replaceAll(UCS2LENGTH, '((count) => (s) => (/[\\uD800-\\uDBFF]/.test(s) ? count(s) : s.length))(' + UCS2LENGTH + ')')
}

/** Generated files by absolute path. */
async function build(): Promise<Record<string, string>> {
  const source = readFileSync(specPath, 'utf8')
  const spec = parse(source) as Spec
  const files: Record<string, string> = {}

  files[join(outDir, 'openapi.json')] = JSON.stringify(spec, null, 2) + '\n'

  // A field with a default is optional to send: do not mark it required in the types.
  const ast = await openapiTS(pathToFileURL(specPath), { alphabetize: false, defaultNonNullable: false })
  const types = HEADER + '/* eslint-disable */\n' + astToString(ast)
  files[join(outDir, 'api-types.ts')] = types
  files[join(clientOutDir, 'api-types.ts')] = types

  const id = 'https://schemas.tea.local/openapi.json'
  const ajv = new Ajv2020({ code: { source: true, esm: true }, allErrors: false, strict: true })
  ajv.addSchema(schemasAsDefs(spec, id))
  // Each body is a component schema, validated by that schema's own function.
  const refs: Record<string, string> = {}
  for (const [operationId, schema] of Object.entries(bodySchemas(spec))) {
    const ref = (schema as { $ref?: unknown }).$ref
    if (typeof ref !== 'string' || !ref.startsWith('#/components/schemas/')) {
      throw new Error(`generate: the JSON body of operation "${operationId}" must be a $ref to a component schema`)
    }
    refs[operationId] = `${id}#/$defs/${ref.slice('#/components/schemas/'.length)}`
  }
  const operationIds = Object.keys(refs)
  files[join(outDir, 'validators.js')] =
    HEADER +
    '/* eslint-disable */\n' +
    esmImports(fastUcs2length(standalone.default(ajv, refs))) +
    `\n/** operationId → validator of its JSON request body. */\nexport const bodyValidators = { ${operationIds.join(', ')} };\n`
  files[join(outDir, 'validators.d.ts')] =
    HEADER +
    "import type { ValidateFunction } from 'ajv'\n" +
    "import type { operations } from './api-types.ts'\n" +
    operationIds
      .map(
        (name) => `export declare const ${name}: ValidateFunction<operations['${name}']['requestBody']['content']['application/json']>\n`,
      )
      .join('') +
    `/** operationId → validator of its JSON request body. */\nexport declare const bodyValidators: { ${operationIds.map((name) => `${name}: typeof ${name}`).join('; ')} }\n`
  return files
}

const files = await build()
const shown = (path: string) => relative(root, path)
if (process.argv.includes('--check')) {
  const stale = Object.entries(files).filter(([path, text]) => !existsSync(path) || readFileSync(path, 'utf8') !== text)
  if (stale.length > 0) {
    console.error(`generated files are stale (${stale.map(([p]) => shown(p)).join(', ')}): run npm run generate and commit the result`)
    process.exit(1)
  }
  console.log(`generated files are up to date (${Object.keys(files).length} files)`)
} else {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, text)
  }
  console.log(`wrote ${Object.keys(files).map(shown).join(', ')}`)
}
