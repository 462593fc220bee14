// Every write tool refuses a secret at the door with nothing written: each write tool of the access
// rule (src/auth/access-rule.ts) is called through its MCP tool definition over this suite's table
// on DynamoDB Local, with a live-looking credential in one of its text arguments, and answers
// secret_detected while the whole table (every attribute of every item, op records included)
// stays as it was. A write tool added later without a case here fails the first test.
import { beforeAll, describe, expect, it } from 'vitest';
import { publishStory } from '../../../src/app/publish-story.ts';
import { createStorySearch } from '../../../src/app/search/story-search.ts';
import { MCP_TOOL_SCOPE } from '../../../src/auth/access-rule.ts';
import { CATEGORY_TIERS } from '../../../src/domain/capability/categories.ts';
import { TOOLS } from '../../../src/mcp/tools/index.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { type FakeSecret, fakeSecrets } from '../../helpers/fake-secrets.ts';
import { refusal } from '../../helpers/refusal.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('every-write-refuses-secrets');
const alice = caller('alice');
const secret = (kind: string, seed = 25): FakeSecret => fakeSecrets(seed).find((found) => found.kind === kind) as FakeSecret;
const github = secret('github_token');
/** A GitHub token fits an op_id's characters: the one text argument every write has. */
const token = github.text.slice(github.text.indexOf('=') + 1);
const [category, tier] = Object.entries(CATEGORY_TIERS)[0] as [string, string];
let slug = '';

type Case = { args: () => Record<string, unknown>; field: string; secret: FakeSecret };

/** One call per write tool, its secret where an agent would most likely paste it. */
const CASES: Record<string, Case[]> = {
  publish_story: [
    {
      args: () => ({ markdown: storyTitled('Deploy notes', { extra: secret('aws_secret_access_key').text }) }),
      field: 'markdown',
      secret: secret('aws_secret_access_key'),
    },
    {
      args: () => ({ parts: { title: 'Deploy notes', narrative: `![${secret('slack_token').text}](https://example.com/a.png) it ran.` } }),
      field: 'parts.narrative',
      secret: secret('slack_token'),
    },
    {
      args: () => ({ parts: { title: 'Deploy notes', image: 'https://example.com/a.png', image_alt: secret('google_api_key').text } }),
      field: 'parts.image_alt',
      secret: secret('google_api_key'),
    },
    { args: () => ({ markdown: storyTitled(`Deploy notes ${secret('npm_token').text}`) }), field: 'markdown', secret: secret('npm_token') },
    {
      args: () => ({ markdown: storyTitled('Deploy notes', { extra: secret('stripe_secret_key').text }) }),
      field: 'markdown',
      secret: secret('stripe_secret_key'),
    },
  ],
  edit_story: [
    {
      args: () => ({ slug, markdown: storyTitled('Deploy notes'), kind: 'correction', note: secret('openai_api_key').text }),
      field: 'note',
      secret: secret('openai_api_key'),
    },
    {
      args: () => ({ slug, markdown: storyTitled('Deploy notes', { extra: secret('private_key').text }), kind: 'addition' }),
      field: 'markdown',
      secret: secret('private_key'),
    },
  ],
  report_reproduction: [
    {
      args: () => ({ slug, result: 'worked', note: `It worked with ${secret('slack_token').text}` }),
      field: 'note',
      secret: secret('slack_token'),
    },
    {
      args: () => ({ slug, result: 'worked', env: { os: secret('google_api_key').text.split('"')[1] } }),
      field: 'env.os',
      secret: secret('google_api_key'),
    },
  ],
  withdraw_reproduction: [{ args: () => ({ slug, op_id: token }), field: 'op_id', secret: github }],
  report_check: [
    {
      args: () => ({ slug, result: 'has_problem', note: secret('database_url_password').text }),
      field: 'note',
      secret: secret('database_url_password'),
    },
  ],
  report_drift: [
    {
      args: () => ({
        slug,
        sha256: 'a'.repeat(64),
        findings: [
          {
            category,
            tier,
            rule: 'download-piped-to-shell',
            evidence: `curl -H "Authorization: Bearer ${secret('jwt').text.split(' ').pop()}"`,
            line: 3,
            section: 'reproduce',
            via: 'shell',
          },
        ],
      }),
      field: 'findings.0.evidence',
      secret: secret('jwt'),
    },
  ],
  flag_story: [
    {
      args: () => ({ slug, reason: 'secret_or_personal_data', note: `It shows ${secret('slack_token').text}` }),
      field: 'note',
      secret: secret('slack_token'),
    },
  ],
  unflag_story: [{ args: () => ({ slug, op_id: token }), field: 'op_id', secret: github }],
  appeal_moderation: [
    { args: () => ({ slug, note: `My key was ${secret('slack_token').text}` }), field: 'note', secret: secret('slack_token') },
  ],
  set_visibility: [{ args: () => ({ slug, hidden: true, op_id: token }), field: 'op_id', secret: github }],
  mark_notifications_read: [
    { args: () => ({ up_to: 'N#2026-01-01T00:00:00.000Z#0123456789abcdef', op_id: token }), field: 'op_id', secret: github },
  ],
  upload_image: [{ args: () => ({ data: 'iVBORw0KGgo=', type: 'image/png', op_id: token }), field: 'op_id', secret: github }],
  draft_story_for: [
    {
      args: () => ({
        markdown: storyTitled('Drafted notes', { extra: secret('anthropic_api_key').text }),
        invitee_note: 'for you',
        draft_key: 'draft-key-0000000001',
      }),
      field: 'markdown',
      secret: secret('anthropic_api_key'),
    },
    {
      args: () => ({
        markdown: storyTitled('Drafted notes'),
        invitee_note: `use ${secret('basic_auth_url').text}`,
        draft_key: 'draft-key-0000000002',
      }),
      field: 'invitee_note',
      secret: secret('basic_auth_url'),
    },
  ],
  claim_draft: [
    {
      args: () => ({ claim_url: `https://lorebook.test/claim?k=${secret('lorebook_token').text.split('=').pop()}` }),
      field: 'claim_url',
      secret: secret('lorebook_token'),
    },
  ],
  decline_draft: [{ args: () => ({ token: 'abc', op_id: token }), field: 'op_id', secret: github }],
  withdraw_draft: [{ args: () => ({ draft_id: 'a'.repeat(64), op_id: token }), field: 'op_id', secret: github }],
  publish_draft: [
    {
      args: () => ({ draft_id: 'a'.repeat(64), markdown: storyTitled('Drafted notes', { extra: secret('aws_access_key_id').text }) }),
      field: 'markdown',
      secret: secret('aws_access_key_id'),
    },
  ],
  redact_story: [
    {
      args: () => ({ slug, base_revision: 1, markdown: storyTitled('Deploy notes', { extra: secret('aws_secret_access_key').text }) }),
      field: 'markdown',
      secret: secret('aws_secret_access_key'),
    },
  ],
};

const writeTools = Object.entries(MCP_TOOL_SCOPE)
  .filter(([, scope]) => scope === 'lorebook:write')
  .map(([name]) => name);

beforeAll(async () => {
  slug = (await publishStory(app.ctx(), alice, { markdown: storyTitled('Deploy notes') })).slug;
});

let search: ReturnType<typeof createStorySearch> | undefined;

describe('every write refuses a secret at the door', () => {
  it('every write tool of the access rule has a case here (a new write tool cannot skip the scan unnoticed)', () => {
    expect(Object.keys(CASES).sort()).toEqual([...writeTools].sort());
  });

  const cases = Object.entries(CASES).flatMap(([tool, list]) => list.map((one) => [tool, one.field, one] as const));
  it.each(cases)(
    '%s refuses a secret in `%s` with secret_detected, naming field and kind; nothing is written',
    async (name, field, one) => {
      const tool = TOOLS.find((defined) => defined.name === name);
      expect(tool, name).toBeDefined();
      search ??= createStorySearch(app.ctx());
      const before = await app.allItems();
      const error = await refusal((tool as (typeof TOOLS)[number]).run({ ctx: app.ctx(), search }, alice, one.args()));
      expect(error.code).toBe('secret_detected');
      expect(error.details?.findings).toContainEqual(expect.objectContaining({ field, kind: one.secret.kind }));
      expect(error.message).not.toContain(one.secret.distinctive.slice(0, 8));
      const after = await app.allItems();
      expect(after).toEqual(before);
      expect(JSON.stringify(after)).not.toContain(one.secret.distinctive);
    },
  );
});

describe('a refused write delivered again', () => {
  it('the same call twice and 16 at once, with an op_id: each answers the same secret_detected and the table never changes', async () => {
    search ??= createStorySearch(app.ctx());
    const tool = TOOLS.find((defined) => defined.name === 'report_reproduction') as (typeof TOOLS)[number];
    const args = { slug, result: 'worked', note: secret('slack_token').text, op_id: 'refused-report-0001' };
    const before = await app.allItems();
    const call = () => refusal(tool.run({ ctx: app.ctx(), search: search as ReturnType<typeof createStorySearch> }, alice, args));
    const first = await call();
    const again = await call();
    const parallel = await Promise.all(Array.from({ length: 16 }, call));
    for (const answer of [again, ...parallel]) expect(answer.toBody()).toEqual(first.toBody());
    expect(first.code).toBe('secret_detected');
    expect(await app.allItems()).toEqual(before);
  });
});
