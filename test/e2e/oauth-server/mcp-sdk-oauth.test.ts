// The MCP authorization flow as a real MCP client runs it: the SDK's Client and
// StreamableHTTPClientTransport with an OAuthClientProvider get a 401 from publish_story, discover
// lorebook's metadata, register, send the person to authorize with PKCE; the person signs in with
// Bluesky on the real test PDS and approves; the SDK exchanges the code and publishes. The story's
// author is the signed-in DID, shown with its handle.

import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { answerOf } from '../../helpers/lorebook-server.ts';
import { MemoryOAuthProvider } from '../../helpers/oauth/memory-oauth-provider.ts';
import { consentSecretOf } from '../../helpers/oauth/oauth-flow.ts';
import { send } from '../../helpers/signin/http-client.ts';
import { CookieJar, signInWithBluesky } from '../../helpers/signin/sign-in-with-bluesky.ts';
import { useSignInServer } from '../../helpers/signin/use-sign-in-server.ts';
import { storyTitled } from '../../helpers/stories.ts';

const { server, pds } = useSignInServer('e2e-mcp-sdk-oauth');
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
});

/** The person's browser: open the authorization URL, sign in with Bluesky, approve; the code the client gets back. */
async function authorizeInBrowser(
  authorizationUrl: URL,
  person: { handle: string; password: string },
  provider: MemoryOAuthProvider,
): Promise<string> {
  const jar = new CookieJar();
  const base = server.baseUrl();
  const first = await send('GET', authorizationUrl.href, { jar, headers: { accept: 'text/html' } });
  expect(first.status).toBe(302);
  const returnTo = new URL(first.location ?? '').searchParams.get('return_to') ?? '';
  expect(`${base}${returnTo}`).toBe(authorizationUrl.href);
  const { finalUrl } = await signInWithBluesky({
    baseUrl: base,
    handle: person.handle,
    password: person.password,
    returnTo,
    cookieJar: jar,
  });
  const page = await send('GET', finalUrl, { jar, headers: { accept: 'text/html' } });
  expect(page.status).toBe(200);
  expect(page.body).toContain(provider.clientMetadata.client_name);
  expect(page.body).toContain(`@${person.handle}`);
  const approved = await send('POST', `${base}/oauth/consent`, {
    jar,
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: base },
    body: new URLSearchParams({ consent: consentSecretOf(page.body), decision: 'approve' }).toString(),
  });
  expect(approved.status).toBe(303);
  const back = new URL(approved.location ?? '');
  expect(`${back.origin}${back.pathname}`).toBe(provider.redirectUrl);
  expect(back.searchParams.get('state')).toBe(provider.state());
  return back.searchParams.get('code') ?? '';
}

describe('MCP SDK client-side OAuth against lorebook, with Bluesky as the identity provider', () => {
  it('401 -> discovery -> registration -> PKCE authorization -> Bluesky sign-in -> consent -> token -> publish_story as the signed-in DID; an hour later it refreshes on its own', async () => {
    const alice = await pds().createAccount('alice');
    const provider = new MemoryOAuthProvider('Claude-style connector');
    const transport = new StreamableHTTPClientTransport(new URL(`${server.baseUrl()}/mcp`), { authProvider: provider });
    const client = new Client({ name: 'lorebook-oauth-e2e', version: '1.0.0' });
    clients.push(client);
    await client.connect(transport);

    const publish = { name: 'publish_story', arguments: { markdown: storyTitled('Signed in with Bluesky through MCP OAuth') } };
    await expect(client.callTool(publish)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.registrations).toBe(1);
    const authorizationUrl = provider.authorizationUrl;
    if (authorizationUrl === undefined) throw new Error('the SDK did not start the authorization');
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${server.baseUrl()}/oauth/authorize`);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('resource')).toBe(`${server.baseUrl()}/mcp`);

    const code = await authorizeInBrowser(authorizationUrl, alice, provider);
    await transport.finishAuth(code);
    expect(provider.tokens()).toMatchObject({
      token_type: expect.stringMatching(/^bearer$/i),
      access_token: expect.stringMatching(/^lbk_/),
      refresh_token: expect.stringMatching(/^lbr_/),
    });

    const published = answerOf<{ slug: string }>(await client.callTool(publish));
    const story = answerOf<{ author: { account: string; handle: string } }>(
      await client.callTool({ name: 'get_story', arguments: { slug: published.slug } }),
    );
    expect(story.author).toEqual({ account: alice.did, handle: alice.handle });

    // An hour later the access token has expired: the SDK gets the 401 challenge, refreshes
    // (rotating the refresh token) without the person, and the call goes through.
    const before = provider.tokens();
    server.app.advance(3600 * 1000 + 1000);
    answerOf(await client.callTool({ name: 'list_notifications', arguments: {} }));
    expect(provider.tokens()?.access_token).not.toBe(before?.access_token);
    expect(provider.tokens()?.refresh_token).not.toBe(before?.refresh_token);
    expect(provider.registrations).toBe(1);
  });
});
