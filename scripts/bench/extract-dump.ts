// The engine's whole output on the dev corpora, to show that a change meant only for speed leaves
// every answer as it was: analyze() of each text, plus the unrounded confidences of every entity
// down to the relation cut and of every relation decision. Writes one JSON line per text to
// <out> and prints a SHA-256 per corpus; compare two trees' dumps with `cmp` or `diff`.
// Usage: node --import tsx scripts/bench/extract-dump.ts <out.jsonl> [file.jsonl[:limit] …]
//   Files are relative to ../shared/data (or $TEA_DATA_DIR); without any, the dev corpora below.
import { createHash } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { createEngine, loadEngineModels } from '../../src/nlp/index.ts'
import { tokenize } from '../../src/nlp/tokens.ts'
import { DEV_FILES, readJsonl } from '../nlp/data.ts'

const DEFAULT_FILES = [...DEV_FILES, 'redocred/train.jsonl:300']

const [out, ...given] = process.argv.slice(2)
if (!out) {
  console.error('usage: extract-dump.ts <out.jsonl> [file.jsonl[:limit] …]')
  process.exit(2)
}
const engine = createEngine(loadEngineModels())
const sink = createWriteStream(out)
for (const spec of given.length ? given : DEFAULT_FILES) {
  const [file, limit] = spec.split(':')
  const rows = readJsonl(file).slice(0, limit ? Number(limit) : undefined)
  const hash = createHash('sha256')
  for (const row of rows) {
    const analysis = engine.analyze(row.text, { language: 'en' })
    const { entities, relations } = engine.extract(tokenize(row.text))
    const line =
      JSON.stringify({
        id: row.id,
        analysis,
        entities: entities.map((e) => [e.type, e.name, e.confidence, e.salience, e.classes, e.mentions.length]),
        relations: relations.map((d) => [d.type, d.candidate.source.entity.name, d.candidate.target.entity.name, d.confidence]),
      }) + '\n'
    hash.update(line)
    sink.write(line)
  }
  console.log(`${hash.digest('hex').slice(0, 16)}  ${spec} (${rows.length} texts)`)
}
sink.end()
