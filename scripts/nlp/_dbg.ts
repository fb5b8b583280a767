import { tokenize } from '../../src/nlp/tokens.ts'
import { extractEntities } from '../../src/nlp/mentions.ts'
import { anchorsBySentence, candidatePairs, docContext, typedCandidates, relationScore, calibrateType, loadRelationModel, wordHashes } from '../../src/nlp/relations.ts'
const model = loadRelationModel(new URL('../../models/relations.json', import.meta.url))
const FILLER = ' The rest of this paragraph is ordinary filler prose without any names in it, written so that the text is long enough.'
for (const t of process.argv.slice(2)) {
  const doc = tokenize(t + FILLER)
  const ents = extractEntities(doc)
  console.log(ents.map((e) => e.type + ':' + e.name).join(', '))
  const anchors = anchorsBySentence(doc, ents)
  for (const tc of typedCandidates(doc, anchors, candidatePairs(anchors, model.places), docContext(anchors, ents), wordHashes(doc), model.places)) {
    for (const ty of tc.types) { const s = relationScore(model, tc.feats, ty); console.log(" ", tc.candidate.source.entity.name, ty, tc.candidate.target.entity.name, s.toFixed(3), calibrateType(model, ty, s, tc.cues.includes(ty)).toFixed(3), model.threshold[ty], tc.cues.join()) }
  }
}
