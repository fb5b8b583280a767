// Importing the engine reads no model file: `loadEngineModels` reads them when the caller
// chooses (the service at start-up), and `createEngine` answers over exactly the models it is
// given, so engines over different models live side by side (cross-validation folds).
import fs from 'node:fs'
import { syncBuiltinESMExports } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const MODELS = fileURLToPath(new URL('../../models/', import.meta.url))
const TEXT = 'Tim Cook, the chief executive of Apple, lives in Palo Alto. Apple is based in Cupertino, California.'

t.test('importing src/nlp/index.ts reads no model; loadEngineModels reads them all, createEngine none', async (t) => {
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
  t.same(read, ['meta.json'], 'only meta.json read on import')
  t.match(nlp.MODEL_NAME, /^tea-extract-\d+\.\d+\.\d+$/, 'the model name, from meta.json')
  const models = nlp.loadEngineModels()
  t.same(
    read.filter((f) => f !== 'meta.json').sort(),
    ['entity-confidence.json', 'ner.bin.gz', 'relations.json', 'sentiment.bin.gz'],
    'every model read by loadEngineModels',
  )
  const before = read.length
  const engine = nlp.createEngine(models)
  const a = engine.analyze(TEXT, { language: 'en' })
  t.ok(a.entities.persons.length > 0, 'the loaded models analyze')
  t.equal(a.model, nlp.MODEL_NAME)
  t.equal(read.length, before, 'nothing read by createEngine or on analysis')
})

t.test('an engine answers over its own models only', async (t) => {
  const nlp = await import('../../src/nlp/index.ts')
  const models = nlp.loadEngineModels()
  const committed = nlp.createEngine(models)
  const first = committed.analyze(TEXT, { language: 'en' })
  t.ok(first.relations.length > 0, 'the committed relation model finds relations')
  // A relation model whose every threshold is out of reach reports nothing…
  const threshold = Object.fromEntries(Object.keys(models.relations.threshold).map((k) => [k, 2]))
  const silent = nlp.createEngine({ ...models, relations: { ...models.relations, threshold, patternConfidence: {} } })
  t.same(silent.analyze(TEXT, { language: 'en' }).relations, [], 'the replaced relation model is the one used')
  // … and leaves the other engine as it was: no state shared between engines.
  t.same(committed.analyze(TEXT, { language: 'en' }), first, 'the first engine unchanged')
})
