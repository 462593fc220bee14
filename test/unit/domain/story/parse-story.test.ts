import { describe, expect, it } from 'vitest';
import { contentHash } from '../../../../src/domain/story/content-hash.ts';
import { normalizeMarkdown } from '../../../../src/domain/story/normalize-markdown.ts';
import { parseStory } from '../../../../src/domain/story/parse-story.ts';
import { serializeStory } from '../../../../src/domain/story/serialize-story.ts';
import { faultFields, readStoryFixture, successStory } from '../story-fixtures.ts';

describe('parseStory on the shared fixtures', () => {
  it('reads a success story with a check: front matter, narrative, both sections, has_check and summary', () => {
    const story = parseStory(readStoryFixture('success-with-check'));
    expect(story.frontMatter).toEqual({
      title: 'My counter doubled when two agents reported at once',
      date: '2026-10-14',
      tags: ['dynamodb', 'idempotency', 'mcp'],
      type: 'success',
      status: 'n/a',
      reproducible: true,
      visibility: 'public',
      stack: ['typescript', 'aws-lambda', 'dynamodb'],
    });
    expect(story.hasCheck).toBe(true);
    expect(Object.keys(story.sections)).toEqual(['check', 'reproduce']);
    expect(story.sections.check).toMatch(/^Applies if: a tool/);
    expect(story.sections.check).toMatch(/Doesn't have it: every increment carries a condition on what it checks\.$/);
    expect(story.sections.reproduce).toMatch(/^Prerequisites: a DynamoDB table/);
    expect(story.sections.reproduce).toMatch(/Verify: the counter rose by exactly one and the list holds the caller once\.$/);
    expect(story.narrative).toMatch(/^I keep a small tool server/);
    expect(story.narrative).toMatch(/returns the first\nanswer\.$/);
    expect(story.summary).toBe(
      'I keep a small tool server that agents call to record results. One evening two agents reported the same run at the same second and the total went up by two. The code read the list of reporters, saw no entry for the caller, and then wrote. Both calls read before either wrote.',
    );
  });

  it('reads an open fail story: what I tried, what I need, no check, reproducible false', () => {
    const story = parseStory(readStoryFixture('fail-open'));
    expect(story.frontMatter.type).toBe('fail');
    expect(story.frontMatter.status).toBe('open');
    expect(story.frontMatter.reproducible).toBe(false);
    expect(story.hasCheck).toBe(false);
    expect(story.sections.whatITried).toMatch(/^1\. Installed fonts-dejavu — no change\.\n2\./);
    expect(story.sections.whatINeed).toMatch(/^Which package or setting/);
    expect(story.sections.reproduce).toBeUndefined();
    expect(story.summary).toBe('Screenshots from our CI render every label as boxes. The same page looks fine on a laptop.');
  });

  it('reads a quoted unicode title and defaults stack to an empty list and visibility to public', () => {
    const story = parseStory(readStoryFixture('unicode-long-title'));
    expect(story.frontMatter.title).toBe(
      'Ünïcode, emoji 🚀 and a title that keeps going well past sixty characters: does the slug survive?',
    );
    expect(story.frontMatter.stack).toEqual([]);
    expect(story.frontMatter.visibility).toBe('public');
  });

  it('keeps the normalised markdown and its content hash on the parsed story', () => {
    const markdown = readStoryFixture('success-with-check');
    const story = parseStory(markdown.replace(/\n/g, '\r\n'));
    expect(story.markdown).toBe(normalizeMarkdown(markdown));
    expect(story.contentHash).toBe(contentHash(serializeStory(story)));
  });

  it('refuses invalid-no-title.md naming both the missing title and the missing Reproduce this section', () => {
    const fields = faultFields(() => parseStory(readStoryFixture('invalid-no-title')));
    expect(fields['front_matter.title']).toMatch(/title:/);
    expect(fields['section.reproduce']).toMatch(/## Reproduce this/);
    expect(Object.keys(fields).sort()).toEqual(['body.title', 'front_matter.title', 'section.reproduce']);
  });

  it('puts every fault in the message too, for surfaces that show only the message', () => {
    let message = '';
    try {
      parseStory(readStoryFixture('invalid-no-title'));
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^The story has 3 problems/);
    expect(message).toContain('front_matter.title:');
    expect(message).toContain('section.reproduce:');
  });
});

describe('parseStory finds sections the way a markdown reader does', () => {
  it('does not treat a "## Reproduce this" line inside a fenced code block as a section', () => {
    const body = [
      '# Retries made two rows',
      '',
      'Here is the template I used:',
      '',
      '```markdown',
      '## Reproduce this',
      'Prerequisites: x',
      '```',
    ].join('\n');
    const fields = faultFields(() => parseStory(successStory({ body })));
    expect(fields['section.reproduce']).toMatch(/needs a `## Reproduce this` section/);
  });

  it('keeps a fenced code block with a "## " line inside the section it belongs to', () => {
    const markdown = successStory().replace('Verify: one row.', 'Verify: one row.\n\n```\n## What I need\n```');
    const story = parseStory(markdown);
    expect(story.sections.reproduce).toMatch(/```\n## What I need\n```$/);
    expect(story.sections.whatINeed).toBeUndefined();
  });

  it('recognises section headings regardless of case, spacing and a trailing colon', () => {
    const story = parseStory(successStory().replace('## Reproduce this', '##   reproduce THIS:'));
    expect(story.sections.reproduce).toMatch(/^Prerequisites:/);
  });

  it('keeps an unknown "## " heading and its text inside the part it follows', () => {
    const story = parseStory(successStory().replace('## Reproduce this', '## Background\n\nMore.\n\n## Reproduce this'));
    expect(story.narrative).toBe('I retried a put after a timeout and got two rows.\n\n## Background\n\nMore.');
  });

  it('accepts labels written in bold or as list items', () => {
    const reproduce = '**Prerequisites:** a table.\n- Your agent will need from you: a name.\n\n**Steps:**\n1. Put.\n\n> Verify: one row.';
    const story = parseStory(successStory().replace(/## Reproduce this[\s\S]*$/, `## Reproduce this\n\n${reproduce}`));
    expect(story.sections.reproduce).toBe(reproduce);
  });
});
