// lorebook's agent skill as served: the text of skills/lorebook/SKILL.md (embedded, so the Lambda
// bundle serves it too) and what its front matter says. Read once, when this module loads; a
// skill whose front matter lacks a name, a description or a version fails at start, not on a call.
import { parse } from 'yaml';
import { SKILL_MARKDOWN } from './skill-markdown.ts';
import { parseSkillVersion, type SkillVersion } from './skill-version.ts';

export const SKILL_PATH = '/skill.md';
export const SKILL_API_PATH = '/v1/skill';

export interface SkillDocument {
  name: string;
  description: string;
  version: string;
  parsedVersion: SkillVersion;
  markdown: string;
}

export function skillDocumentOf(markdown: string): SkillDocument {
  const frontMatter = /^---\n([\s\S]*?)\n---\n/.exec(markdown)?.[1];
  if (frontMatter === undefined) throw new Error('The skill has no front matter.');
  const fields = parse(frontMatter) as Record<string, unknown> | null;
  const { name, description, version } = fields ?? {};
  if (typeof name !== 'string' || typeof description !== 'string' || typeof version !== 'string') {
    throw new Error('The skill front matter needs name, description and version, each a string.');
  }
  const parsedVersion = parseSkillVersion(version);
  if (parsedVersion === undefined) throw new Error(`The skill version "${version}" is not MAJOR.MINOR.PATCH.`);
  return { name, description, version, parsedVersion, markdown };
}

export const SKILL: SkillDocument = skillDocumentOf(SKILL_MARKDOWN);
