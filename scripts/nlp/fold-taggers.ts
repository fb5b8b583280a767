// Jackknifed taggers for training the relation classifier. The committed tagger is trained on
// CoNLL04 train, so on those texts its entities are nearly perfect, while on unseen text they
// are not. Tagger k of FOLD_TAGGERS is trained like the committed one (same settings and seed)
// without the CoNLL04 train rows r with r % FOLD_TAGGERS === k, and tags only those rows.
//
// They are trained in a child process of their own (a model trained in the same process as
// another one can come out different, see scripts/train.ts) and kept under .cache/ in the
// repository, keyed by the committed tagger file and the training code, so that retraining the
// relations alone does not retrain them. Deterministic: the cache only saves time.
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { loadTagger, type TaggerModel } from '../../src/nlp/tagger.ts'
import { REPO_ROOT } from './data.ts'

export const FOLD_TAGGERS = 4
const EPOCHS = 3
const MIN_COUNT = 2
const SEED = 20031

const SELF = fileURLToPath(import.meta.url)

function cacheDir(): string {
  const h = createHash('sha256')
  for (const f of ['models/ner.bin.gz', 'scripts/nlp/train-ner.ts', 'scripts/nlp/fold-taggers.ts', 'scripts/nlp/synthetic.ts', 'scripts/nlp/gazetteer.ts', 'src/nlp/features.ts', 'src/nlp/tagger.ts']) {
    h.update(readFileSync(path.join(REPO_ROOT, f)))
  }
  h.update(`${FOLD_TAGGERS}|${EPOCHS}|${MIN_COUNT}|${SEED}`)
  return path.join(REPO_ROOT, '.cache/tea-fold-taggers', h.digest('hex').slice(0, 16))
}

const foldFile = (dir: string, k: number) => path.join(dir, `fold-${k}-of-${FOLD_TAGGERS}.bin.gz`)

/** The fold taggers, trained first if the cache does not hold them. */
export function foldTaggers(): TaggerModel[] {
  const dir = cacheDir()
  const files = Array.from({ length: FOLD_TAGGERS }, (_, k) => foldFile(dir, k))
  if (!files.every((f) => existsSync(f))) {
    const t0 = Date.now()
    console.log(`relations: training ${FOLD_TAGGERS} fold taggers into ${path.relative(REPO_ROOT, dir)}`)
    const r = spawnSync(process.execPath, [...process.execArgv, SELF, dir], { stdio: 'inherit' })
    if (r.status !== 0) throw new Error(`fold taggers: training failed (${r.status})`)
    console.log(`relations: fold taggers trained (${Math.round((Date.now() - t0) / 1000)} s)`)
  }
  return files.map((f) => loadTagger(f))
}

if (process.argv[1] === SELF) {
  const dir = process.argv[2]
  const { trainTagger, CONLL04_TRAIN } = await import('./train-ner.ts')
  const { readJsonl } = await import('./data.ts')
  const rows = readJsonl(CONLL04_TRAIN).length
  mkdirSync(dir, { recursive: true })
  for (let k = 0; k < FOLD_TAGGERS; k++) {
    const holdOut = new Set(Array.from({ length: rows }, (_, r) => r).filter((r) => r % FOLD_TAGGERS === k))
    console.log(`fold tagger ${k + 1}/${FOLD_TAGGERS}: ${holdOut.size} CoNLL04 train documents held out`)
    const file = trainTagger({ epochs: EPOCHS, minCount: MIN_COUNT, seed: SEED, holdOut })
    writeFileSync(foldFile(dir, k) + '.tmp', file)
    renameSync(foldFile(dir, k) + '.tmp', foldFile(dir, k))
  }
}
