// GET /skill.md: lorebook's agent skill as a file, for installing it (docs/agents.md: Claude Code,
// AGENTS.md). Its version is in its front matter and in the Lorebook-Skill-Version header.
import type { Hono } from 'hono';
import { SKILL, SKILL_PATH, skillMarkdown } from '../domain/skill/skill-document.ts';
import type { HttpEnv } from './http-env.ts';

export const SKILL_VERSION_HEADER = 'Lorebook-Skill-Version';

export function mountSkillFile(app: Hono<HttpEnv>): void {
  app.get(SKILL_PATH, async (c) =>
    c.body(await skillMarkdown(), 200, {
      'Content-Type': 'text/markdown; charset=utf-8',
      [SKILL_VERSION_HEADER]: SKILL.version,
      'Cache-Control': 'no-cache',
    }),
  );
}
