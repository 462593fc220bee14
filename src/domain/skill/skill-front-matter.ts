// A skill's front matter read from its markdown with the YAML parser: what `npm run skill:embed`
// stores beside the text (skill-markdown-fields.ts), and how a skill given as markdown is checked.
import { parse } from 'yaml';
import { type SkillDocument, skillFieldsFrom } from './skill-fields.ts';

export function skillFrontMatterOf(markdown: string): Record<string, unknown> {
  const frontMatter = /^---\n([\s\S]*?)\n---\n/.exec(markdown)?.[1];
  if (frontMatter === undefined) throw new Error('The skill has no front matter.');
  return (parse(frontMatter) as Record<string, unknown> | null) ?? {};
}

export function skillDocumentOf(markdown: string): SkillDocument {
  return { ...skillFieldsFrom(skillFrontMatterOf(markdown)), markdown };
}
