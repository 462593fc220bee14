// Client ID Metadata Documents (draft-ietf-oauth-client-id-metadata-document; MCP authorization
// 2025-11-25): a client_id that is an https URL names the JSON document that describes the client.
// These are the rules for the URL itself, judged before anything is fetched.

/** A document is a few hundred bytes of metadata; anything past this is refused unread. */
export const CLIENT_DOCUMENT_MAX_BYTES = 5 * 1024;
const MAX_CLIENT_ID_URL_LENGTH = 2000;

/** Registered client_ids are `lbc_…`; a client_id with a URL scheme is a metadata document's URL. */
export const isClientIdUrl = (clientId: string): boolean => /^https?:\/\//i.test(clientId);

/**
 * Why this client_id cannot be a metadata document URL, or undefined when it can: https (http
 * only when private fetches are allowed, for development), a path below the root, no fragment,
 * no user or password, no `.`/`..` segments.
 */
export function clientIdUrlProblem(clientId: string, allowHttp: boolean): string | undefined {
  if (clientId.length > MAX_CLIENT_ID_URL_LENGTH) return `is longer than ${MAX_CLIENT_ID_URL_LENGTH} characters`;
  if (!URL.canParse(clientId)) return 'is not a URL';
  const url = new URL(clientId);
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) return 'must be an https URL';
  if (clientId.includes('#')) return 'must not contain a fragment (#)';
  if (url.username !== '' || url.password !== '') return 'must not contain a user name or password';
  const path = clientId.slice(url.origin.length).split(/[?]/)[0] ?? '';
  if (path.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment))) return 'must not contain . or .. path segments';
  if (url.pathname === '/' || url.pathname === '') return 'must have a path (e.g. https://app.example/oauth/client.json), not only a host';
  return undefined;
}
