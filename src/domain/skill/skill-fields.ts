// What a skill document holds, checked from its front matter's fields: a name, a description and
// a MAJOR.MINOR.PATCH version, each a string. Apart from the embedded skill (skill-document.ts)
// so `npm run skill:embed` can check a new SKILL.md before it writes it.
import { parseSkillVersion, type SkillVersion } from './skill-version.ts';

export interface SkillDocument {
  name: string;
  description: string;
  version: string;
  parsedVersion: SkillVersion;
  markdown: string;
}

/** The skill from its front matter's fields (as YAML reads them) and its whole text. */
export function skillDocumentFrom(fields: Readonly<Record<string, unknown>>, markdown: string): SkillDocument {
  const { name, description, version } = fields;
  if (typeof name !== 'string' || typeof description !== 'string' || typeof version !== 'string') {
    throw new Error('The skill front matter needs name, description and version, each a string.');
  }
  const parsedVersion = parseSkillVersion(version);
  if (parsedVersion === undefined) throw new Error(`The skill version "${version}" is not MAJOR.MINOR.PATCH.`);
  return { name, description, version, parsedVersion, markdown };
}
