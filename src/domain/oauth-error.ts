// Refusals of the OAuth endpoints (/oauth/register, /oauth/token, /oauth/revoke, /oauth/authorize).
// OAuth clients — the MCP SDK among them — parse RFC 6749 §5.2 bodies (`error`,
// `error_description`), not problem+json, so these endpoints keep that wire shape; every other
// surface keeps the LorebookError taxonomy (docs/design.md#errors). docs/auth.md says how the two sit together.

/** RFC 6749 §5.2, RFC 7591 §3.2.2, RFC 8707 §2 and RFC 7009 §2.2.1 error codes. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'unsupported_token_type'
  | 'invalid_target'
  | 'invalid_scope'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'access_denied';

/** Thrown when an OAuth request is refused; `status` is the HTTP status of the answer. */
export class OAuthError extends Error {
  readonly error: OAuthErrorCode;
  readonly status: 400 | 401;

  constructor(error: OAuthErrorCode, description: string, status: 400 | 401 = 400) {
    super(description);
    this.name = 'OAuthError';
    this.error = error;
    this.status = status;
  }

  toBody(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.error, error_description: this.message };
  }
}

export const isOAuthError = (value: unknown): value is OAuthError => value instanceof OAuthError;
