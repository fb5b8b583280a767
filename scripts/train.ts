// Trains every model of the extraction engine from ../shared/data (or $TEA_DATA_DIR) and writes
// them under models/. Usage: npm run train [-- --only ner|confidence|relations|sentiment] [--epochs N] [--seed N] [--sent name=value]
// (--epochs: the tagger's; --seed: the sentiment network's, default 20211, to report a spread over seeds)
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { REPO_ROOT } from './nlp/data.ts'
import { trainNer } from './nlp/train-ner.ts'

const { values } = parseArgs({
  options: {
    only: { type: 'string' },
    epochs: { type: 'string' },
    'min-count': { type: 'string' },
    dev: { type: 'boolean', default: false },
    seed: { type: 'string' },
    // A cross-validation fold's tagger: trained without the documents of fold --fold of --folds.
    fold: { type: 'string' },
    folds: { type: 'string' },
    // Sentiment training options overridden by name, e.g. --sent epochs=10 --sent cv=5 (see
    // SentimentOptions): for experiments; the committed model uses the settings below.
    sent: { type: 'string', multiple: true },
  },
})
const TASKS = ['ner', 'confidence', 'relations', 'sentiment']
const tasks = values.only ? values.only.split(',') : TASKS
// TEA_MODELS_OUT writes the models elsewhere (seed experiments); TEA_NER_SEED and TEA_REL_SEED
// change the tagger's and the relation model's training seeds (defaults: the committed models).
const models = process.env.TEA_MODELS_OUT ?? path.join(REPO_ROOT, 'models')

// Several tasks: each in a fresh process, in order. A model trained in the same process as an
// earlier one came out different from the same model trained alone (state left in shared
// modules), so only this keeps `npm run train` and `--only X` byte-identical.
if (tasks.length > 1) {
  const passOn = process.argv.slice(2).filter((a, i, all) => a !== '--only' && all[i - 1] !== '--only' && !a.startsWith('--only='))
  // The entity confidence and the relation model's calibration both read three fold taggers: one
  // set, trained by the first and kept for the second, then removed.
  const sharedFolds = !process.env.TEA_FOLDS_DIR && tasks.includes('confidence') && tasks.includes('relations')
  if (sharedFolds) process.env.TEA_FOLDS_DIR = mkdtempSync(path.join(os.tmpdir(), 'tea-ner-folds-'))
  let status = 0
  for (const task of TASKS.filter((t) => tasks.includes(t))) {
    const r = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--only', task, ...passOn], {
      stdio: 'inherit',
    })
    if (r.status !== 0) {
      status = r.status ?? 1
      break
    }
  }
  if (sharedFolds) rmSync(process.env.TEA_FOLDS_DIR!, { recursive: true, force: true })
  process.exit(status)
}
const want = (task: string) => tasks.includes(task)

if (want('ner')) {
  trainNer({
    // One epoch: with the training-name gazetteer, dev F1 peaks early (CoNLL-2003 dev span F1
    // 0.904 after one epoch, 0.900 after two, with newswire eight times per epoch).
    epochs: Number(values.epochs ?? 1),
    minCount: Number(values['min-count'] ?? 2),
    seed: Number(process.env.TEA_NER_SEED ?? 20031),
    out: path.join(models, 'ner.bin.gz'),
    // Following dev F1 per epoch is only a progress report; it does not steer training.
    dev: values.dev ? 'conll2003/dev_docs.jsonl' : undefined,
    holdout: values.fold !== undefined ? { fold: Number(values.fold), folds: Number(values.folds ?? 5) } : undefined,
  })
}

if (want('confidence')) {
  // Fitted on out-of-fold predictions of three taggers, each trained without one fold of every
  // corpus (TEA_JOBS at a time, default two, in processes of their own; three folds, not five, to
  // keep training within the hour on a shared two-core machine).
  const { trainConfidence } = await import('./nlp/train-confidence.ts')
  await trainConfidence({ out: path.join(models, 'entity-confidence.json'), folds: 3 })
}

if (want('relations')) {
  // Over the entities of the tagger and entity confidence trained above (in `models`); calibrated
  // over three fold taggers' entities (reused from TEA_FOLDS_DIR, else trained here).
  const { trainRelations } = await import('./nlp/train-relations.ts')
  await trainRelations({
    dir: models,
    out: path.join(models, 'relations.json'),
    seed: Number(process.env.TEA_REL_SEED ?? 20042),
    epochs: 15,
  })
}

if (want('sentiment')) {
  const { trainSentiment } = await import('./nlp/train-sentiment.ts')
  // Settings chosen on the NewsMTSC held-out 15% (our dev set; docs/experiments/sentiment.md): the
  // VADER words helped a little at three seeds, frequency weights and fold-chosen offsets did not;
  // two attention heads that do not attend to negated words, trained with negated copies of
  // predicate sentences (each put in twice), raised the score and keep negation right.
  trainSentiment({
    out: path.join(models, 'sentiment.bin.gz'),
    seed: Number(values.seed ?? 20211),
    epochs: 8,
    hidden: 64,
    top: 30_000,
    dropout: 0.2,
    lr: 1e-3,
    l2: 1e-4,
    ema: 0.999,
    vader: true,
    sif: 0,
    folds: 0,
    swa: 0,
    cv: 0,
    heads: 2,
    mask: 1,
    negpool: 0,
    aug: 2,
    augnever: 0,
    ...Object.fromEntries(
      (values.sent ?? []).map((kv) => {
        const [k, v] = kv.split('=')
        if (
          ![
            'epochs',
            'hidden',
            'top',
            'dropout',
            'lr',
            'l2',
            'folds',
            'ema',
            'vader',
            'sif',
            'swa',
            'cv',
            'heads',
            'mask',
            'negpool',
            'aug',
            'augnever',
          ].includes(k)
        )
          throw new Error(`--sent: unknown option ${k}`)
        return [k, v === 'true' ? true : v === 'false' ? false : Number(v)]
      }),
    ),
  })
}

{
  // Checksums of the files as they now are (each task runs in a process of its own).
  const { writeMeta } = await import('./nlp/meta.ts')
  writeMeta(models)
}
