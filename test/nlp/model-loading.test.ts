// Importing the engine reads no model file: the service loads the models when it chooses
// (loadModels at start-up), and a script that swaps them never pays for the committed ones.
import fs from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const MODELS = fileURLToPath(new URL('../../models/', import.meta.url))

t.test('importing src/nlp/index.ts reads no model; loadModels reads them all', async (t) => {
  const read: string[] = []
  const original = fs.readFileSync
  // Every importer of node:fs sees the spy: syncBuiltinESMExports updates the named exports.
  fs.readFileSync = ((file: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
    const p = file instanceof URL ? fileURLToPath(file) : String(file)
    if (p.startsWith(MODELS)) read.push(path.relative(MODELS, p))
    return (original as (...a: unknown[]) => unknown)(file, ...rest)
  }) as typeof fs.readFileSync
  syncBuiltinESMExports()
  t.teardown(() => {
    fs.readFileSync = original
    syncBuiltinESMExports()
  })
  const nlp = await import('../../src/nlp/index.ts')
  // The model's name is read from meta.json, which holds no model.
  t.same(
    read.filter((f) => f !== 'meta.json'),
    [],
    'no model file read on import',
  )
  nlp.loadModels()
  t.same(
    read.filter((f) => f !== 'meta.json').sort(),
    ['entity-confidence.json', 'ner.bin.gz', 'relations.json', 'sentiment.bin.gz'],
    'every model read by loadModels',
  )
  const before = read.length
  const a = nlp.analyze('Tim Cook runs Apple in Cupertino.', { language: 'en' })
  t.ok(a.entities.persons.length > 0, 'the loaded models analyze')
  t.equal(read.length, before, 'nothing read again on analysis')
})
