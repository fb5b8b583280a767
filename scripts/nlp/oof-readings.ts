// Training texts read out of fold: each by the fold tagger trained without it, as the scripts that
// look for what extraction loses on text the tagger never saw read them.
import { confidenceOf } from '../../src/nlp/confidence.ts'
import { createEngine, loadEngineModels, loadEntityModels } from '../../src/nlp/index.ts'
import { entityCandidates } from '../../src/nlp/mentions.ts'
import { loadTagger } from '../../src/nlp/tagger.ts'
import { tokenize } from '../../src/nlp/tokens.ts'
import type { FoldModel } from './cv.ts'
import { foldOf } from './ner-data.ts'

/**
 * Each of `rows` with its tokens, the fold tagger that did not see it, an engine over that tagger,
 * and the tagger's entity candidates scored by the committed entity confidence; fold by fold.
 */
export function* outOfFoldReadings<R extends { id: string; text: string }>(rows: R[], folds: FoldModel[], k: number) {
  const base = loadEngineModels()
  const { confidence } = loadEntityModels()
  for (const { fold, tagger: path } of folds) {
    const tagger = loadTagger(path)
    const engine = createEngine({ ...base, tagger })
    for (const ex of rows) {
      if (foldOf(ex.id, k) !== fold) continue
      const doc = tokenize(ex.text)
      const cands = entityCandidates(doc, tagger).map(({ entity, features }) => ({ e: entity, conf: confidenceOf(confidence, features) }))
      yield { ex, doc, tagger, engine, cands }
    }
  }
}
