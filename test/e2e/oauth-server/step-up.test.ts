// Scopes and the step-up challenge against the real server: a token that lacks the scope a call
// needs is answered 403 with `WWW-Authenticate: Bearer error="insufficient_scope", scope=…,
// resource_metadata=…` (MCP authorization, scope challenge), on /mcp and on /v1, and nothing is
// written; authorizing again with the challenge's scope gives a token that makes the call.
import { beforeAll, describe, expect, it } from 'vitest';
import { mintToken, tokenId } from '../../../src/auth/token-secret.ts';
import { createTokenItems } from '../../../src/store/identity/token-items.ts';
import { writeAtomically } from '../../../src/store/run-write.ts';
import { epochSeconds } from '../../../src/store/store.ts';
import { useLorebookServer } from '../../helpers/lorebook-server.ts';
import {
  authorizationCode,
  authorizePath,
  callListNotifications,
  exchange,
  get,
  newClient,
  type Person,
  pkcePair,
  post,
  refreshWith,
  returnLinkOf,
  signedInPerson,
} from '../../helpers/oauth/oauth-flow.ts';
import { storyTitled } from '../../helpers/stories.ts';

const server = useLorebookServer('e2e-oauth-step-up');
const base = (): string => server.baseUrl();
const stories = async () => (await server.app.state()).filter((item) => String(item.PK).startsWith('STORY#'));
const challenge = (scope: string): string =>
  `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${base()}/.well-known/oauth-protected-resource"`;

let alice: Person;
beforeAll(async () => {
  alice = await signedInPerson(server.app.ctx(), 'alice');
});

async function mcpCall(token: string, name: string, args: Record<string, unknown>) {
  const response = await fetch(`${base()}/mcp`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json, text/event-stream',
      'MCP-Protocol-Version': '2025-06-18',
      Authorization: `Bearer ${token}`,
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } }),
  });
  return {
    status: response.status,
    challenge: response.headers.get('www-authenticate'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

async function readOnlyOAuthToken(): Promise<{ access: string; refresh: string; client: Awaited<ReturnType<typeof newClient>> }> {
  const client = await newClient(base(), 'Reader');
  const { code, pkce } = await authorizationCode(base(), alice, client, { scope: 'lorebook:read' });
  const token = await exchange(base(), client, code, pkce.verifier);
  expect(token.json()).toMatchObject({ scope: 'lorebook:read' });
  return { access: String(token.json().access_token), refresh: String(token.json().refresh_token), client };
}

describe('a read-only OAuth token on /mcp', () => {
  it('reads (list_notifications), but a write tool is 403 insufficient_scope with the step-up scope, and nothing is written', async () => {
    const { access } = await readOnlyOAuthToken();
    expect((await callListNotifications(base(), access)).status).toBe(200);
    const before = await stories();
    const refused = await mcpCall(access, 'publish_story', { markdown: storyTitled('Needs write') });
    expect(refused.status).toBe(403);
    expect(refused.challenge).toBe(challenge('lorebook:read lorebook:write'));
    expect(refused.body).toMatchObject({
      jsonrpc: '2.0',
      id: 7,
      error: { data: { code: 'forbidden', details: { reason: 'insufficient_scope', needed: 'lorebook:write', held: ['lorebook:read'] } } },
    });
    expect(await stories()).toEqual(before);
  });

  it('authorizing again with the challenge scope gives a token that publishes', async () => {
    const { client } = await readOnlyOAuthToken();
    const { code, pkce } = await authorizationCode(base(), alice, client, { scope: 'lorebook:read lorebook:write' });
    const token = await exchange(base(), client, code, pkce.verifier);
    const published = await mcpCall(String(token.json().access_token), 'publish_story', { markdown: storyTitled('Stepped up') });
    expect(published.status).toBe(200);
    expect(published.body).toMatchObject({ result: { structuredContent: { slug: expect.any(String) } } });
  });

  it('a write-only token may write but not read notifications: 403 asking for both', async () => {
    const client = await newClient(base(), 'Writer');
    const { code, pkce } = await authorizationCode(base(), alice, client, { scope: 'lorebook:write' });
    const token = await exchange(base(), client, code, pkce.verifier);
    const refused = await callListNotifications(base(), String(token.json().access_token));
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toBe(challenge('lorebook:read lorebook:write'));
  });

  it('the refreshed token keeps the read-only scope, and a refresh asking for more is invalid_scope', async () => {
    const { client, refresh } = await readOnlyOAuthToken();
    const wider = await post(base(), '/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: refresh,
      client_id: client.client_id,
      scope: 'lorebook:read lorebook:write',
    });
    expect(wider.status).toBe(400);
    expect(wider.json()).toMatchObject({ error: 'invalid_scope' });
    const same = await refreshWith(base(), client, refresh);
    expect(same.json()).toMatchObject({ scope: 'lorebook:read' });
    expect((await mcpCall(String(same.json().access_token), 'publish_story', { markdown: storyTitled('Still no') })).status).toBe(403);
  });
});

describe('a read-only token on /v1', () => {
  it('GET /v1/notifications answers; POST /v1/stories is 403 problem+json with the challenge, and nothing is written', async () => {
    const ctx = server.app.ctx();
    const token = mintToken();
    const now = ctx.store.now();
    await writeAtomically(
      ctx.store,
      createTokenItems({
        token_hash: tokenId(token),
        account: alice.did,
        created_at: new Date(now).toISOString(),
        expires_at: epochSeconds(now) + 3600,
        scope: 'lorebook:read',
      }),
    );
    const auth = { Authorization: `Bearer ${token}` };
    expect((await fetch(`${base()}/v1/notifications`, { headers: auth })).status).toBe(200);
    const before = await stories();
    const refused = await fetch(`${base()}/v1/stories`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'text/markdown' },
      body: storyTitled('Needs write on v1'),
    });
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(refused.headers.get('www-authenticate')).toBe(challenge('lorebook:read lorebook:write'));
    expect(await refused.json()).toMatchObject({ code: 'forbidden', details: { reason: 'insufficient_scope', needed: 'lorebook:write' } });
    expect(await stories()).toEqual(before);
  });
});

describe('asking for scopes', () => {
  it('an unknown scope is invalid_scope, offered back to the client with iss, and nothing is written', async () => {
    const client = await newClient(base(), 'Greedy');
    const page = await get(
      base(),
      authorizePath({
        client_id: client.client_id,
        redirect_uri: client.redirect_uri,
        code_challenge: pkcePair().challenge,
        scope: 'admin',
      }),
      alice.cookie,
    );
    expect(page.status).toBe(400);
    const back = returnLinkOf(page.text);
    expect(back.searchParams.get('error')).toBe('invalid_scope');
    expect(back.searchParams.get('iss')).toBe(base());
  });

  it('the consent page lists only what the asked scopes allow', async () => {
    const client = await newClient(base(), 'Narrow');
    const page = await get(
      base(),
      authorizePath({
        client_id: client.client_id,
        redirect_uri: client.redirect_uri,
        code_challenge: pkcePair().challenge,
        scope: 'lorebook:read',
      }),
      alice.cookie,
    );
    expect(page.status).toBe(200);
    expect(page.text).toContain('read your notifications');
    expect(page.text).not.toContain('publish stories');
  });

  it('a denial carries iss too (RFC 9207)', async () => {
    const client = await newClient(base(), 'Denied');
    const page = await get(
      base(),
      authorizePath({ client_id: client.client_id, redirect_uri: client.redirect_uri, code_challenge: pkcePair().challenge, state: 's' }),
      alice.cookie,
    );
    const secret = /name="consent" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    const denied = await post(base(), '/oauth/consent', { consent: secret, decision: 'deny' }, { Cookie: alice.cookie, Origin: base() });
    const location = new URL(denied.headers.get('location') ?? '');
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('iss')).toBe(base());
  });
});
