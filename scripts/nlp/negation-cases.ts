// Prints the sentiment of the eight negation sentences of test/nlp/relations.test.ts ('targeted
// sentiment, with negation') for a model file, with the class probabilities, and whether each is
// as the test wants. Usage: npx tsx scripts/nlp/negation-cases.ts [models/sentiment.bin.gz …]
import { pathToFileURL } from 'node:url'
import { tokenize } from '../../src/nlp/tokens.ts'
import { wordHashes } from '../../src/nlp/relations.ts'
import { inputsOf, loadSentimentModel, POLARITIES, sentimentInput, sentimentScores } from '../../src/nlp/sentiment.ts'

/** Sentences about "John Smith" and the sentiment towards him that the test wants. */
export const NEGATION_CASES: [string, string][] = [
  ['Voters praised Senator John Smith for his honest and effective leadership.', 'positive'],
  ['Voters did not praise Senator John Smith; they criticised his dishonest and corrupt leadership.', 'negative'],
  ['Senator John Smith was corrupt.', 'negative'],
  ['Senator John Smith was not corrupt.', 'positive'],
  // Words only VADER rates (the model before sent-5 read "not admirable" as positive).
  ['Senator John Smith was admirable.', 'positive'],
  ['Senator John Smith was not admirable.', 'negative'],
  ['Senator John Smith was a smuggler.', 'negative'],
  ['Senator John Smith was never a smuggler.', 'positive'],
]
if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const files = process.argv.slice(2)
  for (const file of files.length ? files : ['models/sentiment.bin.gz']) {
    const m = loadSentimentModel(file)
    let ok = 0
    for (const [sentence, want] of NEGATION_CASES) {
      const doc = tokenize(sentence)
      const i = doc.tokens.findIndex((x) => x.text === 'John')
      const p = sentimentScores(m, sentimentInput(m, doc, wordHashes(doc), [{ first: i, last: i + 2 }], 0, new Float32Array(inputsOf(m))))
      const got = POLARITIES[p.indexOf(Math.max(...p))]
      if (got === want) ok++
      console.log(`${got === want ? 'ok  ' : 'FAIL'} ${got} ${p.map((v) => v.toFixed(2)).join('/')}  ${sentence}`)
    }
    console.log(`${file}: ${ok} of ${NEGATION_CASES.length} as the test wants`)
  }
}
