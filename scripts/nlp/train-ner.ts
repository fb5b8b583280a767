// Trains the entity tagger (averaged perceptron, BILOU) on the train splits and writes
// models/ner.bin.gz. Deterministic: fixed document order shuffles from a seeded PRNG.
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { tokenize, type Tokenized } from '../../src/nlp/tokens.ts'
import { fnv, phraseHash } from '../../src/nlp/features/hashing.ts'
import {
  GAZ_CLASSES,
  GAZ_PREFIX,
  MAX_GAZ_WORDS,
  buildClusterIndex,
  type ClusterIndex,
  type Gazetteer,
} from '../../src/nlp/features/lexicon.ts'
import { docInfo, type DocInfo } from '../../src/nlp/features/document.ts'
import { NTAGS, TYPES } from '../../src/nlp/features/tags.ts'
import { featureList, staticFeatures } from '../../src/nlp/features/tagger.ts'
import { CORPORA, TOP, buildClusters } from './clusters.ts'
import { DIMS, loadVectors } from './vectors.ts'
import { VECTOR_POSITIONS, type VectorTable, buildModel, decode, encodeTagger, modelScorer, spans } from '../../src/nlp/tagger.ts'
import { buildGazetteer } from './gazetteer.ts'
import { informalDocs, syntheticDocs } from './synthetic.ts'
import { REPO_ROOT, TAGGER_LABEL, readJsonl, rng, shuffle, type Example } from './data.ts'
import { foldOf, readNer } from './ner-data.ts'

/**
 * Training corpora and how many times per epoch each is seen. Newswire (CoNLL-2003) fourteen times,
 * CoNLL04 three and Re-DocRED once: the other corpora otherwise pull the newswire decisions towards
 * their own conventions; WNUT-17 twice, as once was too little for the casing-free features of
 * informal text (features/document.ts, isNoisy); BTC twice (with newswire fourteen times, so that the
 * newswire decisions hold) for the Twitter names. The small corpora of a domain (CrossNER: 27k tokens in
 * all; SEC) are repeated so that their domain is not drowned. All chosen on dev figures
 * (CoNLL-2003 dev above all; BTC's on its three-fold CV figure too;
 * docs/experiments/multi-domain-tagger.md).
 * `TEA_REPEAT_<NAME>` (the folder's name in capitals) overrides one, for experiments.
 */
export const SOURCE_REPEAT: Record<string, number> = {
  'conll2003/train_docs.jsonl': 14,
  'wnut17/train_grouped.jsonl': 2,
  'conll04/train_grouped.jsonl': 3,
  'redocred/train.jsonl': 1,
  'btc/train_grouped.jsonl': 2,
  'sec/train_grouped.jsonl': 2,
  'crossner/politics_train.jsonl': 10,
  'crossner/science_train.jsonl': 10,
  'crossner/music_train.jsonl': 10,
  'crossner/literature_train.jsonl': 10,
  'crossner/ai_train.jsonl': 10,
}

function sourceRepeat(source: string): number {
  const env = process.env[`TEA_REPEAT_${source.split('/')[0].toUpperCase()}`]
  return env !== undefined ? Number(env) : (SOURCE_REPEAT[source] ?? 1)
}

export interface Prepared {
  doc: Tokenized
  info: DocInfo
  gold: Int32Array
  ignore: Uint8Array
  /** Tokens whose O is not evidence (see PARTIAL_SOURCES): no update when the tagger predicts a name there. */
  unlabeled?: Uint8Array
  goldSpans: Set<string>
  /** MISC spans here may be objects (see MISC_HOLDS_OBJECTS). */
  miscMayBeObject?: boolean
}

/**
 * Corpora whose conventions leave names of ours unannotated (Re-DocRED keeps only its entity
 * clusters' mentions, BTC and SEC are sparse, CrossNER's types are its domains'). Outside their
 * annotated spans a capitalised token is treated as unlabeled rather than O: trained as O, the
 * tagger learned to miss real names in prose ("Roger K. Crouch of NASA", "Microsoft owns
 * LinkedIn"; CrossNER and SEC taught as O lost them again). Only CoNLL-2003, WNUT-17, CoNLL04 and
 * the synthetic documents teach O on capitalised words.
 */
export const PARTIAL_SOURCES = new Set([
  'redocred/train.jsonl',
  'btc/train_grouped.jsonl',
  'sec/train_grouped.jsonl',
  ...Object.keys(SOURCE_REPEAT).filter((s) => s.startsWith('crossner/')),
])

/**
 * Corpora with no object type of their own, whose MISC holds products and works among events and
 * nationalities (CoNLL-2003 "Windows 95", Re-DocRED's albums, films and books; SEC). Listed here,
 * a corpus's MISC span read as an object (the same BILOU part) is not corrected: trained as MISC
 * there, the tagger reads most titles as MISC, which has no service type. Empty by default: with it
 * (and OBJECT_STEP 4) objects F1 rose by about 0.1 on CrossNER dev but some name figures fell
 * (docs/experiments/objects.md). `TEA_MISC_OBJ` (folder names, comma-separated) sets it.
 */
export const MISC_HOLDS_OBJECTS = new Set<string>()

/**
 * Size of the update when the gold tag is an object's (1 for the other types; `TEA_OBJECT_STEP`
 * sets it). Objects are rare in training (WNUT-17 and three small CrossNER domains) and look like
 * other names; 4 (with MISC_HOLDS_OBJECTS) found far more objects at a small cost to names
 * (docs/experiments/objects.md). 1 reproduces tea-extract-2.0.0's tagger.
 */
export const OBJECT_STEP = 1

/**
 * Parameter mixing (one-shot, McDonald et al. 2010): the tagger is the average of this many
 * averaged perceptrons trained on the same documents in different shuffled orders. The model is
 * linear, so the mix is one model of the same size and speed. One: two members scored level
 * with one on every dev and cross-validated set, three on the dev sets
 * (docs/experiments/multi-domain-tagger.md).
 * `TEA_NER_MIX` sets the number, for experiments; training time grows by one pass over the
 * corpora per member.
 */
export const NER_MIX_MEMBERS = 1

/** The shuffle seeds of the mixed members: the first is the tagger's seed itself. */
export function mixSeeds(seed: number, members = Number(process.env.TEA_NER_MIX ?? NER_MIX_MEMBERS)): number[] {
  return Array.from({ length: Math.max(1, members) }, (_, j) => seed + 1_000_003 * j)
}

const MISC_TAG0 = 1 + 4 * TYPES.indexOf('MISC')
const OBJ_TAG0 = 1 + 4 * TYPES.indexOf('OBJ')

/** Marks the capitalised tokens outside annotated spans of a partially annotated document. */
export function markUnlabeled(p: Prepared): Prepared {
  const u = new Uint8Array(p.gold.length)
  p.doc.tokens.forEach((t, i) => {
    if (p.gold[i] === 0 && !p.ignore[i] && /^\p{Lu}/u.test(t.text)) u[i] = 1
  })
  return { ...p, unlabeled: u }
}

/** Tokenizes an annotated text and projects its character spans onto BILOU tags. */
export function prepare(ex: Example, gazetteer: Gazetteer, clusters?: ClusterIndex): Prepared {
  const doc = tokenize(ex.text)
  const info = docInfo(doc, gazetteer, clusters)
  const n = doc.tokens.length
  const gold = new Int32Array(n)
  const ignore = new Uint8Array(n)
  const goldSpans = new Set<string>()
  for (const e of ex.entities ?? []) {
    const idx: number[] = []
    for (let i = 0; i < n; i++) {
      const t = doc.tokens[i]
      if (t.start < e.end && t.end > e.start) idx.push(i)
    }
    if (!idx.length) continue
    const label = TAGGER_LABEL[e.type]
    if (!label) {
      for (const i of idx) ignore[i] = 1
      continue
    }
    // An entity that wink splits across sentences is kept up to the sentence break.
    const sent = doc.tokens[idx[0]].sent
    const ks = idx.filter((i) => doc.tokens[i].sent === sent)
    const k = TYPES.indexOf(label)
    if (ks.length === 1) gold[ks[0]] = 4 + 4 * k
    else {
      gold[ks[0]] = 1 + 4 * k
      for (let j = 1; j < ks.length - 1; j++) gold[ks[j]] = 2 + 4 * k
      gold[ks[ks.length - 1]] = 3 + 4 * k
    }
    goldSpans.add(`${label}|${e.start}|${e.end}`)
  }
  return { doc, info, gold, ignore, goldSpans }
}

/** The gazetteer plus every annotated name (up to MAX_GAZ_WORDS words) under its majority type. */
function withTrainingNames(base: Gazetteer, examples: Example[]): Gazetteer {
  const votes = new Map<number, Map<string, number>>()
  const prefixes = new Set<number>()
  for (const ex of examples) {
    for (const e of ex.entities ?? []) {
      const label = TAGGER_LABEL[e.type]
      if (!label) continue
      const ws = e.text.toLowerCase().split(/\s+/).filter(Boolean)
      if (!ws.length || ws.length > MAX_GAZ_WORDS) continue
      const h = phraseHash(ws)
      let v = votes.get(h)
      if (!v) votes.set(h, (v = new Map<string, number>()))
      v.set(label, (v.get(label) ?? 0) + 1)
      for (let k = 1; k < ws.length; k++) prefixes.add(phraseHash(ws.slice(0, k)))
    }
  }
  const gaz: Gazetteer = new Map(base)
  for (const [h, v] of votes) {
    let best = ''
    let n = 0
    for (const [l, c] of v)
      if (c > n) {
        n = c
        best = l
      }
    gaz.set(h, (gaz.get(h) ?? 0) | (1 << GAZ_CLASSES.indexOf(('t' + best) as (typeof GAZ_CLASSES)[number])))
  }
  for (const p of prefixes) gaz.set(p, (gaz.get(p) ?? 0) | GAZ_PREFIX)
  return gaz
}

/** Words written mid-sentence in lower case at least 3 times, and more often than capitalised, in the corpora. */
function commonWords(files: string[]): Set<string> {
  const lower = new Map<string, number>()
  const cap = new Map<string, number>()
  for (const f of files) {
    for (const ex of readJsonl(f)) {
      const ws = ex.text.split(/\s+/)
      for (let i = 1; i < ws.length; i++) {
        if (/[.!?]$/.test(ws[i - 1])) continue
        if (/^\p{Ll}+$/u.test(ws[i])) lower.set(ws[i], (lower.get(ws[i]) ?? 0) + 1)
        else if (/^\p{Lu}\p{Ll}+$/u.test(ws[i])) cap.set(ws[i].toLowerCase(), (cap.get(ws[i].toLowerCase()) ?? 0) + 1)
      }
    }
  }
  return new Set([...lower].filter(([w, c]) => c >= 3 && c > (cap.get(w) ?? 0)).map(([w]) => w))
}

export interface NerTrainOptions {
  epochs: number
  minCount: number
  seed: number
  out: string
  dev?: string
  /** Train without the documents of this fold (cross-validation; see foldOf). */
  holdout?: { fold: number; folds: number }
}

export function trainNer(opts: NerTrainOptions): void {
  const t0 = Date.now()
  const sources = process.env.TEA_NER_SOURCES?.split(',') ?? Object.keys(SOURCE_REPEAT)
  const base = buildGazetteer(commonWords([...sources, 'newsmtsc/train.jsonl']))
  // A cross-validation fold leaves out the documents of that fold of every corpus.
  const heldOut = (id: string) => opts.holdout !== undefined && foldOf(id, opts.holdout.folds) === opts.holdout.fold
  // `TEA_PARTIAL` (folder names, comma-separated; empty for none) overrides PARTIAL_SOURCES, for experiments.
  const partialEnv = process.env.TEA_PARTIAL?.split(',').filter(Boolean)
  const isPartial = (s: string) => (partialEnv ? partialEnv.includes(s.split('/')[0]) : PARTIAL_SOURCES.has(s))
  const miscObjEnv = process.env.TEA_MISC_OBJ?.split(',').filter(Boolean)
  const miscMayBeObject = (s: string) => (miscObjEnv ? miscObjEnv.includes(s.split('/')[0]) : MISC_HOLDS_OBJECTS.has(s))
  const examples = sources.flatMap((s) =>
    readNer(s)
      .filter((ex) => !heldOut(ex.id))
      .map((ex) => ({ ex, repeat: sourceRepeat(s), partial: isPartial(s), miscObj: miscMayBeObject(s) })),
  )
  // Names annotated in training become a gazetteer class of their own. A training document
  // sees only the names of the other folds: with its own names it would learn to trust the
  // feature far more than it deserves on unseen text.
  const folds = 5
  const fold = examples.map((_, i) => i % folds)
  const gazetteer = withTrainingNames(
    base,
    examples.map((e) => e.ex),
  )
  const foldGaz = Array.from({ length: folds }, (_, f) =>
    withTrainingNames(
      base,
      examples.filter((_, i) => fold[i] !== f).map((e) => e.ex),
    ),
  )
  const table = buildClusters()
  const clusterArrays = {
    words: Uint32Array.from([...table.keys()].sort((a, b) => a - b)),
    codes: new Uint16Array(0),
  }
  clusterArrays.codes = Uint16Array.from(clusterArrays.words, (h) => table.get(h)!)
  const clusters = buildClusterIndex(clusterArrays.words, clusterArrays.codes)
  const data: Prepared[] = []
  const repeat: number[] = []
  examples.forEach(({ ex, repeat: k, partial, miscObj }, i) => {
    const p = prepare(ex, foldGaz[fold[i]], clusters)
    p.miscMayBeObject = miscObj
    data.push(partial ? markUnlabeled(p) : p)
    repeat.push(k)
  })
  // Informal posts with names in lower case, which no training corpus shows (synthetic.ts).
  for (const ex of informalDocs(Number(process.env.TEA_INFORMAL ?? 200), opts.seed + 2)) {
    data.push(prepare(ex, gazetteer, clusters))
    repeat.push(1)
  }
  for (const ex of syntheticDocs(Number(process.env.TEA_SYNTHETIC ?? 300), opts.seed)) {
    data.push(prepare(ex, gazetteer, clusters))
    repeat.push(1)
  }
  const emb = embeddings()
  const embRows = data.map((d) => Int32Array.from(d.info.hLower, (h) => emb.row.get(h) ?? -1))
  const nTok = data.reduce((a, d) => a + d.doc.tokens.length, 0)
  console.log(`ner: ${data.length} documents, ${nTok} tokens, gazetteer ${gazetteer.size} phrases (${Date.now() - t0} ms)`)

  // Static features seen fewer than minCount times are dropped: they cannot be learned reliably.
  const counts = new Map<number, number>()
  const buf = featureList()
  for (const d of data) {
    for (let i = 0; i < d.doc.tokens.length; i++) {
      buf.n = 0
      staticFeatures(d.doc, d.info, i, buf)
      for (let k = 0; k < buf.n; k++) counts.set(buf.ids[k], (counts.get(buf.ids[k]) ?? 0) + 1)
    }
  }
  const index = new Map<number, number>()
  const names: number[] = []
  for (const [f, c] of counts)
    if (c >= opts.minCount) {
      index.set(f, names.length)
      names.push(f)
    }
  counts.clear()
  const feats: Int32Array[][] = data.map((d) => {
    const rows: Int32Array[] = []
    for (let i = 0; i < d.doc.tokens.length; i++) {
      buf.n = 0
      staticFeatures(d.doc, d.info, i, buf)
      const ids: number[] = []
      for (let j = 0; j < buf.n; j++) {
        const k = index.get(buf.ids[j])
        if (k !== undefined) ids.push(k)
      }
      rows.push(Int32Array.from(ids))
    }
    return rows
  })
  // Surface words frequent in training and never the first token of an entity.
  const wordCount = new Map<number, number>()
  const startCount = new Map<number, number>()
  for (const d of data)
    for (let i = 0; i < d.doc.tokens.length; i++) {
      const h = d.info.hWord[i]
      wordCount.set(h, (wordCount.get(h) ?? 0) + 1)
      const part = d.gold[i] === 0 ? 0 : ((d.gold[i] - 1) & 3) + 1
      if (part === 1 || part === 4 || d.ignore[i]) startCount.set(h, (startCount.get(h) ?? 0) + 1)
    }
  const skip = new Set<number>()
  for (const [h, c] of wordCount) if (c >= 5 && !startCount.has(h)) skip.add(h)
  console.log(`ner: ${skip.size} never-starting words skipped while no entity is open`)
  const capacity = names.length + 100_000
  console.log(`ner: ${names.length} static features`)

  const w = new Float64Array(capacity * NTAGS)
  const u = new Float64Array(capacity * NTAGS)
  // Dense weights of the word vectors: position (previous, this, next word) × dimension × tag.
  const NPOS = VECTOR_POSITIONS
  const wd = new Float64Array(NPOS * DIMS * NTAGS)
  const ud = new Float64Array(NPOS * DIMS * NTAGS)
  let c = 1
  const idOf = (f: number): number => {
    let k = index.get(f)
    if (k === undefined) {
      if (names.length >= capacity) return -1
      k = names.length
      index.set(f, k)
      names.push(f)
    }
    return k
  }

  const objectStep = Number(process.env.TEA_OBJECT_STEP ?? OBJECT_STEP)
  const baseOrder = data.flatMap((_, i) => new Array<number>(repeat[i]).fill(i))
  const devSet = opts.dev ? readNer(opts.dev).map((ex) => prepare(ex, gazetteer, clusters)) : []
  // Parameter mixing: the members are trained one after the other on the same documents, each
  // in its own shuffled order, and their averaged weights are averaged (sums kept here).
  const members = mixSeeds(opts.seed)
  const mix = new Float64Array(capacity * NTAGS)
  const mixD = new Float64Array(NPOS * DIMS * NTAGS)
  for (let m = 0; m < members.length; m++) {
    if (m > 0) {
      w.fill(0)
      u.fill(0)
      wd.fill(0)
      ud.fill(0)
      c = 1
    }
    const r = rng(members[m])
    const order = baseOrder.slice()
    for (let epoch = 1; epoch <= opts.epochs; epoch++) {
      shuffle(order, r)
      const errors = perceptronEpoch(order)
      const avg = averaged(w, u, c, names.length)
      const avgD = averaged(wd, ud, c, NPOS * DIMS)
      const dev = devSet.length ? spanF1(devSet, names, avg, gazetteer, skip, clusters) : ''
      const who = members.length > 1 ? `member ${m + 1}/${members.length} (seed ${members[m]}) ` : ''
      console.log(`ner: ${who}epoch ${epoch} errors ${errors} ${dev} (${Math.round((Date.now() - t0) / 1000)} s)`)
      // `TEA_NER_SNAPSHOTS=1` also writes each epoch's model (ner-e<N>.bin.gz), to choose the epoch
      // count in one run; with several members, each member's own model (ner-m<N>.bin.gz) and the
      // mix of the members so far (ner-mix<N>.bin.gz), to see what mixing adds.
      if (process.env.TEA_NER_SNAPSHOTS && epoch < opts.epochs && members.length === 1)
        write(avg, avgD, opts.out.replace(/\.bin\.gz$/, `-e${epoch}.bin.gz`))
      if (epoch === opts.epochs) {
        for (let k = 0; k < avg.length; k++) mix[k] += avg[k]
        for (let k = 0; k < avgD.length; k++) mixD[k] += avgD[k]
        if (process.env.TEA_NER_SNAPSHOTS && members.length > 1 && m < members.length - 1) {
          write(avg, avgD, opts.out.replace(/\.bin\.gz$/, `-m${m + 1}.bin.gz`))
          if (m > 0)
            write(meanOf(mix, m + 1, names.length), meanOf(mixD, m + 1, NPOS * DIMS), opts.out.replace(/\.bin\.gz$/, `-mix${m + 1}.bin.gz`))
        }
      }
    }
  }
  write(meanOf(mix, members.length, names.length), meanOf(mixD, members.length, NPOS * DIMS), opts.out)

  /** One pass of the perceptron over the documents in `order`; returns the number of wrong tags. */
  function perceptronEpoch(order: number[]): number {
    let errors = 0
    for (const di of order) {
      const d = data[di]
      const rows = feats[di]
      const er = embRows[di]
      const X = emb.X
      // The vector rows of the previous, this and the next word of token i (-1: none).
      const vecRows = (i: number, out: Int32Array) => {
        const s = d.doc.sentences[d.doc.tokens[i].sent]
        out[0] = i - 1 >= s.first ? er[i - 1] : -1
        out[1] = er[i]
        out[2] = i + 1 < s.last ? er[i + 1] : -1
      }
      const vr = new Int32Array(NPOS)
      let dynIds: number[] = []
      const dynBuf: number[] = []
      decode(
        d.doc,
        d.info,
        (i, dyn, scores) => {
          scores.fill(0)
          dynBuf.length = 0
          for (const f of dyn) {
            const k = idOf(f)
            if (k >= 0) dynBuf.push(k)
          }
          dynIds = dynBuf
          for (const k of rows[i]) for (let t = 0, b = k * NTAGS; t < NTAGS; t++) scores[t] += w[b + t]
          for (const k of dynIds) for (let t = 0, b = k * NTAGS; t < NTAGS; t++) scores[t] += w[b + t]
          vecRows(i, vr)
          for (let p = 0; p < NPOS; p++) {
            if (vr[p] < 0) continue
            for (let dd = 0, xb = vr[p] * DIMS; dd < DIMS; dd++) {
              const x = X[xb + dd]
              for (let t = 0, b = (p * DIMS + dd) * NTAGS; t < NTAGS; t++) scores[t] += x * wd[b + t]
            }
          }
        },
        skip,
        (i, _dyn, pred) => {
          c++
          const g = d.gold[i]
          if (d.ignore[i] || pred === g) return
          // An unlabeled token predicted as a name: the gold O there may be a missing annotation.
          if (g === 0 && d.unlabeled?.[i]) return
          // A MISC of a corpus without objects read as an object: either may be right.
          if (d.miscMayBeObject && g >= MISC_TAG0 && g < MISC_TAG0 + 4 && pred === g - MISC_TAG0 + OBJ_TAG0) return
          errors++
          const st = g >= OBJ_TAG0 ? objectStep : 1
          for (const k of rows[i]) {
            w[k * NTAGS + g] += st
            u[k * NTAGS + g] += st * c
            w[k * NTAGS + pred] -= st
            u[k * NTAGS + pred] -= st * c
          }
          for (const k of dynIds) {
            w[k * NTAGS + g] += st
            u[k * NTAGS + g] += st * c
            w[k * NTAGS + pred] -= st
            u[k * NTAGS + pred] -= st * c
          }
          vecRows(i, vr)
          for (let p = 0; p < NPOS; p++) {
            if (vr[p] < 0) continue
            for (let dd = 0, xb = vr[p] * DIMS; dd < DIMS; dd++) {
              const x = st * X[xb + dd]
              const b = (p * DIMS + dd) * NTAGS
              wd[b + g] += x
              ud[b + g] += x * c
              wd[b + pred] -= x
              ud[b + pred] -= x * c
            }
          }
        },
      )
    }
    return errors
  }

  function write(avg: Float32Array, avgD: Float32Array, out: string): void {
    // Rows that never matter are dropped to keep the file small.
    const keep: number[] = []
    for (let k = 0; k < names.length; k++) {
      let m = 0
      for (let t = 0; t < NTAGS; t++) m = Math.max(m, Math.abs(avg[k * NTAGS + t]))
      if (m >= Number(process.env.TEA_PRUNE ?? 0.5)) keep.push(k)
    }
    const outW = new Float32Array(keep.length * NTAGS)
    keep.forEach((k, j) => outW.set(avg.subarray(k * NTAGS, (k + 1) * NTAGS), j * NTAGS))
    const file = encodeTagger(Int32Array.from(keep.map((k) => names[k])), outW, gazetteer, skip, clusterArrays, vectorScores(avgD))
    writeFileSync(out, file)
    console.log(`ner: wrote ${path.relative(REPO_ROOT, out)} (${keep.length} features, ${(file.length / 1e6).toFixed(2)} MB)`)
  }

  /**
   * Each word's vector times the dense weights of each position, quantised to int8 with a scale
   * per position and tag: tagging reads a word's vector features as a table look-up, not a dot product.
   */
  function vectorScores(avgD: Float32Array): VectorTable {
    const V = emb.hashes.length
    const raw = new Float32Array(NPOS * V * NTAGS)
    for (let p = 0; p < NPOS; p++)
      for (let r = 0; r < V; r++) {
        const at = (p * V + r) * NTAGS
        for (let dd = 0; dd < DIMS; dd++) {
          const x = emb.X[r * DIMS + dd]
          for (let t = 0, b = (p * DIMS + dd) * NTAGS; t < NTAGS; t++) raw[at + t] += x * avgD[b + t]
        }
      }
    const scale = new Float32Array(NPOS * NTAGS)
    for (let p = 0; p < NPOS; p++)
      for (let t = 0; t < NTAGS; t++) {
        let m = 0
        for (let r = 0; r < V; r++) m = Math.max(m, Math.abs(raw[(p * V + r) * NTAGS + t]))
        scale[p * NTAGS + t] = m > 0 ? m / 127 : 1
      }
    const table = new Int8Array(raw.length)
    for (let k = 0; k < raw.length; k++) table[k] = Math.round(raw[k] / scale[((k / (V * NTAGS)) | 0) * NTAGS + (k % NTAGS)])
    console.log(`ner: word-vector scores for ${V} words`)
    return { words: emb.hashes, table, scale }
  }
}

/**
 * Word vectors for the tagger: the vocabulary of the word clusters (the same corpora and `TOP`),
 * each scaled to length `TEA_EMB_SCALE` (default 1, the weight of one binary feature), by
 * lower-case word hash. `TEA_EMB=0` trains without them (an empty table).
 */
function embeddings(): { row: Map<number, number>; hashes: Uint32Array; X: Float32Array } {
  if (process.env.TEA_EMB === '0') return { row: new Map(), hashes: new Uint32Array(0), X: new Float32Array(0) }
  const wanted = new Set<string>()
  for (const f of CORPORA) for (const ex of readJsonl(f)) for (const w of ex.text.split(/\s+/)) if (w) wanted.add(w.toLowerCase())
  const v = loadVectors(wanted, TOP)
  const scale = Number(process.env.TEA_EMB_SCALE ?? 1)
  const row = new Map<number, number>()
  const hashes: number[] = []
  const rows: number[] = []
  // Sorted by word so that the rows, and the model file, do not depend on the cache's order.
  const order = v.words.map((_, r) => r).sort((a, b) => (v.words[a] < v.words[b] ? -1 : v.words[a] > v.words[b] ? 1 : 0))
  for (const r of order) {
    const h = fnv(v.words[r])
    if (row.has(h)) continue
    row.set(h, hashes.length)
    hashes.push(h)
    rows.push(r)
  }
  const X = new Float32Array(rows.length * DIMS)
  rows.forEach((r, j) => {
    let s = 0
    for (let d = 0; d < DIMS; d++) s += v.X[r * DIMS + d] ** 2
    const k = s > 0 ? scale / Math.sqrt(s) : 0
    for (let d = 0; d < DIMS; d++) X[j * DIMS + d] = v.X[r * DIMS + d] * k
  })
  return { row, hashes: Uint32Array.from(hashes), X }
}

function averaged(w: Float64Array, u: Float64Array, c: number, rowsUsed: number): Float32Array {
  const out = new Float32Array(rowsUsed * NTAGS)
  for (let k = 0; k < out.length; k++) out[k] = w[k] - u[k] / c
  return out
}

/** The mean of `k` members' summed weights, as the float32 weights of one model. */
function meanOf(sum: Float64Array, k: number, rowsUsed: number): Float32Array {
  const out = new Float32Array(rowsUsed * NTAGS)
  for (let i = 0; i < out.length; i++) out[i] = sum[i] / k
  return out
}

/** Quick span-level micro-F1 (PER/ORG/LOC) used to follow training; `npm run eval` is the real score. */
function spanF1(
  set: Prepared[],
  names: number[],
  avg: Float32Array,
  gazetteer: Gazetteer,
  skip: Set<number>,
  clusters: ClusterIndex,
): string {
  const model = buildModel(names, avg, gazetteer, skip, clusters)
  let tp = 0,
    fp = 0,
    fn = 0
  for (const d of set) {
    const tags = decode(d.doc, d.info, modelScorer(model, d.doc, d.info), skip)
    const pred = new Set(
      spans(tags)
        .filter((s) => s.type !== 'MISC' && s.type !== 'OBJ')
        .map((s) => `${s.type}|${d.doc.tokens[s.first].start}|${d.doc.tokens[s.last - 1].end}`),
    )
    const gold = [...d.goldSpans].filter((g) => !g.startsWith('MISC') && !g.startsWith('OBJ'))
    for (const g of gold)
      if (pred.has(g)) tp++
      else fn++
    for (const p of pred) if (!gold.includes(p)) fp++
  }
  const p = tp / Math.max(1, tp + fp)
  const rc = tp / Math.max(1, tp + fn)
  return `dev P ${p.toFixed(3)} R ${rc.toFixed(3)} F1 ${((2 * p * rc) / Math.max(1e-9, p + rc)).toFixed(3)}`
}
