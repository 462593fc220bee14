// skill_update: a caller whose X-Lorebook-Skill names an older skill than the one served is told
// so in every JSON answer of /v1 (successes and refusals alike), as an extra top-level field
// `skill_update: {version, url}` added after the handler answered. The use cases and their
// output schemas never see it: the field is the surface's, like the rate-limit headers, and the
// OpenAPI document lists it as an optional property of every answer (src/http/v1/openapi.ts).
// Only lorebook's own header counts: worklore's X-Worklore-Skill numbers another skill's
// versions, so comparing it with lorebook's would say "behind" or "current" at random.
import type { MiddlewareHandler } from 'hono';
import { z } from 'zod';
import { SKILL, SKILL_PATH } from '../domain/skill/skill-document.ts';
import { skillIsBehind } from '../domain/skill/skill-version.ts';
import { mediaType } from './body.ts';
import type { HttpEnv } from './http-env.ts';

export const SKILL_HEADER = 'X-Lorebook-Skill';

export const skillUpdateSchema = z
  .object({
    version: z.string().describe("The served skill's version."),
    url: z.string().describe('Where to fetch it: GET it and replace your copy.'),
  })
  .describe(`Only when the request's ${SKILL_HEADER} header names an older skill version than the one served.`);

export type SkillUpdate = z.output<typeof skillUpdateSchema>;

const isJson = (contentType: string | null): boolean => {
  const type = mediaType(contentType ?? undefined);
  return type === 'application/json' || type.endsWith('+json');
};

/** The update to announce to a caller that sent `sent` as its skill version, or none when it is current (or sent none). */
export function skillUpdateFor(sent: string | undefined, baseUrl: string): SkillUpdate | undefined {
  if (sent === undefined || !skillIsBehind(sent, SKILL.parsedVersion)) return undefined;
  return { version: SKILL.version, url: `${baseUrl}${SKILL_PATH}` };
}

export function skillUpdate(baseUrl: string): MiddlewareHandler<HttpEnv> {
  return async (c, next) => {
    await next();
    const update = skillUpdateFor(c.req.header(SKILL_HEADER), baseUrl);
    // A download (the account export, streamed and unbounded) is a file, not an answer: left as it is.
    const download = c.res.headers.has('content-disposition');
    if (update === undefined || download || c.res.body === null || !isJson(c.res.headers.get('content-type'))) return;
    // Every /v1 JSON answer is one object the app built itself, bounded like the request it answers.
    const body: unknown = await c.res.clone().json();
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return;
    const { status, headers } = c.res;
    const answer = new Response(JSON.stringify({ ...body, skill_update: update }), { status, headers });
    answer.headers.delete('content-length');
    // Cleared first: hono's setter would otherwise copy the old answer's headers onto the new one,
    // its Content-Length (now wrong) included.
    c.res = undefined;
    c.res = answer;
  };
}
