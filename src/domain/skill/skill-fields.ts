// What a skill document holds, checked from its front matter's fields: a name, a description and
// a MAJOR.MINOR.PATCH version, each a string. Apart from the embedded skill (skill-document.ts)
// so `npm run skill:embed` can check a new SKILL.md before it writes it.
import { parseSkillVersion, type SkillVersion } from './skill-version.ts';

export interface SkillFields {
  name: string;
  description: string;
  version: string;
  parsedVersion: SkillVersion;
}

export interface SkillDocument extends SkillFields {
  markdown: string;
}

/** The skill's fields from its front matter (as YAML reads them). */
export function skillFieldsFrom(fields: Readonly<Record<string, unknown>>): SkillFields {
  const { name, description, version } = fields;
  if (typeof name !== 'string' || typeof description !== 'string' || typeof version !== 'string') {
    throw new Error('The skill front matter needs name, description and version, each a string.');
  }
  const parsedVersion = parseSkillVersion(version);
  if (parsedVersion === undefined) throw new Error(`The skill version "${version}" is not MAJOR.MINOR.PATCH.`);
  return { name, description, version, parsedVersion };
}
