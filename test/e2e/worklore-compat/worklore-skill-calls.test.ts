// worklore's skill pointed at lorebook, as a person switching would: every call the skill makes,
// with its bodies and headers exactly as it writes them (curl's defaults included: `-d '{…}'` is
// labelled form-encoded, and every call carries X-Worklore-Skill), sent to a real `npm start`.
// Each effect is checked through lorebook's own reads: the story stored verbatim, the counts, the
// revision kinds, the correction notification, the tombstone and the raw .md's 410, and the
// publish answer's `similar` (for a fail story: successes that may answer it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../../src/app/context/app-context.ts';
import { createToken } from '../../../src/app/oauth-server/tokens.ts';
import { useAppFixture } from '../../helpers/app-fixture.ts';
import { eventually } from '../../helpers/eventually.ts';
import { type NpmStart, startNpmStart } from '../../helpers/npm-start.ts';
import { failStory, storyTitled } from '../../helpers/stories.ts';
import { testEndpoint } from '../../helpers/test-table.ts';
import { topicStory } from '../../helpers/topic-stories.ts';

const SKILL_HEADER = { 'X-Worklore-Skill': '2026-08-21.1' };
/** What curl sends for `-d '…'` without a -H Content-Type. */
const CURL_FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

const app = useAppFixture('e2e-worklore-compat');
type Person = Caller & { token: string };
let alice: Person;
let bob: Person;
let server: NpmStart;

beforeAll(async () => {
  const person = async (handle: string): Promise<Person> => {
    const made = await createToken(app.ctx(), { handle, expiresInSeconds: 3600 });
    return { token: made.token, account: made.account, handle };
  };
  alice = await person('alice');
  bob = await person('bob');
  server = await startNpmStart({
    endpoint: testEndpoint(),
    table: app.ctx().store.tableName,
    env: { LOREBOOK_RATE_LIMIT_PER_MINUTE: '100000' },
  });
}, 120_000);

afterAll(async () => {
  await server?.stop();
}, 60_000);

/** One call as the skill writes it: its auth header, its skill header, the body it sends. */
async function skillCall(
  method: string,
  path: string,
  options: { who?: Person; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; text: string; json: () => Record<string, unknown> }> {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: {
      ...SKILL_HEADER,
      ...(options.who === undefined ? {} : { Authorization: `Bearer ${options.who.token}` }),
      ...options.headers,
    },
    ...(options.body === undefined ? {} : { body: options.body }),
  });
  const text = await response.text();
  return { status: response.status, text, json: () => JSON.parse(text) as Record<string, unknown> };
}

const publish = (who: Person, markdown: string) =>
  skillCall('POST', '/v1/stories', { who, headers: { 'Content-Type': 'text/markdown' }, body: markdown });

describe("worklore's skill against npm start", () => {
  it('register: device/start with no body answers the codes; device/poll with {"device_code"} as curl sends it is read (pending)', async () => {
    const started = await skillCall('POST', '/v1/auth/device/start');
    expect(started.status).toBe(200);
    const codes = started.json();
    expect(codes).toMatchObject({
      device_code: expect.any(String),
      user_code: expect.any(String),
      verification_uri: `${server.baseUrl}/device`,
      interval: expect.any(Number),
    });
    const polled = await skillCall('POST', '/v1/auth/device/poll', {
      headers: CURL_FORM,
      body: JSON.stringify({ device_code: codes.device_code }),
    });
    expect(polled.status).toBe(400);
    expect(polled.json().error).toBe('authorization_pending');
  });

  it('publish, read raw, reproduce, correct with X-Revision-* headers, check, hide and restore: each lands as worklore describes', async () => {
    const markdown = storyTitled('Switching from worklore');
    const published = await publish(alice, markdown);
    expect(published.status).toBe(201);
    const { slug } = published.json() as { slug: string };
    expect(published.json().story_url).toBe(`${server.baseUrl}/s/${slug}`);

    const raw = await skillCall('GET', `/s/${slug}.md`);
    expect(raw.status).toBe(200);
    expect(raw.text).toBe(markdown);

    const reproduced = await skillCall('POST', `/v1/stories/${slug}/reproduced`, {
      who: bob,
      headers: CURL_FORM,
      body: JSON.stringify({
        result: 'worked',
        note: 'Followed the steps on a fresh clone.',
        agent: { name: 'claude-code', version: '2.0.14', model: 'claude-sonnet-4-5' },
        env: { os: 'linux' },
        duration_min: 18,
        tokens: 52000,
      }),
    });
    // curl labels `-d` bodies form-encoded; the skill's JSON must still be read as JSON.
    expect(reproduced.status, reproduced.text).toBe(200);
    expect(reproduced.json()).toMatchObject({ counted: true, counts: { worked: 1, partial: 0, failed: 0 }, reproducers_count: 1 });

    const corrected = await skillCall('PUT', `/v1/stories/${slug}`, {
      who: alice,
      headers: {
        'Content-Type': 'text/markdown',
        'X-Revision-Kind': 'correction',
        'X-Revision-Note': 'Step 2 named the wrong port.',
        'X-Revision-Source': 'https://example.com/notes/port',
      },
      body: storyTitled('Switching from worklore', { extra: 'The port is 8788, not 8787.' }),
    });
    expect(corrected.status, corrected.text).toBe(200);
    expect(corrected.json()).toMatchObject({ revision: 2, notified: 1, story_url: `${server.baseUrl}/s/${slug}` });
    const story = (await skillCall('GET', `/v1/stories/${slug}`)).json() as { revisions: { kind: string; note?: string }[] };
    expect(story.revisions.map((revision) => revision.kind).sort()).toEqual(['correction', 'publish']);
    await eventually(
      async () => {
        const inbox = (await skillCall('GET', '/v1/notifications?limit=100', { who: bob })).json() as {
          notifications: { kind: string; story: string }[];
        };
        return inbox.notifications.some((notice) => notice.kind === 'correction' && notice.story === slug) ? true : undefined;
      },
      "the correction in bob's inbox",
      10_000,
    );

    const checked = (who: Person, target: string, result: string) =>
      skillCall('POST', `/v1/stories/${target}/checked`, { who, headers: CURL_FORM, body: JSON.stringify({ result }) });
    const bobChecked = await checked(bob, slug, 'has_problem');
    expect(bobChecked.status, bobChecked.text).toBe(200);
    expect(bobChecked.json()).toMatchObject({ counted: true, checks: { has_problem: 1, no_problem: 0 } });
    expect((await checked(alice, slug, 'no_problem')).json()).toMatchObject({ counted: false });
    expect((await checked(bob, slug, 'not_applicable')).status).toBe(422);
    const withoutCheck = (await publish(alice, storyTitled('Switching without a check', { check: false }))).json() as { slug: string };
    expect((await checked(bob, withoutCheck.slug, 'no_problem')).status).toBe(409);
    const privateStory = (await publish(alice, storyTitled('Switching in private', { visibility: 'private' }))).json() as { slug: string };
    expect((await checked(bob, privateStory.slug, 'no_problem')).status).toBe(404);

    const hide = (hidden: boolean) =>
      skillCall('POST', `/v1/stories/${slug}/visibility`, { who: alice, headers: CURL_FORM, body: JSON.stringify({ hidden }) });
    expect((await hide(true)).json()).toMatchObject({ hidden: true });
    expect((await skillCall('GET', `/s/${slug}.md`)).status).toBe(410);
    const tombstone = await skillCall('GET', `/s/${slug}`);
    expect(tombstone.status).toBe(410);
    expect(tombstone.text).toContain('Switching from worklore');
    const feed = (await skillCall('GET', '/v1/stories?limit=50')).json() as { stories: { slug: string }[] };
    expect(feed.stories.map((listed) => listed.slug)).not.toContain(slug);

    expect((await hide(false)).json()).toMatchObject({ hidden: false });
    expect((await skillCall('GET', `/s/${slug}.md`)).status).toBe(200);
    expect(((await skillCall('GET', `/v1/stories/${slug}`)).json() as { counts: Record<string, number> }).counts).toMatchObject({
      worked: 1,
    });
  });

  it('publish answers the live URL and `similar` stories; for a fail story, similar successes as possible answers', async () => {
    const answer = (topic: { title: string; type: 'success' | 'fail' }) =>
      topicStory({
        ...topic,
        tags: ['chromium', 'fonts'],
        stack: ['debian', 'node'],
        summary: 'Headless Chromium rendered every label as boxes.',
      });
    const fixed = (await publish(bob, answer({ title: 'Chromium fonts fixed in a Debian container', type: 'success' }))).json() as {
      slug: string;
    };
    await publish(bob, answer({ title: 'Chromium fonts still missing after fc-cache', type: 'fail' }));

    const asked = await publish(alice, failStory());
    expect(asked.status, asked.text).toBe(201);
    const { slug, story_url, similar } = asked.json() as { slug: string; story_url: string; similar: Record<string, unknown>[] };
    expect(story_url).toBe(`${server.baseUrl}/s/${slug}`);
    expect(similar[0]).toMatchObject({ slug: fixed.slug, relation: 'may_answer', story_url: `${server.baseUrl}/s/${fixed.slug}` });
    for (const story of similar) expect(story).toMatchObject({ type: 'success', title: expect.any(String) });
  });
});
