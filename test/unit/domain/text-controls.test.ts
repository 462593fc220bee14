// The characters no stored text may hold: which ones, where the refusal says they stand, and how
// the output side (XML writers, log lines) treats text that holds them anyway.
import { describe, expect, it } from 'vitest';
import { parseStory } from '../../../src/domain/story/parse-story.ts';
import { escapeForLog, findForbiddenChar, forbiddenCharProblem, revealForbiddenChars } from '../../../src/domain/text-controls.ts';
import { faultFields, successStory } from './story-fixtures.ts';

const FORBIDDEN = [
  '\u0000',
  '\u0007',
  '\u000b',
  '\u000c',
  '\u001f',
  '\u007f',
  '\u0080',
  '\u0085',
  '\u009f',
  '\ud800',
  '\udbff',
  '\udc00',
  '\ufdd0',
  '\ufdef',
  '\ufffe',
  '\uffff',
  '\u{1fffe}',
  '\u{8ffff}',
  '\u{10fffe}',
  '\u{10ffff}',
];
const ALLOWED = ['a', ' ', 'é', '\u00a0', '\ufdcf', '\ufdf0', '\ufffd', '😀', '\u{1fffd}', '\u{10fffd}'];

describe('which characters no stored text may hold', () => {
  it.each(FORBIDDEN.map((char) => [char.codePointAt(0)?.toString(16), char]))('U+%s is refused in any text', (_name, char) => {
    expect(findForbiddenChar(`ok ${char} ok`)?.codePoint).toBe(char.codePointAt(0));
    expect(revealForbiddenChars(`ok${char}ok`)).toMatch(/^ok\{U\+[0-9A-F]{4,6}\}ok$/);
  });

  it.each(ALLOWED.map((char) => [char.codePointAt(0)?.toString(16), char]))('U+%s is ordinary text', (_name, char) => {
    expect(findForbiddenChar(`ok ${char} ok`, 'single-line')).toBeUndefined();
  });

  it('tab, line feed and carriage return are text in multi-line fields and refused in one-line fields', () => {
    expect(findForbiddenChar('a\tb\nc\r\n')).toBeUndefined();
    for (const char of ['\t', '\n', '\r']) expect(findForbiddenChar(`a${char}b`, 'single-line')?.codePoint).toBe(char.codePointAt(0));
    expect(revealForbiddenChars('a\tb\nc\r\n')).toBe('a\tb\nc\r\n');
  });

  it('the refusal says which character stands where, in code points, counting lines', () => {
    expect(forbiddenCharProblem('😀😀\u0007')).toMatch(/^Holds U\+0007 \(a control character\) at character 3;/);
    expect(forbiddenCharProblem('first\nsec\ufffe')).toMatch(/^Holds U\+FFFE \(a Unicode non-character\) at line 2, character 4;/);
    expect(forbiddenCharProblem('x\udc00')).toMatch(/half of a UTF-16 surrogate pair/);
    expect(forbiddenCharProblem('plain text')).toBeUndefined();
  });
});

describe('a log line', () => {
  it('is one physical line whatever it quotes: line breaks, controls, separators and bidi overrides are escaped', () => {
    const line = escapeForLog('client "x\n{"forged":true}\r\u2028\u2029\u202e\u001b[31m"');
    expect(line).toBe('client "x\\n{"forged":true}\\r\\u{2028}\\u{2029}\\u{202e}\\u{1b}[31m"');
    expect(line.split(/[\n\r\u2028\u2029]/)).toHaveLength(1);
  });
});

describe('story front matter', () => {
  it('a control character spelled as a YAML escape is refused naming the key, though the markdown holds none', () => {
    const markdown = successStory({
      frontMatter: 'title: "Retries made two rows\\a"\ndate: 2026-10-14\ntags: [dynamodb]\ntype: success\nagent: "claude\\u0085"',
    });
    expect(findForbiddenChar(markdown)).toBeUndefined();
    const fields = faultFields(() => parseStory(markdown));
    expect(fields['front_matter.title']).toMatch(/U\+0007/);
    expect(fields['front_matter.agent']).toMatch(/U\+0085/);
  });

  it('one-line keys refuse a line break spelled in YAML; image_alt is prose and may hold one', () => {
    const base = 'title: Retries made two rows\ndate: 2026-10-14\ntags: [dynamodb]\ntype: success\nimage: "https://example.com/a.png"';
    const fields = faultFields(() =>
      parseStory(successStory({ frontMatter: `${base}\nimage_alt: "two\\nlines"\nmodel: "a\\nb"\nstack: ["x\\ty"]` })),
    );
    expect(Object.keys(fields).sort()).toEqual(['front_matter.model', 'front_matter.stack']);
    // A URL parser drops a line break silently, so `image` refuses it here, before the URL rule.
    const image = faultFields(() => parseStory(successStory({ frontMatter: `${base.replace('a.png', 'a\\n.png')}\nimage_alt: one line` })));
    expect(image['front_matter.image']).toMatch(/U\+000A/);
  });
});
