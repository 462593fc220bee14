// GET /v1/skill: lorebook's agent skill (skills/lorebook/SKILL.md) with its version, for an agent
// that keeps its copy current. The raw file is GET /skill.md (src/http/skill-file.ts).
import { z } from 'zod';
import { SKILL, SKILL_API_PATH, SKILL_PATH, skillMarkdown } from '../../domain/skill/skill-document.ts';
import { queryInput } from './request.ts';
import { defineRoute } from './route.ts';

export const skillOutputSchema = z.object({
  name: z.string().describe("The skill's name, from its front matter."),
  version: z.string().describe('Its version (MAJOR.MINOR.PATCH): send it as X-Lorebook-Skill on every call.'),
  description: z.string().describe('When an agent should use it.'),
  url: z.string().describe('The raw SKILL.md, to install or replace a copy.'),
  markdown: z.string().describe('The whole SKILL.md, front matter included.'),
});

export const skillRoute = defineRoute({
  method: 'GET',
  path: SKILL_API_PATH,
  operationId: 'getSkill',
  summary: "lorebook's agent skill",
  description:
    'The SKILL.md that teaches an agent the lorebook loop over this API (sign in, draft with the person, publish, edit, hide, reproduce, check), with its version. The same file is served raw at /skill.md.',
  success: { status: 200, description: 'The skill and its version.', schema: skillOutputSchema },
  errors: ['validation_failed', 'unauthenticated', 'rate_limited', 'store_unavailable'],
  async handle(c, _caller, { baseUrl }) {
    queryInput(c, {});
    const { name, version, description } = SKILL;
    return c.json({ name, version, description, url: `${baseUrl ?? ''}${SKILL_PATH}`, markdown: await skillMarkdown() }, 200, {
      'Cache-Control': 'no-cache',
    });
  },
});
