// The models in shared memory (src/nlp/shared-models.ts): posted to another thread they stay in
// the same SharedArrayBuffers, and an engine over them answers as one over the loaded files.
import t from 'tap'
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads'
import { createEngine, loadEngineModels } from '../../src/nlp/index.ts'
import { engineModelsFromShared, shareEngineModels, type SharedEngineModels } from '../../src/nlp/shared-models.ts'
import { IdIndex, IdIntMap } from '../../src/nlp/tables.ts'
import { HiddenLayer } from '../../src/nlp/layer.ts'

const TEXTS = [
  'Tim Cook, the chief executive of Apple, lives in Palo Alto. Apple is based in Cupertino, California.',
  'Angela Merkel met Emmanuel Macron in Berlin on Tuesday. The Bundestag and Siemens were not amused, said Reuters.',
  'lol my new iphone from apple is useless, told @sam at Starbucks in london',
]

/** The value as another thread receives it (the structured clone of postMessage). */
function posted<T>(value: T): T {
  const { port1, port2 } = new MessageChannel()
  port1.postMessage(value)
  const received = receiveMessageOnPort(port2)!.message as T
  port1.close()
  port2.close()
  return received
}

/** Every typed array of a value, with where it is. */
function typedArrays(v: unknown, at = 'models', out: [string, ArrayBufferView][] = []): [string, ArrayBufferView][] {
  if (ArrayBuffer.isView(v)) out.push([at, v])
  else if (v !== null && typeof v === 'object' && !(v instanceof Map) && !(v instanceof Set))
    for (const [k, x] of Object.entries(v)) typedArrays(x, `${at}.${k}`, out)
  return out
}

t.test('posted to another thread, the tables stay in shared memory; the engine answers the same', async (t) => {
  const loaded = loadEngineModels()
  const shared = shareEngineModels(loaded)
  t.ok(shared.bytes > 20e6, `the large tables are shared (${(shared.bytes / 1e6).toFixed(1)} MB)`)
  const received = posted<SharedEngineModels>(shared)
  const models = engineModelsFromShared(received)
  const arrays = typedArrays(models).filter(([at]) => !at.startsWith('models.sentiment.layer'))
  t.ok(arrays.length > 15)
  for (const [at, a] of arrays) if (a.byteLength > 4096) t.ok(a.buffer instanceof SharedArrayBuffer, `${at} in shared memory`)
  // The same memory, not a copy: what one thread writes the other reads.
  const sent = (shared.models as typeof loaded).tagger.weights
  const got = models.tagger.weights
  const before = got[0]
  sent[0] = before + 1
  t.equal(got[0], before + 1, 'a write on one side is seen on the other')
  sent[0] = before
  t.ok(models.tagger.skip instanceof IdIndex && models.tagger.gazetteer instanceof IdIntMap, 'the tables are rebuilt into their classes')
  t.ok(models.sentiment.layer instanceof HiddenLayer, 'the sentiment layer is built by the receiving thread')
  const reference = createEngine(loaded)
  const engine = createEngine(models)
  for (const text of TEXTS) t.same(engine.analyze(text, { language: 'en' }), reference.analyze(text, { language: 'en' }), text.slice(0, 30))
})

t.test('a model holding something that cannot be shared is refused, by name', async (t) => {
  const models = loadEngineModels()
  class Odd {}
  t.throws(() => shareEngineModels({ ...models, confidence: { ...models.confidence, odd: new Odd() } as never }), /instance of Odd/)
})
