import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SKILL, skillMarkdown } from '../../../../src/domain/skill/skill-document.ts';
import { skillDocumentOf, skillFrontMatterOf } from '../../../../src/domain/skill/skill-front-matter.ts';
import { SKILL_MARKDOWN } from '../../../../src/domain/skill/skill-markdown.ts';
import { SKILL_FRONT_MATTER } from '../../../../src/domain/skill/skill-markdown-fields.ts';
import { SKILL_FILE, skillExamples } from '../../../helpers/skill-examples.ts';

describe("lorebook's skill document", () => {
  it('the served skill is SKILL.md byte for byte (run npm run skill:embed after editing it)', () => {
    expect(SKILL_MARKDOWN).toBe(readFileSync(SKILL_FILE, 'utf8'));
  });

  it('the front matter served is what YAML reads in SKILL.md (run npm run skill:embed after editing it)', () => {
    expect(SKILL_FRONT_MATTER).toEqual(skillFrontMatterOf(SKILL_MARKDOWN));
  });

  it('the text loaded on first use is the embedded SKILL.md', async () => {
    expect(await skillMarkdown()).toBe(SKILL_MARKDOWN);
  });

  it('its front matter names it, says when to use it and carries a MAJOR.MINOR.PATCH version', () => {
    expect(SKILL.name).toBe('lorebook');
    expect(SKILL.description.length).toBeGreaterThan(40);
    expect(SKILL.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('the version the skill tells agents to send is its front-matter version', () => {
    expect(SKILL_MARKDOWN).toContain(`\`LOREBOOK_SKILL\`: this file's version, \`${SKILL.version}\``);
  });

  it('a skill without a version, or with one that is not a version, is refused when loaded', () => {
    expect(() => skillDocumentOf('---\nname: x\ndescription: y\n---\n# x\n')).toThrow(/version/);
    expect(() => skillDocumentOf('---\nname: x\ndescription: y\nversion: soon\n---\n# x\n')).toThrow(/soon/);
    expect(() => skillDocumentOf('# no front matter\n')).toThrow(/front matter/);
  });

  it('every example is a fenced sh block; only the two that need a person in a browser are tagged device-flow', () => {
    const examples = skillExamples();
    expect(examples.length).toBeGreaterThanOrEqual(12);
    expect(examples.filter((example) => example.info === 'sh device-flow')).toHaveLength(2);
    expect(examples.every((example) => example.info === 'sh' || example.info === 'sh device-flow')).toBe(true);
    expect(SKILL_MARKDOWN.match(/^```(?!sh\b|$)/gm) ?? []).toEqual([]);
  });
});
