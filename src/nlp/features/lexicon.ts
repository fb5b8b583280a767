// The lexicons the tagger reads: the gazetteer (phrases → classes) and the word clusters.
import { IdIntMap } from '../tables.ts'

/** Gazetteer classes, one bit each, as stored in the model file. */
export const GAZ_CLASSES = [
  'first',
  'country',
  'city',
  'demonym',
  'region',
  'orgword',
  'company',
  // Names annotated in the training data, by their majority type (see train-ner.ts).
  'tPER',
  'tORG',
  'tLOC',
  'tMISC',
  'tOBJ',
  // Brands: companies, products and software (simple-icons titles).
  'brand',
  // Ordinary words: written in lower case mid-sentence more often than capitalised in the
  // training texts ("useless", "nice"), whatever their casing in informal text.
  'common',
] as const
export const MAX_GAZ_WORDS = 4
/** Marks a proper prefix of some phrase, so that matching stops as soon as no phrase can follow. */
export const GAZ_PREFIX = 1 << 30
export const GAZ_CLASS_MASK = (1 << GAZ_CLASSES.length) - 1

/** Hash of a lower-cased phrase → bitmask of GAZ_CLASSES, as training builds it. */
export type Gazetteer = Map<number, number>

/** What tagging reads of a gazetteer: the Map of training, or the compact IdIntMap (./tables.ts) of a loaded model. */
export interface GazetteerLookup {
  get(phrase: number): number | undefined
}

/**
 * Word clusters (see scripts/nlp/clusters.ts): lower-case word hash → 12-bit hierarchical code
 * (5 bits coarse, 4 bits middle, 3 bits fine). The same table, with rows for codes, maps words to
 * rows of the sentiment model's vectors.
 */
export interface ClusterIndex {
  /** Word hash (0 stored as 1, see buildClusterIndex) → code. */
  codes: IdIntMap
}

/** Code of a word absent from the cluster table. */
export const NO_CLUSTER = 0xffff

// Hash 0 is stored and looked up as 1, as the files were built: the two share an entry.
export function buildClusterIndex(words: ArrayLike<number>, codes: ArrayLike<number>): ClusterIndex {
  return {
    codes: new IdIntMap(
      Array.from(words, (w) => w || 1),
      Uint16Array.from(codes),
    ),
  }
}

export function clusterOf(ix: ClusterIndex | undefined, wordHash: number): number {
  return ix ? ix.codes.getOr(wordHash || 1, NO_CLUSTER) : NO_CLUSTER
}
