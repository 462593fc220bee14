// The "needs reproducers" rules (design.md#feeds), pure: which stories are candidates, and the rotated
// order — different first stories for different viewers and hours, a permutation of the
// candidates (a page-through reaches each once), every candidate first for someone, show more /
// show less ranking before the permutation.
import { describe, expect, it } from 'vitest';
import { rankByTally } from '../../../../src/app/feeds/feed-ranking.ts';
import type { FeedStory } from '../../../../src/app/feeds/feed-stories.ts';
import { needsReproducers, ROTATION_SLOT_MS, rotate, rotationSlot } from '../../../../src/app/feeds/needs-reproducers.ts';
import { type FeedTally, zeroTally } from '../../../../src/store/story/feed-tally-items.ts';
import type { StoryMeta } from '../../../../src/store/story/story-items.ts';

const meta = (slug: string, changes: Partial<StoryMeta> = {}): StoryMeta =>
  ({
    slug,
    type: 'success',
    status: 'n/a',
    reproducible: true,
    counts: { worked: 0, partial: 0, failed: 0, has_problem: 0, no_problem: 0 },
    ...changes,
  }) as StoryMeta;

const story = (slug: string): FeedStory => ({ meta: meta(slug), post: `at://did:plc:x/app.bsky.feed.post/${slug}` });
const candidates = Array.from({ length: 8 }, (_, index) => story(`2026-12-01-story-${index}`));
const slugs = (stories: readonly FeedStory[]): string[] => stories.map((entry) => entry.meta.slug);
const none = (): FeedTally => zeroTally;

describe('who needs reproducers', () => {
  it.each([
    ['an open fail story', { type: 'fail', status: 'open', reproducible: false }, true],
    ['a fail story that is not open', { type: 'fail', status: 'n/a' }, false],
    ['a reproducible success nobody reproduced', {}, true],
    ['one with two reproductions', { counts: { worked: 1, partial: 0, failed: 1, has_problem: 0, no_problem: 0 } }, true],
    ['one with three reproductions', { counts: { worked: 1, partial: 1, failed: 1, has_problem: 0, no_problem: 0 } }, false],
    ['checks are no reproductions', { counts: { worked: 0, partial: 0, failed: 0, has_problem: 5, no_problem: 5 } }, true],
    ['a success that is not reproducible', { reproducible: false }, false],
  ] as const)('%s: %s', (_name, changes, expected) => {
    expect(needsReproducers(meta('2026-12-01-x', changes as Partial<StoryMeta>))).toBe(expected);
  });
});

describe('the rotation', () => {
  it('two viewers start on different stories in the same hour', () => {
    const slot = rotationSlot(Date.UTC(2026, 11, 1, 12));
    const alice = rotate(candidates, 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa', slot, none);
    const bob = rotate(candidates, 'did:plc:bbbbbbbbbbbbbbbbbbbbbbbb', slot, none);
    expect(alice[0]?.meta.slug).not.toBe(bob[0]?.meta.slug);
  });

  it('is stable for one viewer within the hour and changes the next hour', () => {
    const viewer = 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa';
    const start = Date.UTC(2026, 11, 1, 12);
    const now = slugs(rotate(candidates, viewer, rotationSlot(start), none));
    expect(slugs(rotate(candidates, viewer, rotationSlot(start + ROTATION_SLOT_MS - 1), none))).toEqual(now);
    expect(slugs(rotate(candidates, viewer, rotationSlot(start + ROTATION_SLOT_MS), none))).not.toEqual(now);
  });

  it('is a permutation of the candidates, so paging through it reaches each exactly once', () => {
    const order = rotate(candidates, 'did:plc:aaaaaaaaaaaaaaaaaaaaaaaa', 7, none);
    expect([...slugs(order)].sort()).toEqual([...slugs(candidates)].sort());
  });

  it('puts every candidate first for some viewer: agents spread over all of them', () => {
    const firsts = new Set<string>();
    for (let index = 0; index < 200; index += 1) firsts.add(rotate(candidates, `did:plc:viewer${index}`, 1, none)[0]?.meta.slug as string);
    expect([...firsts].sort()).toEqual([...slugs(candidates)].sort());
  });

  it('ranks by show more / show less first: liked stories lead, disliked ones trail, for every viewer', () => {
    const liked = candidates[5] as FeedStory;
    const disliked = candidates[2] as FeedStory;
    const tally = (entry: FeedStory): FeedTally =>
      entry === liked ? { more: 2, less: 1 } : entry === disliked ? { more: 0, less: 3 } : zeroTally;
    for (const viewer of ['did:plc:one', 'did:plc:two', undefined]) {
      const order = rotate(candidates, viewer, 3, tally);
      expect(order[0]).toBe(liked);
      expect(order.at(-1)).toBe(disliked);
    }
  });
});

describe('ranking a chronological page', () => {
  it('moves positive scores up and negative ones down, keeping the feed order within each group', () => {
    const page = ['a', 'b', 'c', 'd', 'e'];
    const tallies: Record<string, FeedTally> = { b: { more: 0, less: 1 }, d: { more: 3, less: 1 }, e: { more: 1, less: 0 } };
    expect(rankByTally(page, (item) => tallies[item] ?? zeroTally)).toEqual(['d', 'e', 'a', 'c', 'b']);
  });
});
