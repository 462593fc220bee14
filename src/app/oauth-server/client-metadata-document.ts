// A client that names itself by URL (a Client ID Metadata Document, draft-ietf-oauth-client-id-
// metadata-document): lorebook fetches the JSON document at that URL through the SSRF-safe fetch
// (public https addresses only, at most CLIENT_DOCUMENT_MAX_BYTES, within the configured time,
// no redirects), keeps it by its cache headers (at least the outbound cache floor), and judges it
// as strictly as a registration. Every fetch is paid for by the requesting address first and runs
// in one of the process's outbound slots; a failed look-up is remembered a while (design.md#admission).
// Every fault is an `invalid_client` whose description says what the client's author must fix.
import { z } from 'zod';
import { FetchSlotsFull } from '../../../integrations/safe-fetch/fetch-slots.ts';
import { type CachedDocument, freshnessMs } from '../../auth/oauth/client-document-cache.ts';
import { CLIENT_DOCUMENT_MAX_BYTES, clientIdUrlProblem } from '../../auth/oauth/client-id-url.ts';
import type { OAuthServer } from '../../auth/oauth/oauth-settings.ts';
import { redirectUriProblem } from '../../auth/oauth/redirect-uri.ts';
import { OAuthError } from '../../domain/oauth-error.ts';
import type { KnownClient } from '../../store/identity/oauth-client-items.ts';
import { CLIENT_METADATA_FIELDS, SUPPORTED_GRANT_TYPES } from './client-metadata-fields.ts';

// Loose like a registration: unknown metadata is ignored; a secret is named so it can be refused.
const documentSchema = z.looseObject({
  client_id: z.string(),
  ...CLIENT_METADATA_FIELDS,
  client_secret: z.unknown().optional(),
  client_secret_expires_at: z.unknown().optional(),
});

const refused = (clientId: string, why: string): OAuthError =>
  new OAuthError('invalid_client', `The client metadata document at ${clientId} ${why}`);

/** The client a fetched document describes, or the invalid_client that says what is wrong with it. Pure. */
export function clientFromDocument(clientId: string, body: unknown): KnownClient {
  const parsed = documentSchema.safeParse(body);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(document)'}: ${issue.message}`).join('; ');
    throw refused(clientId, `is not valid (${fields}). It must be a JSON object with client_id and redirect_uris (1 to 10 URIs).`);
  }
  const doc = parsed.data;
  if (doc.client_id !== clientId)
    throw refused(clientId, `names client_id "${doc.client_id.slice(0, 200)}": it must be exactly the document's own URL.`);
  if (doc.client_secret !== undefined || doc.client_secret_expires_at !== undefined)
    throw refused(clientId, 'holds a client_secret: a metadata document is public, so it must not carry a shared secret.');
  if (doc.token_endpoint_auth_method !== undefined && doc.token_endpoint_auth_method !== 'none')
    throw refused(
      clientId,
      `says token_endpoint_auth_method "${doc.token_endpoint_auth_method}": lorebook accepts public clients only ("none", proving themselves with PKCE).`,
    );
  for (const uri of doc.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem !== undefined) throw refused(clientId, `lists the redirect URI "${uri}", which ${problem}.`);
  }
  const grantTypes = doc.grant_types ?? [...SUPPORTED_GRANT_TYPES];
  const unknownGrant = grantTypes.find((grant) => !SUPPORTED_GRANT_TYPES.includes(grant));
  if (unknownGrant !== undefined)
    throw refused(clientId, `lists grant type "${unknownGrant}"; supported: ${SUPPORTED_GRANT_TYPES.join(', ')}.`);
  if (!grantTypes.includes('authorization_code')) throw refused(clientId, 'must list the authorization_code grant type.');
  const unknownResponse = (doc.response_types ?? ['code']).find((type) => type !== 'code');
  if (unknownResponse !== undefined) throw refused(clientId, `lists response type "${unknownResponse}"; only "code" is supported.`);
  return {
    client_id: clientId,
    client_name: doc.client_name ?? new URL(clientId).host,
    redirect_uris: doc.redirect_uris,
    grant_types: grantTypes,
    metadata_document: true,
  };
}

/** The client a URL client_id names: from the cache while fresh, else fetched (revalidated with its ETag when it has one). */
export async function clientFromMetadataDocument(oauth: OAuthServer, clientId: string, nowMs: number): Promise<KnownClient> {
  const problem = clientIdUrlProblem(clientId, oauth.settings.allowPrivateFetch);
  if (problem !== undefined) throw new OAuthError('invalid_client', `The client_id "${clientId.slice(0, 200)}" ${problem}.`);
  const { cache, failures, outbound, spend } = oauth.clientDocuments;
  const cached = cache.get(clientId);
  if (cached !== undefined && cached.freshUntil > nowMs) return clientFromDocument(clientId, cached.body);
  const failed = failures.get(clientId);
  if (failed !== undefined && failed.until > nowMs) throw failed.error;
  // The requesting address pays before anything is fetched; a refusal (rate_limited) is not remembered as the document's failure.
  await spend?.();
  let entry: CachedDocument;
  try {
    entry = await outbound.slots.run(() => fetchDocument(oauth, clientId, nowMs, cached));
  } catch (error) {
    if (error instanceof FetchSlotsFull) throw refused(clientId, 'was not fetched: too many look-ups are on their way. Try again shortly.');
    failures.set(clientId, { error, until: nowMs + outbound.settings.failureCacheMs });
    throw error;
  }
  failures.delete(clientId);
  cache.set(clientId, entry);
  return clientFromDocument(clientId, entry.body);
}

async function fetchDocument(
  oauth: OAuthServer,
  clientId: string,
  nowMs: number,
  stale: CachedDocument | undefined,
): Promise<CachedDocument> {
  let response: Response;
  try {
    response = await oauth.clientDocuments.fetch(clientId, {
      headers: { Accept: 'application/json', ...(stale?.etag === undefined ? {} : { 'If-None-Match': stale.etag }) },
      // The document must be served at its own URL: a redirect could move it anywhere.
      redirect: 'manual',
    });
  } catch (error) {
    throw refused(clientId, `could not be fetched (${reasonOf(error, oauth.settings.clientMetadataTimeoutMs)}).`);
  }
  const freshUntil = nowMs + freshnessMs(response.headers.get('cache-control'), oauth.clientDocuments.outbound.settings.cacheFloorMs);
  if (response.status === 304 && stale !== undefined) {
    await response.body?.cancel();
    return { ...stale, freshUntil };
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw refused(clientId, `answered HTTP ${response.status}; it must answer 200 with the JSON document itself (no redirects).`);
  }
  let body: unknown;
  try {
    body = JSON.parse(await response.text());
  } catch (error) {
    throw refused(
      clientId,
      /size|large|length/i.test(String(error))
        ? `is larger than ${CLIENT_DOCUMENT_MAX_BYTES} bytes.`
        : `is not JSON (${reasonOf(error, oauth.settings.clientMetadataTimeoutMs)}).`,
    );
  }
  const etag = response.headers.get('etag') ?? undefined;
  return { body, freshUntil, ...(etag === undefined ? {} : { etag }) };
}

/** What went wrong, in words the client's author can act on; never a stack. */
function reasonOf(error: unknown, timeoutMs: number): string {
  const text = `${error instanceof Error ? error.message : String(error)} ${error instanceof Error && error.cause instanceof Error ? error.cause.message : ''}`;
  if (/abort|timeout|timed out/i.test(text)) return `it did not arrive within ${timeoutMs} ms`;
  if (/size|too large|length/i.test(text)) return `it is larger than ${CLIENT_DOCUMENT_MAX_BYTES} bytes`;
  if (/unicast|private|loopback|forbidden|ssrf|not allowed|invalid hostname|port/i.test(text))
    return 'its address is loopback, private or otherwise not public, or not https on the default port: lorebook fetches metadata documents from public https addresses only';
  return text.trim().slice(0, 200) || 'unknown error';
}
