// Secrets are refused at the door of the real server: `npm start` (its own process, its real
// stdout and stderr) over this suite's table on DynamoDB Local. A story with a live-looking AWS
// key pair, one with a GitHub token inside a fenced code block, one with a PEM private key, and a
// reproduction report whose note holds a Slack token are each refused with secret_detected through
// MCP (the real SDK client), through /v1, and as a draft (draft_story_for); then neither the
// whole table (every attribute of every item) nor any line the server wrote holds a byte of them.

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToken } from '../../src/app/oauth-server/tokens.ts';
import { useAppFixture } from '../helpers/app-fixture.ts';
import { type FakeSecret, fakeSecrets } from '../helpers/fake-secrets.ts';
import { type NpmStart, startNpmStart } from '../helpers/npm-start.ts';
import { storyTitled } from '../helpers/stories.ts';
import { testEndpoint } from '../helpers/test-table.ts';

const app = useAppFixture('e2e-secrets-at-the-door');
const secrets = fakeSecrets(2025);
const of = (kind: string, nth = 0): FakeSecret => secrets.filter((secret) => secret.kind === kind)[nth] as FakeSecret;
const awsId = of('aws_access_key_id');
const awsKey = of('aws_secret_access_key');
const github = of('github_token');
const pem = of('private_key');
const slack = of('slack_token');
const ALL = [awsId, awsKey, github, pem, slack];

const STORIES = [
  {
    what: 'a live-looking AWS key pair',
    extra: `Then I exported the keys:\n\n${awsId.text}\n${awsKey.text}\n`,
    kinds: ['aws_access_key_id', 'aws_secret_access_key'],
  },
  {
    what: 'a GitHub token inside a fenced code block',
    extra: `The CI step:\n\n\`\`\`sh\n${github.text}\ngh release create v1\n\`\`\`\n`,
    kinds: ['github_token'],
  },
  { what: 'a PEM private key', extra: `The deploy key was:\n\n${pem.text}\n`, kinds: ['private_key'] },
];
const SLACK_NOTE = `Worked once I set ${slack.text} in the environment.`;

let server: NpmStart;
let mcp: Client;
let author = '';
let reader = '';
let slug = '';

const base = (): string => server.baseUrl;
const json = (token: string) => ({ Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' });

async function call(name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  return (await mcp.callTool({ name, arguments: args })) as CallToolResult;
}

async function connect(token: string): Promise<Client> {
  const client = new Client({ name: 'lorebook-e2e-secrets', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${base()}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  await client.listTools();
  return client;
}

/** A story with the secret in its narrative, a title of its own. */
const storyWith = (title: string, extra: string): string => storyTitled(title, { extra: `${extra}\n` });

beforeAll(async () => {
  author = (await createToken(app.ctx(), { handle: 'secret-author', expiresInSeconds: 3600 })).token;
  reader = (await createToken(app.ctx(), { handle: 'secret-reader', expiresInSeconds: 3600 })).token;
  server = await startNpmStart({ endpoint: testEndpoint(), table: app.ctx().store.tableName });
  mcp = await connect(author);
  const published = await call('publish_story', { markdown: storyTitled('A story that holds no secret') });
  expect(published.isError).not.toBe(true);
  slug = (published.structuredContent as { slug: string }).slug;
}, 120_000);

afterAll(async () => {
  await mcp?.close();
  await server?.stop();
}, 60_000);

function expectSecretDetected(body: Record<string, unknown>, kinds: string[], field: string): void {
  expect(body.code).toBe('secret_detected');
  expect(body.retryable).toBe(false);
  const findings = (body.details as { findings: Array<{ field: string; kind: string; line: number }> }).findings;
  for (const kind of kinds) expect(findings).toContainEqual({ field, kind, line: expect.any(Number) });
  const text = JSON.stringify(body);
  for (const secret of ALL) expect(text).not.toContain(secret.distinctive.slice(0, 8));
}

describe('secrets refused at the door of npm start', () => {
  it.each(STORIES)('a story with $what: secret_detected over MCP, /v1 and as a draft', async ({ what, extra, kinds }) => {
    const markdown = storyWith(`Deploy notes with ${what}`, extra);

    const viaMcp = await call('publish_story', { markdown });
    expect(viaMcp.isError).toBe(true);
    expectSecretDetected(viaMcp.structuredContent as Record<string, unknown>, kinds, 'markdown');
    expect((viaMcp.structuredContent as { message: string }).message).toMatch(/ at line \d+ of the story \(field `markdown`\)/);

    const viaHttp = await fetch(`${base()}/v1/stories`, { method: 'POST', headers: json(author), body: JSON.stringify({ markdown }) });
    expect(viaHttp.status).toBe(422);
    expect(viaHttp.headers.get('content-type')).toContain('application/problem+json');
    const problem = (await viaHttp.json()) as Record<string, unknown>;
    expect(problem.type).toBe('urn:lorebook:problem:secret_detected');
    expectSecretDetected(problem, kinds, 'markdown');

    const asDraft = await call('draft_story_for', {
      markdown,
      invitee_note: 'Your session, written up.',
      draft_key: `secret-draft-${kinds[0]}-0001`,
    });
    expect(asDraft.isError).toBe(true);
    expectSecretDetected(asDraft.structuredContent as Record<string, unknown>, kinds, 'markdown');
  });

  it('a reproduction report whose note holds a Slack token: secret_detected over MCP, /v1 and in a draft invitation', async () => {
    const asReader = await connect(reader);
    const viaMcp = (await asReader.callTool({
      name: 'report_reproduction',
      arguments: { slug, result: 'worked', note: SLACK_NOTE },
    })) as CallToolResult;
    await asReader.close();
    expect(viaMcp.isError).toBe(true);
    expectSecretDetected(viaMcp.structuredContent as Record<string, unknown>, ['slack_token'], 'note');

    const viaHttp = await fetch(`${base()}/v1/stories/${slug}/reproductions`, {
      method: 'POST',
      headers: json(reader),
      body: JSON.stringify({ result: 'worked', note: SLACK_NOTE }),
    });
    expect(viaHttp.status).toBe(422);
    expectSecretDetected((await viaHttp.json()) as Record<string, unknown>, ['slack_token'], 'note');

    const asDraft = await call('draft_story_for', {
      markdown: storyTitled('A drafted story without a secret'),
      invitee_note: SLACK_NOTE,
      draft_key: 'secret-draft-slack-note-0001',
    });
    expect(asDraft.isError).toBe(true);
    expectSecretDetected(asDraft.structuredContent as Record<string, unknown>, ['slack_token'], 'invitee_note');
  });

  it('after all of them, no item of the table and no line the server wrote holds a byte of any secret', async () => {
    const table = JSON.stringify(await app.allItems());
    // The scan can see: the story that was published is there, and the server did write lines.
    expect(table).toContain('A story that holds no secret');
    const output = server.output();
    expect(output).toContain('Ctrl-C stops');
    for (const secret of ALL) {
      expect(table, secret.kind).not.toContain(secret.distinctive);
      expect(output, secret.kind).not.toContain(secret.distinctive);
      expect(output, secret.kind).not.toContain(secret.distinctive.slice(0, 12));
    }
    expect(table).not.toContain('Deploy notes with');
    expect(table).not.toContain('A drafted story without a secret');
  });
});
