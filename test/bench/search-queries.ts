// The fixed mixed query set: one common word, two words (AND), a rare word from the long tail, a
// word only in one story's body, a prefix being typed, and a tag. Built from the corpus's own
// vocabulary, so each kind hits many or few stories by construction.
import { bodyOnlyWord, wordOfRank } from './search-corpus.ts';

export interface BenchQuery {
  kind: 'one word' | 'two words AND' | 'rare word' | 'body-only word' | 'prefix' | 'tag';
  text: string;
  /** The id that must come first (the body-only probe). */
  expect?: string;
}

/** The set for a corpus of `size` stories: the body-only probes are those the corpus contains. */
export function QUERY_SET(size: number): BenchQuery[] {
  const probes = [7, 5007, 50_007].filter((i) => i < size);
  return [
    { kind: 'one word', text: wordOfRank(3) },
    { kind: 'one word', text: wordOfRank(60) },
    { kind: 'two words AND', text: `${wordOfRank(10)} ${wordOfRank(200)}` },
    { kind: 'two words AND', text: `${wordOfRank(4)} ${wordOfRank(1500)}` },
    { kind: 'rare word', text: wordOfRank(25_000) },
    { kind: 'rare word', text: wordOfRank(39_000) },
    ...probes.map((i) => ({ kind: 'body-only word' as const, text: bodyOnlyWord(i), expect: `story-${i}` })),
    { kind: 'prefix', text: wordOfRank(120).slice(0, 5) },
    { kind: 'prefix', text: `${wordOfRank(30)} ${wordOfRank(800).slice(0, 4)}` },
    { kind: 'tag', text: 'dynamodb' },
  ];
}
