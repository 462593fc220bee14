// lorebook://story-format is written from the parser's constants: every label, type, key and limit
// the parser enforces appears in it, and changing one changes the reference.
import { describe, expect, it } from 'vitest';
import { CHECK_LABELS, REPRODUCE_LABELS } from '../../../../src/domain/story/check-story-body.ts';
import { FRONT_MATTER_KEYS, MAX_TAGS } from '../../../../src/domain/story/front-matter-schema.ts';
import { STEP_LABELS } from '../../../../src/domain/story/read-only-steps.ts';
import { SECTION_HEADINGS } from '../../../../src/domain/story/section-headings.ts';
import { STORY_FORMAT_RULES, storyFormatReference } from '../../../../src/domain/story/story-format-reference.ts';
import { MARKDOWN_COST_LIMITS, MAX_STORY_MARKDOWN_BYTES, MAX_TITLE_CHARS } from '../../../../src/domain/story/story-limits.ts';
import { STORY_STATUSES, STORY_TYPES, STORY_VISIBILITIES } from '../../../../src/domain/story/story-types.ts';

const reference = storyFormatReference();

describe('the story-format reference', () => {
  it('names every section heading, label, front matter key and enum value the parser knows', () => {
    for (const section of SECTION_HEADINGS) expect(reference).toContain(`\`## ${section.heading}\``);
    for (const label of [...REPRODUCE_LABELS, ...CHECK_LABELS, ...STEP_LABELS]) expect(reference).toContain(`\`${label}\``);
    for (const key of FRONT_MATTER_KEYS) expect(reference).toContain(`\`${key}\``);
    for (const value of [...STORY_TYPES, ...STORY_STATUSES, ...STORY_VISIBILITIES]) expect(reference).toContain(`\`${value}\``);
  });

  it('states each limit with the value the parser enforces', () => {
    expect(reference).toContain(`| markdown, UTF-8 bytes | ${MAX_STORY_MARKDOWN_BYTES} |`);
    expect(reference).toContain(`| title, characters | ${MAX_TITLE_CHARS} |`);
    expect(reference).toContain(`| tags | ${MAX_TAGS} |`);
    expect(reference).toContain(`| nesting depth | ${MARKDOWN_COST_LIMITS.nestingDepth} |`);
    expect(Object.keys(STORY_FORMAT_RULES.costLimits)).toEqual(Object.keys(MARKDOWN_COST_LIMITS));
  });

  it('says which sections each story type needs, in the order the parser checks the labels', () => {
    expect(reference).toMatch(
      /\| `## Reproduce this` \| required for `success` stories \| `Prerequisites:`, `Your agent will need from you:`, `Steps:`, `Verify:` \|/,
    );
    expect(reference).toMatch(/\| `## What I tried` \| required for `fail` stories \|/);
    expect(reference).toMatch(/\| `## Check if this applies to you` \| optional \| `Applies if:`, the read-only steps/);
  });

  it('a changed constant shows in the reference: a new label, a new limit value, a section made required', () => {
    const changed = storyFormatReference({
      ...STORY_FORMAT_RULES,
      reproduceLabels: [...REPRODUCE_LABELS, 'Cleanup:'],
      limits: { ...STORY_FORMAT_RULES.limits, 'title, characters': 99 },
      requiredSections: { ...STORY_FORMAT_RULES.requiredSections, success: ['reproduce', 'check'] },
    });
    expect(changed).toContain('`Verify:`, `Cleanup:`');
    expect(changed).toContain('| title, characters | 99 |');
    expect(changed).toMatch(/\| `## Check if this applies to you` \| required for `success` stories \|/);
    expect(reference).not.toContain('Cleanup:');
  });
});
