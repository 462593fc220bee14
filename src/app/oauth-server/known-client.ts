// The client a client_id names, whichever way it introduced itself: registered (`lbc_…`, RFC 7591)
// or by URL (a Client ID Metadata Document). The authorize, token and revocation steps ask here,
// so a document client meets exactly the rules a registered one does (PKCE S256, exact redirect).
import { isClientIdUrl } from '../../auth/oauth/client-id-url.ts';
import type { OAuthServer } from '../../auth/oauth/oauth-settings.ts';
import type { KnownClient } from '../../store/identity/oauth-client-items.ts';
import type { AppContext } from '../context/app-context.ts';
import { findClient } from './register-client.ts';

/** The client, or undefined for an unknown registration; a document client that cannot be used throws its invalid_client. */
export async function knownClient(ctx: AppContext, oauth: OAuthServer, clientId: string): Promise<KnownClient | undefined> {
  if (!isClientIdUrl(clientId)) return findClient(ctx, clientId);
  // Loaded on first use, not at a cold start (what the http function loads at a cold start is
  // bounded: test/unit/infra/lorebook-stack/bundled.test.ts).
  const { clientFromMetadataDocument } = await import('./client-metadata-document.ts');
  return clientFromMetadataDocument(oauth, clientId, ctx.store.now());
}
