// Token features of the entity tagger. Training (scripts/nlp/train-ner.ts) and tagging
// (../tagger.ts) both call these functions, so the two can never drift apart.
import type { Tokenized } from '../tokens.ts'
import { feat } from './hashing.ts'
import { OUTSIDE, type DocInfo } from './document.ts'

// Template numbers. Never renumber: they are baked into the model file.
const T = {
  bias: 1,
  word: 2,
  lower: 3,
  shape: 4,
  hshape: 5,
  p1: 6,
  p2: 7,
  p3: 8,
  x2: 9,
  x3: 10,
  x4: 11,
  pos: 12,
  posM1: 13,
  posP1: 14,
  posM2: 15,
  posP2: 16,
  posBi: 17,
  posBiN: 18,
  lM1: 19,
  lP1: 20,
  lM2: 21,
  lP2: 22,
  lBi: 23,
  lBiN: 24,
  sM1: 25,
  sP1: 26,
  sTri: 27,
  first: 28,
  headline: 29,
  len: 30,
  gaz: 31,
  gazM1: 32,
  gazP1: 33,
  docCap: 34,
  docLow: 35,
  tM1: 36,
  tM2M1: 37,
  tM1s: 38,
  hist: 39,
  capRun: 40,
  docSurname: 41,
  docOrg: 42,
  sM2: 43,
  sP2: 44,
  lM1s: 45,
  sLP1: 46,
  runText: 47,
  x3M1: 48,
  x3P1: 49,
  runPrev: 50,
  runNext: 51,
  lM2M1: 52,
  runHist: 53,
  c1: 54,
  c2: 55,
  c3: 56,
  c2M1: 57,
  c2P1: 58,
  c3M1: 59,
  c3P1: 60,
  c2M2: 61,
  c2P2: 62,
  c3s: 63,
  c2Bi: 64,
  nLower: 65,
  nShape: 66,
  nGaz: 67,
  nGazM1: 68,
  nGazP1: 69,
  nC2: 70,
  nC3: 71,
  xHead: 72,
  xFirst: 73,
  xHeadC: 74,
  xLen: 75,
} as const

/**
 * A token's features: `ids[0]` to `ids[n - 1]`. A typed array written by index: a plain array
 * emptied with `length = 0` for every token loses its storage and grows it again.
 */
export interface FeatureList {
  ids: Int32Array
  n: number
}

export function featureList(): FeatureList {
  return { ids: new Int32Array(128), n: 0 }
}

/** `list.ids`, with room for `more` features after the first `list.n`. */
function reserve(list: FeatureList, more: number): Int32Array {
  if (list.ids.length < list.n + more) {
    const ids = new Int32Array(2 * (list.n + more))
    ids.set(list.ids.subarray(0, list.n))
    list.ids = ids
  }
  return list.ids
}

/** Features that do not depend on earlier tagging decisions; appended to `out`. */
export function staticFeatures(doc: Tokenized, info: DocInfo, i: number, list: FeatureList): void {
  const s = doc.sentences[doc.tokens[i].sent]
  // Neighbour presence, computed inline: closures here would be re-created for every token.
  const hasM1 = i - 1 >= s.first
  const hasM2 = i - 2 >= s.first
  const hasP1 = i + 1 < s.last
  const hasP2 = i + 2 < s.last
  const hl = info.headline[i] === 1
  const firstInSent = i === s.first
  const pos = info.pos
  const pm1 = hasM1 ? pos[i - 1] : 0
  const pp1 = hasP1 ? pos[i + 1] : 0
  const pm2 = hasM2 ? pos[i - 2] : 0
  const pp2 = hasP2 ? pos[i + 2] : 0
  const lm1 = hasM1 ? info.hLower[i - 1] : OUTSIDE
  const lp1 = hasP1 ? info.hLower[i + 1] : OUTSIDE + 1
  const lm2 = hasM2 ? info.hLower[i - 2] : OUTSIDE
  const lp2 = hasP2 ? info.hLower[i + 2] : OUTSIDE + 1
  const sm1 = hasM1 ? info.hShape[i - 1] : OUTSIDE
  const sp1 = hasP1 ? info.hShape[i + 1] : OUTSIDE + 1
  const l = info.hLower[i]
  const sh = info.hShape[i]
  // At most 59 features besides the gazetteer marks, which informal text adds twice.
  const out = reserve(list, 64 + 2 * (info.gaz[i].length + (hasM1 ? info.gaz[i - 1].length : 0) + (hasP1 ? info.gaz[i + 1].length : 0)))
  let n = list.n

  out[n++] = feat(T.bias, 0)
  // On an all-caps headline the surface form is a poor copy of the usual spelling.
  if (!hl) out[n++] = feat(T.word, info.hWord[i])
  out[n++] = feat(T.lower, l)
  out[n++] = feat(hl ? T.hshape : T.shape, sh)
  const a = i * 6
  const aff = info.hAffix
  if (aff[a]) out[n++] = feat(T.p1, aff[a])
  if (aff[a + 1]) {
    out[n++] = feat(T.p2, aff[a + 1])
    out[n++] = feat(T.x2, aff[a + 3])
  }
  if (aff[a + 2]) {
    out[n++] = feat(T.p3, aff[a + 2])
    out[n++] = feat(T.x3, aff[a + 4])
  }
  if (aff[a + 5]) out[n++] = feat(T.x4, aff[a + 5])
  out[n++] = feat(T.pos, pos[i])
  out[n++] = feat(T.posM1, pm1)
  out[n++] = feat(T.posP1, pp1)
  out[n++] = feat(T.posM2, pm2)
  out[n++] = feat(T.posP2, pp2)
  out[n++] = feat(T.posBi, pm1, pos[i])
  out[n++] = feat(T.posBiN, pos[i], pp1)
  out[n++] = feat(T.lM1, lm1)
  out[n++] = feat(T.lP1, lp1)
  out[n++] = feat(T.lM2, lm2)
  out[n++] = feat(T.lP2, lp2)
  out[n++] = feat(T.lBi, lm1, l)
  out[n++] = feat(T.lBiN, l, lp1)
  out[n++] = feat(T.sM1, sm1)
  out[n++] = feat(T.sP1, sp1)
  out[n++] = feat(T.sTri, feat(0, sm1, sh), sp1)
  if (firstInSent) out[n++] = feat(T.first, sh)
  if (hl) out[n++] = feat(T.headline, 0)
  const len = Math.min(info.lower[i].length, 12)
  out[n++] = feat(T.len, len < 3 ? len : len < 6 ? 3 : 4, hl ? 1 : 0)
  for (const g of info.gaz[i]) out[n++] = feat(T.gaz, g)
  if (hasM1) for (const g of info.gaz[i - 1]) out[n++] = feat(T.gazM1, g)
  if (hasP1) for (const g of info.gaz[i + 1]) out[n++] = feat(T.gazP1, g)
  // Capitalisation seen where it is informative (mid-sentence, not a headline) elsewhere in the document.
  if ((firstInSent || hl) && info.capStart[i] && info.docCap[i]) out[n++] = feat(T.docCap, 0)
  if (info.capStart[i] && info.docLow[i]) out[n++] = feat(T.docLow, 0)
  if (info.capRun[i]) {
    out[n++] = feat(T.capRun, info.capRun[i], hl ? 1 : 0)
    out[n++] = feat(T.runText, info.runHash[i], info.capRun[i])
  }
  if (info.capRun[i]) {
    out[n++] = feat(T.runPrev, info.runPrev[i])
    out[n++] = feat(T.runNext, info.runNext[i])
  }
  out[n++] = feat(T.lM2M1, lm2, lm1)
  out[n++] = feat(T.x3M1, hasM1 ? info.hAffix[(i - 1) * 6 + 4] : OUTSIDE)
  out[n++] = feat(T.x3P1, hasP1 ? info.hAffix[(i + 1) * 6 + 4] : OUTSIDE + 1)
  if (info.docSurname[i]) out[n++] = feat(T.docSurname, firstInSent || hl ? 1 : 0)
  if (info.docOrg[i]) out[n++] = feat(T.docOrg, 0)
  out[n++] = feat(T.sM2, hasM2 ? info.hShape[i - 2] : OUTSIDE)
  out[n++] = feat(T.sP2, hasP2 ? info.hShape[i + 2] : OUTSIDE + 1)
  out[n++] = feat(T.lM1s, lm1, sh)
  out[n++] = feat(T.sLP1, sh, lp1)
  {
    // Word clusters: generalise from seen words to unseen ones of similar use (lower-case names).
    const cl = info.clus
    const c = cl[i]
    const cm1 = hasM1 ? cl[i - 1] >> 3 : OUTSIDE
    const cp1 = hasP1 ? cl[i + 1] >> 3 : OUTSIDE + 1
    // (Also tried: fine clusters of the neighbours, a neighbour-cluster bigram, cluster × shape:
    // no better on WNUT-17 / CoNLL-2003 dev, or worse on CoNLL04 relations downstream.)
    out[n++] = feat(T.c1, c >> 7)
    out[n++] = feat(T.c2, c >> 3)
    out[n++] = feat(T.c3, c)
    out[n++] = feat(T.c2M1, cm1)
    out[n++] = feat(T.c2P1, cp1)
    out[n++] = feat(T.c2M2, hasM2 ? cl[i - 2] >> 3 : OUTSIDE)
    out[n++] = feat(T.c2P2, hasP2 ? cl[i + 2] >> 3 : OUTSIDE + 1)
  }
  if (info.nameRun[i]) {
    // Long names: the head word ("Records", "University", "Party") types every word of the name,
    // and decides whether a connector ("of", "de") inside it continues the name.
    const r = info.nameRun[i]
    out[n++] = feat(T.xHead, info.nameHead[i], r)
    out[n++] = feat(T.xHeadC, info.nameHeadClus[i], r)
    out[n++] = feat(T.xFirst, info.nameFirst[i], r)
    out[n++] = feat(T.xLen, info.nameLen[i], r)
  }
  if (info.noisy) {
    // Informal text: the same evidence with weights of its own, so that lower-case names
    // ("emma", "minecraft") can be learned without changing what newswire casing means.
    const c = info.clus[i]
    out[n++] = feat(T.nLower, l)
    out[n++] = feat(T.nShape, sh, firstInSent ? 1 : 0)
    out[n++] = feat(T.nC2, c >> 3)
    out[n++] = feat(T.nC3, c)
    for (const g of info.gaz[i]) out[n++] = feat(T.nGaz, g)
    if (hasM1) for (const g of info.gaz[i - 1]) out[n++] = feat(T.nGazM1, g)
    if (hasP1) for (const g of info.gaz[i + 1]) out[n++] = feat(T.nGazP1, g)
  }
  list.n = n
}

/** Features that read the decisions already taken (previous tags, earlier labels of the same word). */
export function dynamicFeatures(prev1: number, prev2: number, shapeHash: number, history: number, runHistory: number, out: number[]): void {
  out.push(feat(T.tM1, prev1 + 1))
  out.push(feat(T.tM2M1, prev2 + 1, prev1 + 1))
  out.push(feat(T.tM1s, prev1 + 1, shapeHash))
  if (history >= 0) out.push(feat(T.hist, history))
  if (runHistory >= 0) out.push(feat(T.runHist, runHistory))
}
