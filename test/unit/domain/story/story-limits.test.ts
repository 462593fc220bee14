import { describe, expect, it } from 'vitest';
import { parseStory } from '../../../../src/domain/story/parse-story.ts';
import { MAX_STORY_MARKDOWN_BYTES, MAX_TITLE_CHARS } from '../../../../src/domain/story/story-limits.ts';
import { storyMarkdownFromParts } from '../../../../src/domain/story/story-parts.ts';
import { faultFields, readStoryFixture, refusal, successStory } from '../story-fixtures.ts';

function withTitle(title: string): string {
  return successStory({ frontMatter: `title: "${title}"\ndate: 2026-10-14\ntags: [a]\ntype: success` }).replace(
    '# Retries made two rows',
    `# ${title}`,
  );
}

const PARTS = { title: 'T', date: '2026-10-14', narrative: 'N', tags: ['a'], type: 'fail', what_i_tried: '1. x', what_i_need: 'y' };

describe('size limits', () => {
  it('are 64 KiB of markdown and 140 title characters', () => {
    expect(MAX_STORY_MARKDOWN_BYTES).toBe(65536);
    expect(MAX_TITLE_CHARS).toBe(140);
  });

  it('refuse markdown over 64 KiB with payload_too_large, before parsing', () => {
    const huge = 'x'.repeat(MAX_STORY_MARKDOWN_BYTES + 1);
    const error = refusal(() => parseStory(huge), 'payload_too_large');
    expect(error.details).toMatchObject({ field: 'markdown', bytes: MAX_STORY_MARKDOWN_BYTES + 1, limit: MAX_STORY_MARKDOWN_BYTES });
    expect(error.httpStatus).toBe(413);
  });

  it('count UTF-8 bytes, not characters', () => {
    const story = readStoryFixture('success-with-check');
    const padding = 'é'.repeat(Math.ceil((MAX_STORY_MARKDOWN_BYTES - story.length) / 2) + 1);
    expect(padding.length + story.length).toBeLessThan(MAX_STORY_MARKDOWN_BYTES);
    refusal(() => parseStory(story + padding), 'payload_too_large');
  });

  it('accept a story of exactly 64 KiB', () => {
    const story = readStoryFixture('success-with-check');
    const room = MAX_STORY_MARKDOWN_BYTES - Buffer.byteLength(story) - 2;
    const paragraph = `${'word '.repeat(199)}word\n\n`;
    const prose = paragraph.repeat(Math.floor(room / paragraph.length));
    const padded = `${story}\n${prose}${'x'.repeat(room - prose.length)}\n`;
    expect(Buffer.byteLength(padded)).toBe(MAX_STORY_MARKDOWN_BYTES);
    expect(parseStory(padded).frontMatter.title).toMatch(/^My counter/);
  });

  it('refuse a 141-character title with payload_too_large, even when the story has other faults', () => {
    const markdown = withTitle('t'.repeat(141)).replace('type: success', 'type: nonsense');
    const error = refusal(() => parseStory(markdown), 'payload_too_large');
    expect(error.details).toMatchObject({ field: 'title', chars: 141, limit: 140 });
  });

  it('accept a 140-character title', () => {
    expect(parseStory(withTitle('t'.repeat(140))).frontMatter.title).toHaveLength(140);
  });

  it('count title characters as code points, so 140 emoji fit', () => {
    expect(() => parseStory(withTitle('🚀'.repeat(140)))).not.toThrow();
  });

  it('refuse an over-long title or oversized parts before assembling them', () => {
    refusal(() => storyMarkdownFromParts({ ...PARTS, title: 'x'.repeat(141) }), 'payload_too_large');
    refusal(() => storyMarkdownFromParts({ ...PARTS, narrative: 'x'.repeat(MAX_STORY_MARKDOWN_BYTES + 1) }), 'payload_too_large');
  });

  it('do not turn a short title into a size error', () => {
    expect(Object.keys(faultFields(() => parseStory(withTitle('ok').replace('# ok', '# other'))))).toEqual(['body.title']);
  });
});
