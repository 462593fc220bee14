// The account page's paths, apart from its HTML so the routes mount without loading the page (it loads on first use).
export const ACCOUNT_PATH = '/account';
export const ACCOUNT_REVOKE_PATH = '/account/revoke';
export const ACCOUNT_EXPORT_PATH = '/account/export';
export const ACCOUNT_REDACT_PATH = '/account/redact';
export const ACCOUNT_DELETE_PATH = '/account/delete';
