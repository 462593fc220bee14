// lorebook's agent skill as served: the text of skills/lorebook/SKILL.md (embedded, so the Lambda
// bundle serves it too) and what its front matter says. Checked once, when this module loads; a
// skill whose front matter lacks a name, a description or a version fails at start, not on a call.
// The front matter was read from YAML when the skill was embedded (skill-front-matter.ts), so
// serving the skill needs no YAML parser at start.
import { skillDocumentFrom, type SkillDocument } from './skill-fields.ts';
import { SKILL_FRONT_MATTER, SKILL_MARKDOWN } from './skill-markdown.ts';

export type { SkillDocument } from './skill-fields.ts';

export const SKILL_PATH = '/skill.md';
export const SKILL_API_PATH = '/v1/skill';

export const SKILL: SkillDocument = skillDocumentFrom(SKILL_FRONT_MATTER, SKILL_MARKDOWN);
