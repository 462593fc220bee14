// A story as plain text (its document's textContent, docs/design.md#standard-site): the words a reader reads,
// without front matter or markup, one block a paragraph.
import { describe, expect, it } from 'vitest';
import { storyPlainText } from '../../../../src/domain/story/plain-text.ts';
import { successStory } from '../../../helpers/stories.ts';

describe('storyPlainText', () => {
  it('keeps the words of headings, paragraphs, lists, quotes and code; drops front matter, markup and raw HTML; a table stays its rows as written', () => {
    const markdown = [
      '---',
      'title: Plain',
      'tags: [a]',
      '---',
      '# Plain **text**',
      '',
      'A [link](https://example.com) and `code` and ![an image](https://example.com/i.png).',
      '',
      '- one',
      '- *two*',
      '',
      '> quoted',
      '',
      '```sh',
      'npm test',
      '```',
      '',
      '<script>alert(1)</script>',
      '',
      '---',
      '',
      '| a | b |',
      '|---|---|',
      '| c | d |',
    ].join('\n');
    expect(storyPlainText(markdown)).toBe(
      ['Plain text', 'A link and code and an image.', 'one', 'two', 'quoted', 'npm test', '| a | b |\n|---|---|\n| c | d |'].join('\n\n'),
    );
  });

  it('a whole sample story: no front matter, no heading marks, no emphasis or link syntax', () => {
    const text = storyPlainText(successStory());
    expect(text).toContain('My counter doubled when two agents reported at once');
    expect(text).not.toMatch(/^---$|^#+ |\*\*|\]\(/m);
    expect(text).not.toContain('title:');
  });
});
