import { describe, expect, it } from 'vitest';
import { contentHash } from '../../../src/domain/story/content-hash.ts';
import { normalizeMarkdown } from '../../../src/domain/story/normalize-markdown.ts';
import { parseStory } from '../../../src/domain/story/parse-story.ts';
import { serializeStory } from '../../../src/domain/story/serialize-story.ts';
import { readStoryFixture } from './story-fixtures.ts';

describe('normalizeMarkdown', () => {
  it('turns CRLF and lone CR line endings into LF', () => {
    expect(normalizeMarkdown('a\r\nb\rc\n')).toBe('a\nb\nc\n');
  });

  it('composes Unicode to NFC', () => {
    expect(normalizeMarkdown('U\u0308ber\n')).toBe('\u00DCber\n');
  });

  it('strips trailing spaces and tabs on every line but keeps indentation', () => {
    expect(normalizeMarkdown('a  \n\tb\t\n    code   \n')).toBe('a\n\tb\n    code\n');
  });

  it('collapses trailing blank lines to one final newline and adds it when missing', () => {
    expect(normalizeMarkdown('a\n\n\n\n')).toBe('a\n');
    expect(normalizeMarkdown('a')).toBe('a\n');
  });

  it('drops a byte-order mark and leading blank lines', () => {
    expect(normalizeMarkdown('\uFEFF\n\n---\n')).toBe('---\n');
  });

  it('keeps blank lines inside the text', () => {
    expect(normalizeMarkdown('a\n\n\nb\n')).toBe('a\n\n\nb\n');
  });

  it('is idempotent', () => {
    const once = normalizeMarkdown(' x \r\n\r\ny\u0301  \n\n');
    expect(normalizeMarkdown(once)).toBe(once);
  });
});

describe('contentHash', () => {
  const markdown = readStoryFixture('success-with-check');

  it('is the sha256 hex of the normalised markdown', () => {
    expect(contentHash(markdown)).toMatch(/^[0-9a-f]{64}$/);
    expect(contentHash('a\n')).toBe('87428fc522803d31065e7bce3cf03fe475096631e5e07bbd7a0fde60c4cf25c7');
  });

  it('hashes CRLF and LF versions of a story equal', () => {
    expect(contentHash(markdown.replace(/\n/g, '\r\n'))).toBe(contentHash(markdown));
  });

  it('hashes NFD and NFC versions of a story equal', () => {
    const unicode = readStoryFixture('unicode-long-title');
    expect(unicode.normalize('NFD')).not.toBe(unicode.normalize('NFC'));
    expect(contentHash(unicode.normalize('NFD'))).toBe(contentHash(unicode.normalize('NFC')));
  });

  it('hashes a story equal with trailing whitespace or extra final newlines', () => {
    expect(contentHash(`${markdown.replace(/\n/g, '  \n')}\n\n`)).toBe(contentHash(markdown));
  });

  it('hashes different words differently', () => {
    expect(contentHash(markdown.replace('doubled', 'tripled'))).not.toBe(contentHash(markdown));
  });

  it('the parsed story hashes its canonical form: the same whatever line endings were sent', () => {
    expect(parseStory(markdown.replace(/\n/g, '\r\n')).contentHash).toBe(parseStory(markdown).contentHash);
    expect(parseStory(markdown).contentHash).toBe(contentHash(serializeStory(parseStory(markdown))));
  });

  it('the same story with other YAML quoting and blank lines hashes the same; other words do not', () => {
    const reformatted = markdown.replace(/^title: (.*)$/m, 'title: "$1"').replace('## Reproduce this\n', '## Reproduce this\n\n');
    expect(reformatted).not.toBe(markdown);
    expect(parseStory(reformatted).contentHash).toBe(parseStory(markdown).contentHash);
    expect(parseStory(markdown.replace('went up by two', 'went up by three')).contentHash).not.toBe(parseStory(markdown).contentHash);
  });
});
