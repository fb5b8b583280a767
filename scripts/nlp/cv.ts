// Cross-validation folds of the tagger: fold k's tagger is trained without the documents of
// fold k of every training corpus (foldOf, by document id), so that its predictions on those
// documents are out of fold. Each is trained by `train.ts --only ner --fold k` in a process of
// its own, `jobs` at a time (two cores: two).
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { REPO_ROOT } from './data.ts'

export interface FoldModel {
  fold: number
  tagger: string
}

/**
 * `TEA_FOLDS_DIR` names a folder whose fold taggers are kept, and reused when already there
 * (to share one set of folds between the confidence fit and an evaluation while developing; a
 * reused tagger is only right while the tagger's code and data have not changed since).
 */
export const KEPT_FOLDS = process.env.TEA_FOLDS_DIR

export async function trainFoldTaggers(
  folds: number,
  dir = KEPT_FOLDS ?? path.join(os.tmpdir(), `tea-ner-folds-${process.pid}`),
  jobs = Number(process.env.TEA_JOBS ?? 2),
): Promise<FoldModel[]> {
  const out: FoldModel[] = []
  let next = 0
  const t0 = Date.now()
  const one = async (): Promise<void> => {
    while (next < folds) {
      const fold = next++
      const models = path.join(dir, `fold-${fold}`)
      mkdirSync(models, { recursive: true })
      if (KEPT_FOLDS && existsSync(path.join(models, 'ner.bin.gz'))) {
        out.push({ fold, tagger: path.join(models, 'ner.bin.gz') })
        continue
      }
      await new Promise<void>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [
            ...process.execArgv,
            path.join(REPO_ROOT, 'scripts/train.ts'),
            '--only',
            'ner',
            '--fold',
            String(fold),
            '--folds',
            String(folds),
          ],
          {
            env: { ...process.env, TEA_MODELS_OUT: models },
            stdio: ['ignore', 'ignore', 'inherit'],
          },
        )
        child.on('error', reject)
        child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`cv: training fold ${fold} exited with ${code}`))))
      })
      console.error(`cv: fold ${fold + 1}/${folds} tagger trained (${Math.round((Date.now() - t0) / 1000)} s)`)
      out.push({ fold, tagger: path.join(models, 'ner.bin.gz') })
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, folds)) }, one))
  return out.sort((a, b) => a.fold - b.fold)
}
