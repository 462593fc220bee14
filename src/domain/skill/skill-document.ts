// lorebook's agent skill as served: what its front matter says (skills/lorebook/SKILL.md, as
// embedded) and, on first use, its text. The front matter is checked once, when this module loads;
// a skill whose front matter lacks a name, a description or a version fails at start, not on a
// call. It was read from YAML when the skill was embedded (skill-front-matter.ts), so serving the
// skill needs no YAML parser at start.
import { type SkillFields, skillFieldsFrom } from './skill-fields.ts';
import { SKILL_FRONT_MATTER } from './skill-markdown-fields.ts';

export type { SkillDocument, SkillFields } from './skill-fields.ts';

export const SKILL_PATH = '/skill.md';
export const SKILL_API_PATH = '/v1/skill';

/** The served skill's name, description and version: all a skill_update notice needs. */
export const SKILL: SkillFields = skillFieldsFrom(SKILL_FRONT_MATTER);

/**
 * The served skill's whole text, front matter included. Loaded on first use, not at a cold start:
 * only the prompts, the guide and the skill's two routes read it (the http function's start
 * bound: test/unit/infra/lorebook-stack/bundled.test.ts).
 */
export async function skillMarkdown(): Promise<string> {
  return (await import('./skill-markdown.ts')).SKILL_MARKDOWN;
}
