// lorebook's agent skill against the real `npm start`: every example in skills/lorebook/SKILL.md
// runs as one agent's shell session with a real token (so the skill cannot drift from the API),
// the skill is served with its version, and a caller on an older skill is told so.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../../src/app/oauth-server/tokens.ts';
import { getStory } from '../../src/app/queries/get-story.ts';
import { SKILL } from '../../src/domain/skill/skill-document.ts';
import { useAppFixture } from '../helpers/app-fixture.ts';
import { type NpmStart, startNpmStart } from '../helpers/npm-start.ts';
import { inSkillWorkdir, runSkillSession, SKILL_FILE, SKILL_TOOLS_MISSING, skillExamples } from '../helpers/skill-examples.ts';
import { storyTitled } from '../helpers/stories.ts';
import { testEndpoint } from '../helpers/test-table.ts';

const app = useAppFixture('e2e-skill');
let server: NpmStart;
let token: string;

beforeAll(async () => {
  token = (await createToken(app.ctx(), { handle: 'skilled', expiresInSeconds: 3600 })).token;
  server = await startNpmStart({ endpoint: testEndpoint(), table: app.ctx().store.tableName });
}, 120_000);

afterAll(async () => {
  await server?.stop();
}, 60_000);

const session = (examples = skillExamples().filter((example) => example.info === 'sh')) =>
  inSkillWorkdir((workdir) =>
    runSkillSession(examples, { LOREBOOK_URL: server.baseUrl, LOREBOOK_TOKEN: token, LOREBOOK_SKILL: SKILL.version }, workdir),
  );

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.baseUrl}${path}`, { headers });

describe.skipIf(SKILL_TOOLS_MISSING.length > 0)(
  `the skill's examples run against npm start${SKILL_TOOLS_MISSING.length > 0 ? ` (skipped: no ${SKILL_TOOLS_MISSING.join(' or ')} on PATH)` : ''}`,
  () => {
    it('every sh example exits 0 in order (each curl answered 2xx) and leaves the story the skill describes', async () => {
      const outcome = await session();
      expect(outcome, `${outcome.stderr}\n${outcome.stdout}`).toMatchObject({ exitCode: 0, failedAt: undefined });
      const [slug] = /"slug": "([^"]+)"/.exec(outcome.stdout)?.slice(1) ?? [];
      expect(slug).toBeDefined();
      const story = await getStory(app.ctx(), undefined, { slug: slug ?? '' });
      expect(story.revisions.map((revision) => revision.kind)).toEqual(['publish', 'addition', 'correction']);
      expect(story.hidden).toBe(false);
      expect(story.markdown).toContain('at most four attempts');
    }, 120_000);

    it('an example the API refuses stops the session at its block, so a drifted example fails the run', async () => {
      const drifted = { info: 'sh', line: 7, code: 'curl --fail-with-body -sS "$LOREBOOK_URL/v1/stories/2026-01-01-no-such-story" >&2' };
      const outcome = await session([drifted]);
      expect(outcome.exitCode).not.toBe(0);
      expect(outcome.failedAt).toBe(7);
      expect(outcome.stderr).toContain('not_found');
    });
  },
);

describe('the skill is served, versioned', () => {
  it('GET /v1/skill answers the file with its name and version, anonymously', async () => {
    const answer = await get('/v1/skill');
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({
      name: 'lorebook',
      version: SKILL.version,
      description: SKILL.description,
      url: `${server.baseUrl}/skill.md`,
      markdown: readFileSync(SKILL_FILE, 'utf8'),
    });
  });

  it('GET /skill.md answers the file as markdown with its version header', async () => {
    const answer = await get('/skill.md');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(answer.headers.get('lorebook-skill-version')).toBe(SKILL.version);
    expect(await answer.text()).toBe(readFileSync(SKILL_FILE, 'utf8'));
  });

  it('the OpenAPI document lists GET /v1/skill, the X-Lorebook-Skill header and skill_update', async () => {
    const document = (await (await get('/v1/openapi.json')).json()) as { paths: Record<string, Record<string, Record<string, unknown>>> };
    const operation = document.paths['/v1/skill']?.get;
    expect(operation?.operationId).toBe('getSkill');
    expect(JSON.stringify(operation?.parameters)).toContain('X-Lorebook-Skill');
    expect(JSON.stringify(document.paths['/v1/stories/{slug}']?.get)).toContain('"skill_update"');
  });
});

describe('a caller on an older skill gets skill_update', () => {
  const update = () => ({ version: SKILL.version, url: `${server.baseUrl}/skill.md` });

  it('an older X-Lorebook-Skill gets skill_update {version, url} beside the answer, which is otherwise unchanged', async () => {
    const plain = (await (await get('/v1/stories?limit=5')).json()) as Record<string, unknown>;
    const answer = await get('/v1/stories?limit=5', { 'X-Lorebook-Skill': '0.9.0' });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ ...plain, skill_update: update() });
    expect(answer.headers.get('ratelimit')).not.toBeNull();
  });

  it('on writes and refusals too: a publish answer and a 404 problem carry it', async () => {
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'text/markdown', 'X-Lorebook-Skill': '0.1' };
    const published = await fetch(`${server.baseUrl}/v1/stories`, {
      method: 'POST',
      headers,
      body: storyTitled('Skill update on a write'),
    });
    expect(published.status).toBe(201);
    expect(((await published.json()) as Record<string, unknown>).skill_update).toEqual(update());
    const missing = await get('/v1/stories/2026-01-01-no-such-story', { 'X-Lorebook-Skill': '0.1' });
    expect(missing.status).toBe(404);
    expect(missing.headers.get('content-type')).toContain('application/problem+json');
    expect(await missing.json()).toMatchObject({ code: 'not_found', skill_update: update() });
  });

  it('the current or a newer version, no header, and X-Worklore-Skill get no skill_update', async () => {
    const cases: Record<string, string>[] = [
      { 'X-Lorebook-Skill': SKILL.version },
      { 'X-Lorebook-Skill': '99.0.0' },
      {},
      { 'X-Worklore-Skill': '0.0.1' },
    ];
    for (const headers of cases) {
      const body = (await (await get('/v1/stories?limit=1', headers)).json()) as Record<string, unknown>;
      expect(body, JSON.stringify(headers)).not.toHaveProperty('skill_update');
    }
  });
});
