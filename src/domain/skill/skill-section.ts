// One `## ` section of the agent skill, by its heading, so the MCP prompts quote the skill's own
// rules instead of a second wording of them. Headings inside code fences (the skill's example
// stories have `## Reproduce this`) are part of the section they sit in.
import { skillMarkdown } from './skill-document.ts';

export function skillSection(heading: string, markdown: string): string {
  const lines: string[] = [];
  let inFence = false;
  let inSection = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    else if (!inFence && line.startsWith('## ')) {
      if (inSection) break;
      inSection = line.slice(3).trim() === heading;
    }
    if (inSection) lines.push(line);
  }
  if (lines.length === 0) throw new Error(`The skill has no section "## ${heading}".`);
  return lines.join('\n').trim();
}

/** The section of the served skill, read when a prompt is first asked for (the skill's text loads on first use). */
export async function servedSkillSection(heading: string): Promise<string> {
  return skillSection(heading, await skillMarkdown());
}
