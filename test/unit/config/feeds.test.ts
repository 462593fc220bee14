// The feed settings (design.md#feeds): which tags get a feed, and where viewers' signing keys are looked up.
import { describe, expect, it } from 'vitest';
import { readConfig } from '../../../src/config.ts';

describe('LOREBOOK_FEED_TAGS', () => {
  it('defaults to typescript and dynamodb; a list is read in order, spaces trimmed; empty means no tag feeds', () => {
    expect(readConfig({}).feedGenerator.tags).toEqual(['typescript', 'dynamodb']);
    expect(readConfig({ LOREBOOK_FEED_TAGS: ' rust , aws-lambda,node ' }).feedGenerator.tags).toEqual(['rust', 'aws-lambda', 'node']);
    expect(readConfig({ LOREBOOK_FEED_TAGS: '' }).feedGenerator.tags).toEqual([]);
  });

  it.each([
    ['a tag that is not kebab-case', 'TypeScript', 'not a story tag'],
    ['a tag longer than 40 characters', 'a'.repeat(41), 'not a story tag'],
    ['a tag twice', 'rust,rust', 'lists a tag twice'],
    ['more than 20 tags', Array.from({ length: 21 }, (_, index) => `tag-${index}`).join(','), 'at most 20'],
  ])('refuses %s, naming the setting', (_name, value, message) => {
    expect(() => readConfig({ LOREBOOK_FEED_TAGS: value })).toThrow(/LOREBOOK_FEED_TAGS/);
    expect(() => readConfig({ LOREBOOK_FEED_TAGS: value })).toThrow(message);
  });
});

describe("the feed generator's key look-ups", () => {
  it('use the PLC directory and the private-fetch switch sign-in uses', () => {
    expect(readConfig({}).feedGenerator).not.toHaveProperty('plcDirectoryUrl');
    expect(
      readConfig({ LOREBOOK_PLC_DIRECTORY_URL: 'http://127.0.0.1:2582/', LOREBOOK_ALLOW_PRIVATE_FETCH: '1' }).feedGenerator,
    ).toMatchObject({ plcDirectoryUrl: 'http://127.0.0.1:2582', allowPrivateFetch: true });
  });
});
