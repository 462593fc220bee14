import { describe, expect, it } from 'vitest';
import { parseStory } from '../../../../../src/domain/story/parse-story.ts';
import { failStory, faultFields, successStory } from '../../story-fixtures.ts';

const BASE = 'title: Retries made two rows\ndate: 2026-10-14\ntags: [dynamodb]\ntype: success';

function withFrontMatter(lines: string): string {
  return successStory({ frontMatter: lines });
}

function replaceLine(key: string, line: string): string {
  return withFrontMatter(BASE.replace(new RegExp(`^${key}:.*$`, 'm'), line));
}

describe('front matter: required keys', () => {
  it('names a missing date and says how to write one', () => {
    const fields = faultFields(() => parseStory(replaceLine('date', '')));
    expect(fields).toEqual({ 'front_matter.date': expect.stringMatching(/Add `date: YYYY-MM-DD`/) });
  });

  it('names missing tags', () => {
    expect(Object.keys(faultFields(() => parseStory(replaceLine('tags', ''))))).toEqual(['front_matter.tags']);
  });

  it('names a missing type and explains both values', () => {
    const fields = faultFields(() => parseStory(replaceLine('type', '')));
    expect(Object.keys(fields)).toEqual(['front_matter.type']);
    expect(fields['front_matter.type']).toMatch(/type: success.*type: fail/);
  });

  it('treats an empty value (`title:`) as missing', () => {
    const fields = faultFields(() => parseStory(replaceLine('title', 'title:')));
    expect(fields['front_matter.title']).toMatch(/^Add `title:/);
  });

  it('refuses a story with no front matter, naming front_matter', () => {
    const fields = faultFields(() => parseStory('# Retries made two rows\n\nText.\n\n## Reproduce this\n\nSteps:\n'));
    expect(fields.front_matter).toMatch(/no front matter/);
  });

  it('refuses front matter that is never closed', () => {
    const fields = faultFields(() => parseStory(`---\n${BASE}\n\n# Retries made two rows\n`));
    expect(fields).toEqual({ front_matter: expect.stringMatching(/not closed/) });
  });

  it('refuses front matter that is not valid YAML, with the line', () => {
    const fields = faultFields(() => parseStory(withFrontMatter(`${BASE}\nstack: [a, b`)));
    expect(fields.front_matter).toMatch(/not valid YAML \(front matter line \d+/);
  });

  it('refuses a key given twice', () => {
    const fields = faultFields(() => parseStory(withFrontMatter(`${BASE}\ntype: fail`)));
    expect(fields.front_matter).toMatch(/not valid YAML.*unique/);
  });
});

describe('front matter: title', () => {
  it('refuses a title that is not text', () => {
    const fields = faultFields(() => parseStory(replaceLine('title', 'title: [a, b]')));
    expect(fields['front_matter.title']).toMatch(/must be text, not a list/);
  });

  it('refuses a title spread over several lines', () => {
    const fields = faultFields(() => parseStory(replaceLine('title', 'title: |\n  Retries made\n  two rows')));
    expect(fields['front_matter.title']).toMatch(/one line/);
  });

  it('reads a title that looks like a number as text', () => {
    const markdown = successStory({ frontMatter: BASE.replace('Retries made two rows', '404') }).replace(
      '# Retries made two rows',
      '# 404',
    );
    expect(parseStory(markdown).frontMatter.title).toBe('404');
  });
});

describe('front matter: date', () => {
  it('refuses a date not written YYYY-MM-DD', () => {
    const fields = faultFields(() => parseStory(replaceLine('date', 'date: 14/10/2026')));
    expect(fields['front_matter.date']).toMatch(/not a YYYY-MM-DD date/);
  });

  it('refuses a day that does not exist in the calendar', () => {
    expect(faultFields(() => parseStory(replaceLine('date', 'date: 2026-02-30')))['front_matter.date']).toMatch(/real calendar date/);
    expect(faultFields(() => parseStory(replaceLine('date', 'date: 2026-13-01')))['front_matter.date']).toMatch(/real calendar date/);
  });

  it('accepts 29 February in a leap year', () => {
    expect(parseStory(replaceLine('date', 'date: 2028-02-29')).frontMatter.date).toBe('2028-02-29');
  });
});

describe('front matter: tags', () => {
  it('refuses more than six tags', () => {
    const fields = faultFields(() => parseStory(replaceLine('tags', 'tags: [a, b, c, d, e, f, g]')));
    expect(fields['front_matter.tags']).toMatch(/7 tags; keep at most 6/);
  });

  it('accepts exactly six tags', () => {
    expect(parseStory(replaceLine('tags', 'tags: [a, b, c, d, e, f]')).frontMatter.tags).toHaveLength(6);
  });

  it('refuses an empty tag list', () => {
    expect(faultFields(() => parseStory(replaceLine('tags', 'tags: []')))['front_matter.tags']).toMatch(/at least one tag/);
  });

  it('refuses a tag that is not lowercase kebab-case and suggests the fixed spelling', () => {
    const fields = faultFields(() => parseStory(replaceLine('tags', 'tags: [DynamoDB, fine, two--dashes]')));
    expect(fields['front_matter.tags']).toContain('Tag `DynamoDB` must be lowercase kebab-case');
    expect(fields['front_matter.tags']).toContain('e.g. `dynamodb`');
    expect(fields['front_matter.tags']).toContain('Tag `two--dashes`');
  });

  it('refuses tags given as one string instead of a list', () => {
    expect(faultFields(() => parseStory(replaceLine('tags', 'tags: dynamodb')))['front_matter.tags']).toMatch(/must be a list/);
  });

  it('refuses a tag listed twice', () => {
    expect(faultFields(() => parseStory(replaceLine('tags', 'tags: [a, a]')))['front_matter.tags']).toMatch(/listed twice/);
  });
});

describe('front matter: enums name the field and list the allowed values', () => {
  it('refuses an unknown type', () => {
    const fields = faultFields(() => parseStory(replaceLine('type', 'type: partial')));
    expect(fields['front_matter.type']).toBe('`partial` is not a valid `type`; use one of: success, fail.');
  });

  it('refuses an unknown status', () => {
    const fields = faultFields(() => parseStory(withFrontMatter(`${BASE}\nstatus: closed`)));
    expect(fields['front_matter.status']).toBe('`closed` is not a valid `status`; use one of: n/a, open.');
  });

  it('refuses an unknown visibility', () => {
    const fields = faultFields(() => parseStory(withFrontMatter(`${BASE}\nvisibility: unlisted`)));
    expect(fields['front_matter.visibility']).toBe('`unlisted` is not a valid `visibility`; use one of: public, private.');
  });

  it('refuses a reproducible that is not true or false', () => {
    const fields = faultFields(() => parseStory(withFrontMatter(`${BASE}\nreproducible: yes`)));
    expect(fields['front_matter.reproducible']).toMatch(/must be `true` or `false`, not `yes`/);
  });
});

describe('front matter: defaults', () => {
  it('defaults status to n/a, visibility to public and stack to []', () => {
    const story = parseStory(withFrontMatter(BASE));
    expect(story.frontMatter).toMatchObject({ status: 'n/a', visibility: 'public', stack: [] });
  });

  it('defaults reproducible to true for a success story', () => {
    expect(parseStory(withFrontMatter(BASE)).frontMatter.reproducible).toBe(true);
  });

  it('defaults reproducible to false for a fail story', () => {
    expect(parseStory(failStory()).frontMatter.reproducible).toBe(false);
  });

  it('keeps an explicit reproducible', () => {
    expect(parseStory(withFrontMatter(`${BASE}\nreproducible: false`)).frontMatter.reproducible).toBe(false);
    expect(parseStory(failStory('reproducible: true')).frontMatter.reproducible).toBe(true);
  });

  it('keeps stack versions as written (3.10 stays "3.10")', () => {
    expect(parseStory(withFrontMatter(`${BASE}\nstack: [python, 3.10]`)).frontMatter.stack).toEqual(['python', '3.10']);
  });

  it('reads private visibility, agent and model', () => {
    const story = parseStory(withFrontMatter(`${BASE}\nvisibility: private\nagent: claude-code\nmodel: some-model-4`));
    expect(story.frontMatter).toMatchObject({ visibility: 'private', agent: 'claude-code', model: 'some-model-4' });
  });

  it('refuses an empty or over-long stack item', () => {
    const fields = faultFields(() => parseStory(withFrontMatter(`${BASE}\nstack: [node, "  ", ${'x'.repeat(101)}]`)));
    expect(fields['front_matter.stack']).toBe(
      'A `stack` item is empty; give a value or remove it. A `stack` item is longer than 100 characters; shorten it.',
    );
  });

  it('refuses agent or model given as a list', () => {
    const fields = faultFields(() => parseStory(withFrontMatter(`${BASE}\nagent: [a]\nmodel: {x: 1}`)));
    expect(fields['front_matter.agent']).toMatch(/must be text, not a list/);
    expect(fields['front_matter.model']).toMatch(/must be text, not a nested mapping/);
  });

  it('refuses front matter that is a list instead of key: value lines', () => {
    expect(faultFields(() => parseStory(withFrontMatter('- a\n- b'))).front_matter).toMatch(/key: value/);
  });

  it('refuses a stack that is not a list', () => {
    expect(faultFields(() => parseStory(withFrontMatter(`${BASE}\nstack: node`)))['front_matter.stack']).toMatch(/must be a list/);
  });
});

describe('front matter: image and image_alt', () => {
  it('accepts an https image with its alt text', () => {
    const story = parseStory(withFrontMatter(`${BASE}\nimage: https://example.com/a.png\nimage_alt: A chart`));
    expect(story.frontMatter).toMatchObject({ image: 'https://example.com/a.png', image_alt: 'A chart' });
  });

  it("accepts lorebook's own image by its path alone (/i/<sha256>.<ext>, what upload_image stores)", () => {
    const path = `/i/${'9f'.repeat(32)}.jpg`;
    const story = parseStory(withFrontMatter(`${BASE}\nimage: ${path}\nimage_alt: A chart`));
    expect(story.frontMatter).toMatchObject({ image: path });
  });

  it.each([['/i/../../etc/passwd.png'], [`/i/${'9f'.repeat(32)}.gif`], ['/uploads/a.png']])('refuses the relative image %s', (path) => {
    const fields = faultFields(() => parseStory(withFrontMatter(`${BASE}\nimage: ${path}\nimage_alt: A chart`)));
    expect(Object.keys(fields)).toEqual(['front_matter.image']);
  });

  it('refuses an image without image_alt', () => {
    const fields = faultFields(() => parseStory(withFrontMatter(`${BASE}\nimage: https://example.com/a.png`)));
    expect(Object.keys(fields)).toEqual(['front_matter.image_alt']);
  });

  it('refuses image_alt without an image', () => {
    const fields = faultFields(() => parseStory(withFrontMatter(`${BASE}\nimage_alt: A chart`)));
    expect(Object.keys(fields)).toEqual(['front_matter.image']);
  });

  it('refuses an image that is not an http(s) URL', () => {
    for (const url of ['ftp://example.com/a.png', 'javascript:alert(1)', 'not a url']) {
      const fields = faultFields(() => parseStory(withFrontMatter(`${BASE}\nimage: "${url}"\nimage_alt: A chart`)));
      expect(fields['front_matter.image']).toMatch(/http\(s\) URL/);
    }
  });
});

describe('front matter: unknown keys', () => {
  it('names a misspelt key and lists the real ones', () => {
    const fields = faultFields(() => parseStory(withFrontMatter(BASE.replace('tags:', 'tag:'))));
    expect(fields['front_matter.tag']).toMatch(/Unknown front matter key; the keys are: title, date, tags/);
    expect(fields['front_matter.tags']).toBeDefined();
  });
});
