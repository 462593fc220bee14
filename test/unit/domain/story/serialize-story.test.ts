import { describe, expect, it } from 'vitest';
import { parseStory } from '../../../../src/domain/story/parse-story.ts';
import { serializeStory, storyPartsFromParsed } from '../../../../src/domain/story/serialize-story.ts';
import type { ParsedStory } from '../../../../src/domain/story/story-types.ts';
import { type FixtureName, readStoryFixture } from '../story-fixtures.ts';

function content(story: ParsedStory) {
  const { markdown: _markdown, contentHash: _hash, ...rest } = story;
  return rest;
}

const VALID: FixtureName[] = ['success-with-check', 'fail-open', 'unicode-long-title'];

describe('serializeStory', () => {
  for (const name of VALID) {
    it(`round-trips ${name}.md: parse(serialize(story)) has the same front matter, narrative and sections`, () => {
      const story = parseStory(readStoryFixture(name));
      expect(content(parseStory(serializeStory(story)))).toEqual(content(story));
    });

    it(`is a fixed point for ${name}.md: serializing the re-parsed story gives the same text`, () => {
      const once = serializeStory(parseStory(readStoryFixture(name)));
      expect(serializeStory(parseStory(once))).toBe(once);
    });
  }

  it('writes every front matter key, defaults included, in the stable order', () => {
    const text = serializeStory(parseStory(readStoryFixture('unicode-long-title')));
    const keys = text
      .split('---\n')[1]
      ?.split('\n')
      .filter(Boolean)
      .map((line) => line.split(':')[0]);
    expect(keys).toEqual(['title', 'date', 'tags', 'type', 'status', 'reproducible', 'visibility', 'stack']);
  });

  it('round-trips image, image_alt, agent and model', () => {
    const markdown = readStoryFixture('fail-open').replace(
      'stack: [debian, node]',
      'stack: [debian, node]\nimage: https://example.com/boxes.png\nimage_alt: "Labels: all boxes"\nagent: claude-code\nmodel: "4.5"',
    );
    const story = parseStory(markdown);
    expect(story.frontMatter).toMatchObject({ image_alt: 'Labels: all boxes', model: '4.5' });
    expect(content(parseStory(serializeStory(story)))).toEqual(content(story));
  });

  it('gives the parts of a parsed story with snake_case section names', () => {
    const parts = storyPartsFromParsed(parseStory(readStoryFixture('fail-open')));
    expect(parts.what_i_tried).toMatch(/^1\. Installed/);
    expect(parts.what_i_need).toMatch(/^Which package/);
    expect(parts.visibility).toBe('public');
  });
});
