// Gold triples per domain and type of the relation training files, for calx.py: npx tsx scripts/nlp/calibration-exp/gold.ts > gold.json
import { TRAIN_SETS, goldCounts } from '../train-relations.ts'
import { loadRelDocs } from '../relation-data.ts'
const docs = TRAIN_SETS.flatMap((f) => loadRelDocs(f))
console.log(JSON.stringify(Object.fromEntries(goldCounts(docs))))
