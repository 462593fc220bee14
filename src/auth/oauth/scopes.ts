// What a token may do (RFC 6749 §3.3), decided once for MCP, /v1 and the consent page. Two scopes:
//   lorebook:read   calls that need a caller but change nothing (list_notifications, GET /v1/notifications);
//   lorebook:write  every write (publish, edit, reproductions, checks, visibility, marking notifications read).
// Public reads need no token and so no scope. A request that names no scope gets both (the
// clients that connected before scopes existed keep working); a token stored without a scope
// (admin, device flow, tokens minted before scopes) holds both.

export const SCOPES = ['lorebook:read', 'lorebook:write'] as const;
export type Scope = (typeof SCOPES)[number];

export const isScope = (value: string): value is Scope => (SCOPES as readonly string[]).includes(value);

/** A scope string (space-separated, RFC 6749 §3.3) as the set it names, in SCOPES order; undefined when it names an unknown scope. */
export function parseScope(raw: string): Scope[] | undefined {
  const names = raw.split(' ').filter((name) => name !== '');
  if (!names.every(isScope)) return undefined;
  return SCOPES.filter((scope) => names.includes(scope));
}

/** The scopes a stored token or grant holds: absent means every scope. */
export const heldScopes = (stored: string | undefined): Scope[] => (stored === undefined ? [...SCOPES] : (parseScope(stored) ?? []));

export const scopeString = (scopes: readonly Scope[]): string => scopes.join(' ');
