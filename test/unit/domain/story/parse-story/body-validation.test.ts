import { describe, expect, it } from 'vitest';
import { parseStory } from '../../../../../src/domain/story/parse-story.ts';
import { failStory, faultFields, readStoryFixture, successStory } from '../../story-fixtures.ts';

const REPRODUCE = [
  'Prerequisites: a table.',
  'Your agent will need from you: the table name.',
  'Steps:',
  '1. Put with a condition.',
  'Verify: one row.',
];

function successWithReproduce(lines: string[]): string {
  return successStory().replace(/## Reproduce this[\s\S]*$/, `## Reproduce this\n\n${lines.join('\n')}`);
}

const CHECK = [
  'Applies if: you count things.',
  '',
  'Read-only steps:',
  '1. Look at the update.',
  '',
  'Has the problem: no condition.',
  "Doesn't have it: a condition.",
];

function successWithCheck(lines: string[]): string {
  return successStory().replace('## Reproduce this', `## Check if this applies to you\n\n${lines.join('\n')}\n\n## Reproduce this`);
}

describe('body: the # title heading', () => {
  it('refuses a heading that differs from the front matter title, naming body.title', () => {
    const fields = faultFields(() => parseStory(successStory().replace('# Retries made two rows', '# Retries made three rows')));
    expect(fields).toEqual({ 'body.title': expect.stringMatching(/differs from the front matter title "Retries made two rows"/) });
  });

  it('accepts a heading that matches once markup is read as text', () => {
    const markdown = successStory({ frontMatter: 'title: Using args in Python\ndate: 2026-10-14\ntags: [python]\ntype: success' }).replace(
      '# Retries made two rows',
      '# Using *args* in Python',
    );
    expect(parseStory(markdown).frontMatter.title).toBe('Using args in Python');
  });

  it('refuses a body without a # heading and suggests the heading from the title', () => {
    const fields = faultFields(() => parseStory(successStory().replace('# Retries made two rows\n', '')));
    expect(fields['body.title']).toContain('`# Retries made two rows`');
  });

  it('refuses text above the # heading', () => {
    const fields = faultFields(() => parseStory(successStory().replace('# Retries', 'Preface.\n\n# Retries')));
    expect(fields['body.title']).toMatch(/Move the text above/);
  });

  it('refuses a story with no narrative, naming body.narrative', () => {
    const fields = faultFields(() => parseStory(successStory().replace('I retried a put after a timeout and got two rows.\n', '')));
    expect(Object.keys(fields)).toEqual(['body.narrative']);
  });
});

describe('body: success stories need Reproduce this with its four labels', () => {
  it('accepts a complete Reproduce this section', () => {
    expect(parseStory(successWithReproduce(REPRODUCE)).sections.reproduce).toBe(REPRODUCE.join('\n'));
  });

  for (const label of ['Prerequisites:', 'Your agent will need from you:', 'Steps:', 'Verify:']) {
    it(`refuses a Reproduce this section without "${label}", naming the label`, () => {
      const fields = faultFields(() => parseStory(successWithReproduce(REPRODUCE.filter((line) => !line.startsWith(label)))));
      expect(fields['section.reproduce']).toContain(`It lacks \`${label}\``);
    });
  }

  it('names every missing label at once', () => {
    const fields = faultFields(() => parseStory(successWithReproduce(['Just do it.'])));
    expect(fields['section.reproduce']).toContain('It lacks `Prerequisites:`, `Your agent will need from you:`, `Steps:`, `Verify:`.');
  });

  it('does not count a label that only appears inside a code block', () => {
    const lines = REPRODUCE.filter((line) => !line.startsWith('Verify:')).concat(['```', 'Verify: fake', '```']);
    expect(faultFields(() => parseStory(successWithReproduce(lines)))['section.reproduce']).toContain('`Verify:`');
  });

  it('refuses an empty Reproduce this section', () => {
    expect(faultFields(() => parseStory(successWithReproduce([])))['section.reproduce']).toMatch(/is empty/);
  });

  it('refuses Reproduce this given twice', () => {
    const markdown = `${successStory().trimEnd()}\n\n## Reproduce this\n\n${REPRODUCE.join('\n')}\n`;
    expect(faultFields(() => parseStory(markdown))['section.reproduce']).toMatch(/more than once/);
  });
});

describe('body: fail stories need What I tried and What I need', () => {
  it('accepts a fail story with both sections', () => {
    expect(parseStory(failStory()).sections).toEqual({ whatITried: '1. Installed fonts.', whatINeed: 'The right package.' });
  });

  it('refuses a fail story missing both sections, naming each', () => {
    const markdown = failStory().replace(/## What I tried[\s\S]*$/, '');
    const fields = faultFields(() => parseStory(markdown));
    expect(fields['section.what_i_tried']).toMatch(/A fail story needs a `## What I tried` section/);
    expect(fields['section.what_i_need']).toMatch(/A fail story needs a `## What I need` section/);
  });

  it('does not ask a fail story for Reproduce this', () => {
    expect(parseStory(readStoryFixture('fail-open')).sections.reproduce).toBeUndefined();
  });
});

describe('body: the optional Check if this applies to you section', () => {
  it('accepts a complete check and sets hasCheck', () => {
    const story = parseStory(successWithCheck(CHECK));
    expect(story.hasCheck).toBe(true);
    expect(story.sections.check).toBe(CHECK.join('\n'));
  });

  it('a story without the section has hasCheck false', () => {
    expect(parseStory(successStory()).hasCheck).toBe(false);
  });

  for (const label of ['Applies if:', 'Has the problem:', "Doesn't have it:"]) {
    it(`refuses a check without "${label}"`, () => {
      const fields = faultFields(() => parseStory(successWithCheck(CHECK.filter((line) => !line.startsWith(label)))));
      expect(fields['section.check']).toContain(`It lacks \`${label}\``);
    });
  }

  it('accepts a curly apostrophe in "Doesn’t have it:"', () => {
    expect(parseStory(successWithCheck(CHECK.map((line) => line.replace("Doesn't", 'Doesn’t')))).hasCheck).toBe(true);
  });

  it('refuses a check with no read-only steps between Applies if and Has the problem', () => {
    const fields = faultFields(() =>
      parseStory(successWithCheck(['Applies if: always.', 'Has the problem: yes.', "Doesn't have it: no."])),
    );
    expect(fields['section.check']).toMatch(/read-only steps/);
  });

  it('refuses Has the problem written before Applies if', () => {
    const lines = ['Has the problem: yes.', '', '1. Look.', '', 'Applies if: always.', "Doesn't have it: no."];
    expect(faultFields(() => parseStory(successWithCheck(lines)))['section.check']).toMatch(/must come before/);
  });
});

describe('validation names every fault at once', () => {
  it('reports front matter and section faults together, each with a fix', () => {
    const markdown = [
      '---',
      'title: ""',
      'date: 2026-02-31',
      'tags: [Bad Tag, a, b, c, d, e, f]',
      'type: success',
      'status: closed',
      'visibility: secret',
      'image: ftp://x/y.png',
      'colour: blue',
      '---',
      '',
      '# Something',
      '',
      'Story.',
      '',
      '## Check if this applies to you',
      '',
      'Applies if: sometimes.',
      '',
      '## Reproduce this',
      '',
      'Steps:',
      '1. Go.',
    ].join('\n');
    const fields = faultFields(() => parseStory(markdown));
    expect(Object.keys(fields).sort()).toEqual([
      'front_matter.colour',
      'front_matter.date',
      'front_matter.image',
      'front_matter.image_alt',
      'front_matter.status',
      'front_matter.tags',
      'front_matter.title',
      'front_matter.visibility',
      'section.check',
      'section.reproduce',
    ]);
    for (const fix of Object.values(fields)) expect(fix.length).toBeGreaterThan(10);
  });
});
