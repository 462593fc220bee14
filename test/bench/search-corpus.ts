// Synthetic stories for the search-engine bench, made the way real ones look: a title, a summary,
// tags, a stack and a markdown-ish body of a few KB. Deterministic: story i depends only on i, so a
// child process can regenerate any story (to check a result) without keeping the corpus in memory.
// Words are drawn from a Zipf-like distribution over a pseudo-word vocabulary, so common words hit
// many stories and the long tail hits few.

export interface SyntheticStory {
  id: string;
  title: string;
  summary: string;
  tags: string;
  stack: string;
  body: string;
}

const VOCABULARY_SIZE = 40_000;
const SYLLABLES = ['ka', 'lo', 'mi', 'ren', 'tas', 'vu', 'dor', 'pel', 'qui', 'sa', 'ne', 'bro', 'fi', 'gu', 'hal', 'jor', 'wen', 'zi'];
const TAGS = ['aws', 'lambda', 'dynamodb', 'node', 'typescript', 'python', 'rust', 'go', 'docker', 'kubernetes', 'postgres', 'redis'];
const STACK = ['node-22', 'python-3.12', 'rust-1.80', 'go-1.23', 'deno-2', 'bun-1', 'java-21', 'dotnet-8'];
/** A word no other story has, planted once in the body of every 1000th story: the body-only probe. */
export const bodyOnlyWord = (i: number): string => `bodyprobe${i}x`;

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Word of rank r (0 = most common): three or four syllables from r's digits, unique per rank. */
export function wordOfRank(rank: number): string {
  let word = '';
  let n = rank + SYLLABLES.length * SYLLABLES.length; // at least three syllables
  while (n > 0) {
    word += SYLLABLES[n % SYLLABLES.length];
    n = Math.floor(n / SYLLABLES.length);
  }
  return word;
}

// Zipf with exponent ~1: the cumulative weights of 1/(r+1), searched by bisection.
const CUMULATIVE = (() => {
  const weights = new Float64Array(VOCABULARY_SIZE);
  let total = 0;
  for (let r = 0; r < VOCABULARY_SIZE; r += 1) {
    total += 1 / (r + 1);
    weights[r] = total;
  }
  return weights.map((w) => w / total);
})();

function zipfRank(random: () => number): number {
  const x = random();
  let lo = 0;
  let hi = VOCABULARY_SIZE - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((CUMULATIVE[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const words = (random: () => number, count: number): string => Array.from({ length: count }, () => wordOfRank(zipfRank(random))).join(' ');

const pick = <T>(random: () => number, from: readonly T[]): T => from[Math.floor(random() * from.length)] as T;

/** Story i of the corpus; the body is ~bodyBytes long. */
export function storyAt(i: number, bodyBytes = 3000): SyntheticStory {
  const random = mulberry32(i * 2654435761 + 1);
  const paragraphs: string[] = [];
  let length = 0;
  while (length < bodyBytes) {
    const paragraph = `${words(random, 40 + Math.floor(random() * 40))}.`;
    paragraphs.push(random() < 0.2 ? `\`\`\`\n${words(random, 12)}\n\`\`\`` : paragraph);
    length += paragraph.length + 2;
  }
  if (i % 1000 === 7) paragraphs.splice(1, 0, bodyOnlyWord(i));
  const tagCount = 1 + Math.floor(random() * 3);
  return {
    id: `story-${i}`,
    title: words(random, 4 + Math.floor(random() * 5)),
    summary: words(random, 15 + Math.floor(random() * 20)),
    tags: Array.from({ length: tagCount }, () => pick(random, TAGS)).join(' '),
    stack: pick(random, STACK),
    body: paragraphs.join('\n\n'),
  };
}
