// The relation features of one candidate pair of a text's first sentence, for the tests of
// relation templates.
import type { Engine } from '../../src/nlp/index.ts'
import { anchorsBySentence, docContext, relationFeatures, wordHashes, type Anchor } from '../../src/nlp/relations.ts'
import { tokenize } from '../../src/nlp/tokens.ts'

/**
 * Features of the pair from the entity named `source` to the first other mention `isTarget`
 * accepts, both in the first sentence of `text`; throws (naming the entities found) when either is
 * missing, so that a test cannot pass on a pair the tagger did not produce.
 */
export function firstSentencePairFeatures(
  engine: Engine,
  text: string,
  source: string,
  isTarget: (a: Anchor, source: Anchor) => boolean,
): Set<number> {
  const doc = tokenize(text)
  const ents = engine.extractEntities(doc, { all: true })
  const anchors = anchorsBySentence(doc, ents)
  const s = anchors[0].find((a) => a.entity.name === source)
  const o = s && anchors[0].find((a) => a.entity !== s.entity && isTarget(a, s))
  if (!s || !o) throw new Error(`no pair in "${text}": ${ents.map((e) => e.type + ' ' + e.name).join(', ')}`)
  return new Set(
    relationFeatures(doc, wordHashes(doc), { source: s, target: o, sent: 0, sent2: 0 }, anchors, docContext(anchors, ents), []),
  )
}

/** Features of the pair from the entity named `source` to the one named `target` (first sentence). */
export function namedPairFeatures(engine: Engine, text: string, source: string, target: string): Set<number> {
  return firstSentencePairFeatures(engine, text, source, (a) => a.entity.name === target)
}
