// openapi.yaml is the source of truth; these check that what the code relies on agrees with it.
import t from 'tap'
import spec from '../generated/openapi.json' with { type: 'json' }
import { RELATION_TYPES, SUPPORTED_LANGUAGES } from '../src/nlp/types.ts'
import { PLAN_NAMES } from '../src/domain/accounts.ts'
import { openDatabase } from '../src/db/client.ts'
import { migratedPgliteImage } from './helpers/databases.ts'

const schemas = (spec as any).components.schemas

t.test('relation types: the engine emits exactly the documented enum', async (t) => {
  t.same([...RELATION_TYPES].sort(), [...schemas.RelationType.enum].sort())
  // Written out, not taken from RELATION_TYPES: a type dropped from both the engine and the spec
  // (a breaking change for clients) still fails here.
  for (const required of [
    'works_for',
    'located_in',
    'lives_in',
    'born_in',
    'founded',
    'owns',
    'acquired',
    'part_of',
    'member_of',
    'produces',
    'partner_of',
    'competitor_of',
    'family_of',
    'killed',
  ]) {
    t.ok(schemas.RelationType.enum.includes(required), required)
  }
})

t.test('plans: the seeded catalogue equals the spec', async (t) => {
  t.same(schemas.Plan.enum, PLAN_NAMES)
  const database = await openDatabase({ dataDir: 'memory://', memoryImage: await migratedPgliteImage() })
  t.teardown(() => database.close())
  const { createRepositories } = await import('../src/db/repositories/index.ts')
  const rows = await createRepositories(database.db).accounts.listPlans()
  t.same(
    rows.map((p) => [p.name, p.dailyLimit, p.priceCents, p.maxTokens]),
    [
      ['free', 100, 0, 3],
      ['starter', 1000, 2900, 5],
      ['pro', 10000, 9900, 10],
      ['business', 50000, 29900, 25],
    ],
  )
})

t.test('limits in the schema match the spec', async (t) => {
  t.equal(schemas.AnalyzeRequest.properties.text.minLength, 200)
  t.equal(schemas.AnalyzeRequest.properties.text.maxLength, 30000)
  t.same(
    [schemas.AnalyzeOptions.properties.maxEntitiesPerType.minimum, schemas.AnalyzeOptions.properties.maxEntitiesPerType.maximum],
    [1, 100],
  )
  t.equal(schemas.AnalyzeOptions.properties.maxEntitiesPerType.default, 50)
  t.equal(schemas.AnalyzeOptions.properties.includeEvidence.default, true)
  // The hint documents the languages that work, not every ISO 639-1 code (src/domain/languages.ts checks those).
  t.equal(schemas.LanguageCode.enum, undefined)
  t.equal(schemas.LanguageCode.pattern, '^[a-z]{2}$')
  t.same(schemas.LanguageCode.examples, SUPPORTED_LANGUAGES)
  for (const lang of SUPPORTED_LANGUAGES) t.match(schemas.LanguageCode.description, `\`${lang}\``)
  t.same(schemas.Sentiment.enum, ['positive', 'negative', 'neutral'])
})

t.test('the examples of POST /v1/analyze are valid, in both forms, and their offsets are right', async (t) => {
  const { analyzeText: validateAnalyzeRequest } = await import('../generated/validators.js')
  const { checkContract } = await import('./helpers/contract.ts')
  const op = (spec as any).paths['/v1/analyze'].post
  const requests = op.requestBody.content['application/json'].examples
  const responses = op.responses['200'].content['application/json'].examples
  t.same(Object.keys(requests), ['short', 'withMentions'])
  t.same(Object.keys(responses), ['short', 'withMentions'])
  for (const [name, { value }] of Object.entries<{ value: unknown }>(requests))
    t.ok(validateAnalyzeRequest(value), `request example ${name}`)
  const headers = {
    'content-type': 'application/json',
    'x-ratelimit-limit': '100',
    'x-ratelimit-remaining': '99',
    'x-ratelimit-reset': '1795392000',
    'x-request-id': 'req-1',
  }
  for (const [name, { value }] of Object.entries<{ value: unknown }>(responses)) {
    t.same(
      checkContract({ method: 'POST', route: '/v1/analyze', url: '/v1/analyze', status: 200, headers, body: JSON.stringify(value) }),
      [],
      `response example ${name}`,
    )
  }
  const { short, withMentions } = responses
  t.same(withMentions.value.entities, short.value.entities, 'the two forms describe one analysis')
  const text: string = requests.withMentions.value.text
  t.equal(requests.withMentions.value.options.offsetEncoding, 'utf16')
  for (const e of withMentions.value.entityDetails)
    for (const m of e.mentions) t.equal(text.slice(m.start, m.end), m.text, `${e.name}: ${m.text}`)
  for (const r of withMentions.value.relations) {
    t.equal(text.slice(r.evidenceStart, r.evidenceEnd), r.evidence)
    t.equal(withMentions.value.entityDetails[r.sourceIndex].name, r.source)
    t.equal(withMentions.value.entityDetails[r.targetIndex].name, r.target)
  }
})
