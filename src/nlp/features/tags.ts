// The tagger's tag set (BILOU over the entity types) and which tag may follow which.

/** Entity types the tagger knows; MISC is learned so it does not pollute the others, then dropped. */
export const TYPES = ['PER', 'ORG', 'LOC', 'MISC', 'OBJ'] as const
export const TAGS: string[] = ['O', ...TYPES.flatMap((t) => ['B-' + t, 'I-' + t, 'L-' + t, 'U-' + t])]
export const NTAGS = TAGS.length

/** Tag index helpers: 0 is O; for type k, B=1+4k, I=2+4k, L=3+4k, U=4+4k. */
export const tagType = (tag: number) => (tag === 0 ? -1 : (tag - 1) >> 2)
/** 0 = O, 1 = B, 2 = I, 3 = L, 4 = U. */
export const tagPart = (tag: number) => (tag === 0 ? 0 : ((tag - 1) & 3) + 1)
export const B = 1,
  I = 2,
  L = 3,
  U = 4

function allowedSlow(prev: number, tag: number, last: boolean): boolean {
  const pp = prev < 0 ? 0 : tagPart(prev)
  const p = tagPart(tag)
  if (pp === B || pp === I) {
    if (tagType(tag) !== tagType(prev)) return false
    return p === L || (p === I && !last)
  }
  if (p === I || p === L) return false
  if (p === B && last) return false
  return true
}

/** ALLOWED[(prev + 1) * 2 * NTAGS + last * NTAGS + tag]: the BILOU constraint as a table. */
export const ALLOWED = new Uint8Array((NTAGS + 1) * 2 * NTAGS)
for (let prev = -1; prev < NTAGS; prev++)
  for (let last = 0; last < 2; last++)
    for (let tag = 0; tag < NTAGS; tag++) ALLOWED[(prev + 1) * 2 * NTAGS + last * NTAGS + tag] = allowedSlow(prev, tag, last === 1) ? 1 : 0

/**
 * The same table as lists, ascending: ALLOWED_TAGS[(prev + 1) * 2 + last]. Only these tags can
 * be chosen, so only their scores are needed: 11 of the 21 outside an entity, 1 or 2 inside one.
 */
export const ALLOWED_TAGS: Uint8Array[] = []
for (let k = 0; k < (NTAGS + 1) * 2; k++) {
  const tags: number[] = []
  for (let tag = 0; tag < NTAGS; tag++) if (ALLOWED[k * NTAGS + tag]) tags.push(tag)
  ALLOWED_TAGS.push(Uint8Array.from(tags))
}
