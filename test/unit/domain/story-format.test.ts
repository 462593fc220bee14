import { describe, expect, it } from 'vitest';
import { normalizeMarkdown } from '../../../src/domain/story/normalize-markdown.ts';
import { parseStory } from '../../../src/domain/story/parse-story.ts';
import { corpusText, STORY_CORPUS } from '../../helpers/story-corpus.ts';
import { faultFields, successStory } from './story-fixtures.ts';

const REPRODUCE =
  '## Reproduce this\n\nPrerequisites: a table.\nYour agent will need from you: its name.\nSteps:\n1. Put.\nVerify: one row.';

function withReproduce(reproduce: string): string {
  return successStory().replace(/## Reproduce this[\s\S]*$/, `## Reproduce this\n\n${reproduce}\n`);
}

function withCheck(check: string): string {
  return successStory().replace(/## Reproduce this[\s\S]*$/, `## Check if this applies to you\n\n${check}\n\n${REPRODUCE}\n`);
}

describe('stories written the way people write them are accepted', () => {
  for (const story of STORY_CORPUS) {
    it(`${story.file}: ${story.shape}`, () => {
      const text = corpusText(story.file);
      const parsed = parseStory(text);
      expect(parsed.frontMatter.type).toBe(story.type);
      expect(parsed.hasCheck).toBe(story.hasCheck);
      expect(Object.keys(parsed.sections)).toEqual(
        story.type === 'fail' ? ['whatITried', 'whatINeed'] : story.hasCheck ? ['check', 'reproduce'] : ['reproduce'],
      );
      // Accepted as written: nothing is re-flowed to make it parse.
      expect(parsed.markdown).toBe(normalizeMarkdown(text));
    });
  }
});

describe('labels count where a line or a sentence starts with them', () => {
  it("reads `Has the problem: … Doesn't have it: …` as two labels of one line", () => {
    const story = parseStory(withCheck("Applies if: you count.\n1. Look.\n\nHas the problem: no condition. Doesn't have it: a condition."));
    expect(story.sections.check).toMatch(/Doesn't have it: a condition\.$/);
  });

  it('reads every reproduce label as a sentence of one paragraph', () => {
    const story = parseStory(
      withReproduce('Prerequisites: a table. Your agent will need from you: its name. Steps: put once. Verify: one row.'),
    );
    expect(story.sections.reproduce).toBe(
      'Prerequisites: a table. Your agent will need from you: its name. Steps: put once. Verify: one row.',
    );
  });

  it('reads a label after `!`, `?`, `;` or a closing quote or bracket', () => {
    const reproduce = 'Prerequisites: a table! Your agent will need from you: "its name." Steps: put (once). Verify: one row?';
    expect(parseStory(withReproduce(reproduce)).sections.reproduce).toBe(reproduce);
  });

  it('reads a sub-heading as its label, with or without the colon', () => {
    const reproduce =
      '### Prerequisites\n\nA table.\n\n#### your agent will need from you:\n\nIts name.\n\n### Steps\n\nPut.\n\n### Verify\n\nOne row.';
    expect(parseStory(withReproduce(reproduce)).sections.reproduce).toBe(reproduce);
  });

  it('reads labels the way an exporter escapes them (`\\-`, `&#39;`, `&rsquo;`)', () => {
    const check =
      'Applies if: you count.\n\nRead\\-only steps:\n\n1\\. Look.\n\nHas the problem: no condition.\n\nDoesn&#39;t have it: a condition.';
    expect(parseStory(withCheck(check)).hasCheck).toBe(true);
    expect(parseStory(withCheck(check.replace('&#39;', '&rsquo;'))).hasCheck).toBe(true);
  });

  it('reads labels in any case, with runs of spaces and a space before the colon', () => {
    const reproduce = 'PREREQUISITES : a table.\nYour  agent  will need from you: its name.\nsteps:\n1. Put.\nVerify :one row.';
    expect(parseStory(withReproduce(reproduce)).sections.reproduce).toBe(reproduce);
  });

  it('does not read a label in the middle of a sentence', () => {
    const fields = faultFields(() =>
      parseStory(withReproduce('Prerequisites: a table.\nYour agent will need from you: its name.\nSteps:\n1. Put, then verify: one row.')),
    );
    expect(fields['section.reproduce']).toContain('It lacks `Verify:`.');
  });

  it('does not read a label inside a word', () => {
    const fields = faultFields(() =>
      parseStory(withReproduce('Prerequisites: a table.\nYour agent will need from you: its name.\nSteps:\n1. Put. Preverify: one row.')),
    );
    expect(fields['section.reproduce']).toContain('It lacks `Verify:`.');
  });

  it('does not read a label inside a code block, fenced or indented', () => {
    const fenced = faultFields(() =>
      parseStory(withReproduce('Prerequisites: a.\nYour agent will need from you: b.\nSteps:\n1. c.\n\n```\nx. Verify: fake\n```')),
    );
    expect(fenced['section.reproduce']).toContain('It lacks `Verify:`.');
    const indented = faultFields(() =>
      parseStory(withReproduce('Prerequisites: a.\nYour agent will need from you: b.\nSteps: c.\n\n    Verify: fake')),
    );
    expect(indented['section.reproduce']).toContain('It lacks `Verify:`.');
  });
});

describe('read-only steps may be numbered, bulleted, plain lines or code', () => {
  const verdicts = "Has the problem: no condition.\nDoesn't have it: a condition.";
  for (const [style, steps] of [
    ['numbered', '1. Look.\n2. See.'],
    ['numbered with )', '1) Look.\n2) See.'],
    ['bulleted', '- Look.\n* See.'],
    ['plain lines', 'Look.\nSee.'],
    ['plain lines after Read-only steps:', 'Read-only steps:\nLook.\nSee.'],
    ['a sentence after Read-only steps:', 'Read-only steps: look and see.'],
    ['a code block', '```sh\ngrep -r update .\n```'],
  ] as const) {
    it(`accepts read-only steps as ${style}`, () => {
      expect(parseStory(withCheck(`Applies if: you count.\n${steps}\n${verdicts}`)).hasCheck).toBe(true);
    });
  }

  it('accepts the condition on the line after a bare `Applies if:`, followed by steps', () => {
    expect(parseStory(withCheck(`Applies if:\nyou count.\nLook.\n${verdicts}`)).hasCheck).toBe(true);
  });
});

describe('the format stays strict on what carries meaning', () => {
  it('refuses a check whose only text before `Has the problem:` is the condition', () => {
    const fields = faultFields(() =>
      parseStory(withCheck("Applies if: you count. Has the problem: no condition. Doesn't have it: a condition.")),
    );
    expect(fields['section.check']).toMatch(/Put the read-only steps after the `Applies if:` condition/);
  });

  it('refuses a condition on the line after a bare `Applies if:` with no steps after it', () => {
    const fields = faultFields(() => parseStory(withCheck("Applies if:\nyou count.\n\nHas the problem: no.\nDoesn't have it: yes.")));
    expect(fields['section.check']).toMatch(/read-only steps/);
  });

  it('refuses `Read-only steps:` with no steps under it', () => {
    const fields = faultFields(() =>
      parseStory(withCheck("Applies if: you count.\n\nRead-only steps:\n\nHas the problem: no.\nDoesn't have it: yes.")),
    );
    expect(fields['section.check']).toMatch(/read-only steps/);
  });

  it("refuses `Doesn't have it:` written before `Has the problem:`", () => {
    const fields = faultFields(() =>
      parseStory(withCheck("Applies if: you count.\n1. Look.\n\nDoesn't have it: a condition.\nHas the problem: none.")),
    );
    expect(fields['section.check']).toContain("`Has the problem:` must come before `Doesn't have it:`");
  });

  it('refuses reproduce labels out of the format order, naming the pair', () => {
    const fields = faultFields(() =>
      parseStory(withReproduce('Prerequisites: a.\nSteps:\n1. c.\nYour agent will need from you: b.\nVerify: d.')),
    );
    expect(fields['section.reproduce']).toContain('`Your agent will need from you:` must come before `Steps:`');
  });

  it('accepts a label that also occurs earlier, as long as one occurrence of each is in order', () => {
    const reproduce =
      'Prerequisites: a.\nYour agent will need from you: b.\nSteps:\n1. Build. Verify: it compiles.\n2. Deploy.\nVerify: the site answers.';
    expect(parseStory(withReproduce(`Verify: nothing yet.\n${reproduce}`)).sections.reproduce).toBe(`Verify: nothing yet.\n${reproduce}`);
  });
});
