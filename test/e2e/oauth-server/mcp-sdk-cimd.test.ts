// The MCP SDK's own client-side OAuth with a Client ID Metadata Document (SEP-991): lorebook's
// metadata says client_id_metadata_document_supported, so the SDK skips registration and uses its
// clientMetadataUrl (https, served here with a certificate this process trusts) as client_id; the
// person approves; the SDK exchanges the code and publishes over /mcp. lorebook reaches the
// loopback document only because LOREBOOK_ALLOW_PRIVATE_FETCH is on for this server.

import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOf, useLorebookServer } from '../../helpers/lorebook-server.ts';
import { type HttpsDocumentServer, startHttpsDocumentServer } from '../../helpers/oauth/https-document-server.ts';
import { MemoryOAuthProvider } from '../../helpers/oauth/memory-oauth-provider.ts';
import { consentSecretOf, decide, get, signedInPerson } from '../../helpers/oauth/oauth-flow.ts';
import { storyTitled } from '../../helpers/stories.ts';

const server = useLorebookServer('e2e-mcp-sdk-cimd', { oauthSettings: { allowPrivateFetch: true } });
let docs: HttpsDocumentServer;
const clients: Client[] = [];
beforeAll(async () => {
  docs = await startHttpsDocumentServer();
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await docs.close();
});

/** The SDK's memory provider, naming itself by the URL of its metadata document. */
class DocumentProvider extends MemoryOAuthProvider {
  readonly clientMetadataUrl: string;
  constructor(name: string, clientMetadataUrl: string) {
    super(name);
    this.clientMetadataUrl = clientMetadataUrl;
  }
}

describe('the MCP SDK client with a Client ID Metadata Document', () => {
  it('401 -> discovery -> no registration, client_id = the document URL -> PKCE authorization -> consent -> token -> publish_story', async () => {
    const alice = await signedInPerson(server.app.ctx(), 'alice');
    let provider: DocumentProvider | undefined;
    const documentUrl = docs.serveJson('/oauth/client.json', (url) => ({
      client_id: url,
      client_name: 'SDK document client',
      redirect_uris: [provider?.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    }));
    provider = new DocumentProvider('SDK document client', documentUrl);
    const transport = new StreamableHTTPClientTransport(new URL(`${server.baseUrl()}/mcp`), { authProvider: provider });
    const client = new Client({ name: 'lorebook-cimd-e2e', version: '1.0.0' });
    clients.push(client);
    await client.connect(transport);

    const publish = { name: 'publish_story', arguments: { markdown: storyTitled('Published by a metadata document client') } };
    await expect(client.callTool(publish)).rejects.toBeInstanceOf(UnauthorizedError);
    const authorizationUrl = provider.authorizationUrl;
    if (authorizationUrl === undefined) throw new Error('the SDK did not start the authorization');
    expect(authorizationUrl.searchParams.get('client_id')).toBe(documentUrl);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');

    const page = await get(server.baseUrl(), `${authorizationUrl.pathname}${authorizationUrl.search}`, alice.cookie);
    expect(page.status).toBe(200);
    expect(page.text).toContain('SDK document client');
    expect(page.text).toContain('identified by its metadata document');
    const approved = await decide(server.baseUrl(), alice.cookie, consentSecretOf(page.text), 'approve');
    const back = new URL(approved.headers.get('location') ?? '');
    expect(back.searchParams.get('iss')).toBe(server.baseUrl());
    await transport.finishAuth(back.searchParams.get('code') ?? '');

    const published = answerOf<{ slug: string }>(await client.callTool(publish));
    const story = answerOf<{ author: { account: string } }>(
      await client.callTool({ name: 'get_story', arguments: { slug: published.slug } }),
    );
    expect(story.author.account).toBe(alice.did);
    // No registration happened: nothing of the client is stored.
    const state = await server.app.state();
    expect(state.filter((item) => String(item.PK).startsWith('OAUTHCLIENT#'))).toEqual([]);
    expect(state.find((item) => String(item.PK).startsWith('TOKEN#') && item.client_id !== undefined)).toMatchObject({
      client_id: documentUrl,
    });
  });
});
