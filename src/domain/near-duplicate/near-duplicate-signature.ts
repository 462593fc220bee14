// What makes two stories near-duplicates (design.md#spam-waves): a MinHash signature of the story's body
// (title, narrative and sections; the front matter is left out, a spammer changes the date and
// the tags first) read as 3-word shingles, after folding what a spammer varies between copies —
// Unicode compatibility forms (fullwidth letters, look-alike spaces), case, accents, invisible
// marks, punctuation and whitespace. Cut into LSH bands: two stories whose shingles overlap by
// Jaccard 0.8 share at least one band 99.5 % of the time, which is what lets a lookup by band key
// in the store find the original. Written here rather than taken from a package: BENCHMARKS.md §13.

/** Bump when the text folding, the shingles or the hashing change: old band items then stop matching. */
export const SIGNATURE_VERSION = 'v1';
const BANDS = 10;
const ROWS = 4;
const HASHES = BANDS * ROWS;
const SHINGLE_WORDS = 3;
/** Estimated Jaccard similarity from which a candidate is a near-duplicate. */
export const NEAR_DUPLICATE_SIMILARITY = 0.6;

const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu;
const MARKS = /\p{M}/gu;
const NOT_WORD = /[^\p{L}\p{N}]+/u;

/** The story's words as a reader reads them, whatever characters spell them. */
export function foldedWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .normalize('NFKD')
    .replace(MARKS, '')
    .replace(INVISIBLE, '')
    .split(NOT_WORD)
    .filter((word) => word.length > 0);
}

/** The body a signature is taken of: the markdown after its front matter. */
export function storyBody(markdown: string): string {
  const match = /^---\n[\s\S]*?\n---\n/.exec(markdown);
  return match === null ? markdown : markdown.slice(match[0].length);
}

// One 32-bit hash of a shingle (FNV-1a), then one cheap independent-looking hash per signature
// slot (murmur3's finaliser over the hash xor a per-slot seed): standard MinHash.
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function mix(value: number): number {
  let hash = value;
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}

const SEEDS = Uint32Array.from({ length: HASHES }, (_, slot) => mix(slot + 0x9e3779b9));

/** A shingle's hash from its words' hashes, order-sensitive ("a b c" is not "c b a"). */
function shingleHash(words: Uint32Array, start: number): number {
  let hash = 0;
  for (let offset = 0; offset < SHINGLE_WORDS; offset += 1) hash = mix(Math.imul(hash, 31) ^ (words[start + offset] ?? 0));
  return hash;
}

/** The MinHash signature of a text: HASHES minima, one per seeded hash of its shingles. */
export function signatureOf(text: string): Uint32Array {
  const words = Uint32Array.from(foldedWords(text), fnv1a);
  const signature = new Uint32Array(HASHES).fill(0xffffffff);
  const shingles = new Set<number>();
  for (let start = 0; start + SHINGLE_WORDS <= Math.max(SHINGLE_WORDS, words.length); start += 1) shingles.add(shingleHash(words, start));
  for (const shingle of shingles) {
    for (let slot = 0; slot < HASHES; slot += 1) {
      const value = mix(shingle ^ (SEEDS[slot] as number));
      if (value < (signature[slot] as number)) signature[slot] = value;
    }
  }
  return signature;
}

/** The signature as stored: 8 hex digits per slot. */
export const signatureHex = (signature: Uint32Array): string =>
  Array.from(signature, (value) => value.toString(16).padStart(8, '0')).join('');

/** A stored signature back, or undefined when it is not one of this version's. */
export function signatureFromHex(hex: unknown): Uint32Array | undefined {
  if (typeof hex !== 'string' || hex.length !== HASHES * 8 || !/^[0-9a-f]+$/.test(hex)) return undefined;
  return Uint32Array.from({ length: HASHES }, (_, slot) => Number.parseInt(hex.slice(slot * 8, slot * 8 + 8), 16));
}

/** The share of slots two signatures agree on: an estimate of their shingles' Jaccard similarity. */
export function estimatedSimilarity(a: Uint32Array, b: Uint32Array): number {
  let same = 0;
  for (let slot = 0; slot < HASHES; slot += 1) if (a[slot] === b[slot]) same += 1;
  return same / HASHES;
}

/** The LSH band keys of a signature: band index and its rows, so equal rows in another band never collide. */
export function bandsOf(signature: Uint32Array): string[] {
  return Array.from(
    { length: BANDS },
    (_, band) => `${SIGNATURE_VERSION}#${band}#${signatureHex(signature.subarray(band * ROWS, band * ROWS + ROWS))}`,
  );
}
