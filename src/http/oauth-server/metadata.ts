// RFC 8414 authorization-server metadata. The issuer is the base URL (no path), so the document
// sits at the root well-known path; the protected-resource metadata (well-known.ts) names this
// issuer in `authorization_servers`.
import type { OAuthServer } from '../../auth/oauth/oauth-settings.ts';
import { SCOPES } from '../../auth/oauth/scopes.ts';

export const AUTHORIZATION_SERVER_METADATA_PATH = '/.well-known/oauth-authorization-server';
export const OAUTH_PATHS = {
  authorize: '/oauth/authorize',
  consent: '/oauth/consent',
  token: '/oauth/token',
  register: '/oauth/register',
  revoke: '/oauth/revoke',
} as const;

export function authorizationServerMetadata(oauth: OAuthServer): Record<string, unknown> {
  return {
    issuer: oauth.issuer,
    authorization_endpoint: `${oauth.issuer}${OAUTH_PATHS.authorize}`,
    token_endpoint: `${oauth.issuer}${OAUTH_PATHS.token}`,
    registration_endpoint: `${oauth.issuer}${OAUTH_PATHS.register}`,
    revocation_endpoint: `${oauth.issuer}${OAUTH_PATHS.revoke}`,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    code_challenge_methods_supported: ['S256'],
    token_endpoint_auth_methods_supported: ['none'],
    revocation_endpoint_auth_methods_supported: ['none'],
    authorization_response_iss_parameter_supported: true,
    // A client may name itself by the URL of its metadata document instead of registering.
    client_id_metadata_document_supported: true,
    scopes_supported: [...SCOPES],
    service_documentation: `${oauth.issuer}/v1/openapi.json`,
  };
}
