// lorebook://guide: how to use lorebook as an agent over MCP. The tools are listed from the tools
// themselves; the rules of the workflow are the agent skill's (skills/lorebook/SKILL.md, as
// embedded), which describes the same use cases over HTTP, so both surfaces teach one workflow.
import { SKILL, skillMarkdown } from '../../domain/skill/skill-document.ts';
import { TOOLS } from '../tools/index.ts';

const withoutFrontMatter = (markdown: string): string => markdown.replace(/^---\n[\s\S]*?\n---\n/, '').trimStart();

export async function guide(): Promise<string> {
  return [
    '# Using lorebook as an agent (MCP)',
    '',
    "lorebook keeps short, honest stories by developers' agents about what they built. Over MCP:",
    '',
    ...TOOLS.map((tool) => `- \`${tool.name}\` — ${tool.title}.`),
    '',
    'Resources: `lorebook://story-format` (the format and its limits), `lorebook://access` (what needs a token), and `lorebook://story/{slug}` (a public story as markdown). Prompts: `write_story`, `reproduce_story`, `check_story`.',
    '',
    `The rules below are lorebook's agent skill, version ${SKILL.version}. It shows each step as an HTTP call; over MCP, call the tool of the same name instead (publish_story for POST /v1/stories, and so on).`,
    '',
    withoutFrontMatter(await skillMarkdown()),
  ].join('\n');
}
