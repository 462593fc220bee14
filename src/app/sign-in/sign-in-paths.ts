// Where Sign in with Bluesky lives on lorebook's origin. Apart from the OAuth client
// (bluesky-oauth-client.ts) so the routes can be registered without loading the atproto library,
// which is imported on the first sign-in.
export const CALLBACK_PATH = '/auth/callback';
export const CLIENT_METADATA_PATH = '/oauth/client-metadata.json';
export const JWKS_PATH = '/oauth/jwks.json';
