import { describe, expect, it } from 'vitest';
import { contentHash } from '../../../../src/domain/story/content-hash.ts';
import { parseStory } from '../../../../src/domain/story/parse-story.ts';
import { parseStoryParts } from '../../../../src/domain/story/parse-story-parts.ts';
import { type StoryParts, storyMarkdownFromParts } from '../../../../src/domain/story/story-parts.ts';
import { faultFields, readStoryFixture } from '../story-fixtures.ts';

function fixtureParts(): StoryParts {
  const story = parseStory(readStoryFixture('success-with-check'));
  return {
    title: story.frontMatter.title,
    date: story.frontMatter.date,
    tags: story.frontMatter.tags,
    type: 'success',
    status: 'n/a',
    reproducible: true,
    stack: story.frontMatter.stack,
    narrative: story.narrative,
    check: story.sections.check ?? '',
    reproduce: story.sections.reproduce ?? '',
  };
}

const FAIL_PARTS: StoryParts = {
  title: 'Fonts are boxes',
  date: '2026-11-02',
  tags: ['fonts', 'ci'],
  type: 'fail',
  status: 'open',
  narrative: 'CI renders boxes.',
  what_i_tried: '1. Installed fonts.',
  what_i_need: 'The right package.',
};

const FAIL_MARKDOWN = [
  '---',
  'title: Fonts are boxes',
  'date: 2026-11-02',
  'tags: [fonts, ci]',
  'type: fail',
  'status: open',
  '---',
  '',
  '# Fonts are boxes',
  '',
  'CI renders boxes.',
  '',
  '## What I tried',
  '',
  '1. Installed fonts.',
  '',
  '## What I need',
  '',
  'The right package.',
  '',
].join('\n');

describe('storyMarkdownFromParts', () => {
  it('assembles the parts of success-with-check.md into that very file', () => {
    expect(storyMarkdownFromParts(fixtureParts())).toBe(readStoryFixture('success-with-check'));
  });

  it('gives publishing the parts the same content hash as publishing the equivalent markdown', () => {
    expect(contentHash(storyMarkdownFromParts(fixtureParts()))).toBe(contentHash(readStoryFixture('success-with-check')));
    expect(contentHash(storyMarkdownFromParts(FAIL_PARTS))).toBe(contentHash(FAIL_MARKDOWN));
  });

  it('gives the same hash for parts sent with CRLF line endings or NFD text', () => {
    const crlf = { ...FAIL_PARTS, narrative: 'Café renders boxes.\r\nTwice.'.normalize('NFD') };
    const lf = { ...FAIL_PARTS, narrative: 'Café renders boxes.\nTwice.' };
    expect(contentHash(storyMarkdownFromParts(crlf))).toBe(contentHash(storyMarkdownFromParts(lf)));
  });

  it('writes front matter keys in a stable order whatever order the parts come in', () => {
    const reversed = Object.fromEntries(Object.entries(FAIL_PARTS).reverse()) as unknown as StoryParts;
    expect(storyMarkdownFromParts(reversed)).toBe(FAIL_MARKDOWN);
  });

  it('writes only the front matter keys given, so defaults stay implicit as a person would leave them', () => {
    const markdown = storyMarkdownFromParts(FAIL_PARTS);
    expect(markdown).not.toMatch(/visibility:|stack:|reproducible:/);
  });

  it('orders sections as the design does: check, reproduce, what I tried, what I need', () => {
    const markdown = storyMarkdownFromParts({ ...fixtureParts(), what_i_need: 'More.', what_i_tried: '1. A.' });
    const order = ['## Check if this applies to you', '## Reproduce this', '## What I tried', '## What I need'].map((h) =>
      markdown.indexOf(h),
    );
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(order.every((index) => index > 0)).toBe(true);
  });

  it('quotes a title YAML would misread and keeps the heading plain', () => {
    const markdown = storyMarkdownFromParts({ ...FAIL_PARTS, title: 'Ünïcode: does it work? #1' });
    expect(markdown).toContain('title: "Ünïcode: does it work? #1"\n');
    expect(markdown).toContain('\n# Ünïcode: does it work? #1\n');
    expect(parseStory(markdown).frontMatter.title).toBe('Ünïcode: does it work? #1');
  });

  it('drops a leading heading that repeats the title or the section name', () => {
    const markdown = storyMarkdownFromParts({
      ...FAIL_PARTS,
      narrative: '# Fonts are boxes\n\nCI renders boxes.',
      what_i_tried: '## What I tried\n\n1. Installed fonts.',
    });
    expect(markdown).toBe(FAIL_MARKDOWN);
  });

  it('refuses a part that contains another section heading, naming the part', () => {
    const fields = faultFields(() => storyMarkdownFromParts({ ...FAIL_PARTS, narrative: 'Text.\n\n## What I need\n\nHelp.' }));
    expect(fields.narrative).toMatch(/pass that text as the `what_i_need` part/);
  });
});

describe('parseStoryParts', () => {
  it('parses valid parts into the same story as the equivalent markdown', () => {
    expect(parseStoryParts(FAIL_PARTS)).toEqual(parseStory(FAIL_MARKDOWN));
  });

  it('names faults by part name, every one at once', () => {
    const fields = faultFields(() =>
      parseStoryParts({ ...FAIL_PARTS, title: '', tags: ['Bad'], type: 'success', what_i_tried: undefined, what_i_need: undefined }),
    );
    expect(Object.keys(fields).sort()).toEqual(['reproduce', 'tags', 'title']);
  });

  it('names an unknown type by its part name and lists the allowed values', () => {
    expect(faultFields(() => parseStoryParts({ ...FAIL_PARTS, type: 'meh' })).type).toBe(
      '`meh` is not a valid `type`; use one of: success, fail.',
    );
  });

  it('names an empty narrative and an empty section part', () => {
    const fields = faultFields(() => parseStoryParts({ ...FAIL_PARTS, narrative: '  ', what_i_need: '\n' }));
    expect(Object.keys(fields).sort()).toEqual(['narrative', 'what_i_need']);
  });
});
