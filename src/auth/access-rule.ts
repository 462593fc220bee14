// The access rule (docs/design.md#surfaces), one table in code for MCP, the /v1 API and pages alike: what may
// be called without a token. Anything not listed here needs one — an unknown method, tool or
// route defaults to closed; and a new tool does not compile until it is classified here.
import type { McpToolName } from './mcp-tool-name.ts';
import type { Scope } from './oauth/scopes.ts';

/**
 * Every MCP tool (mcp-tool-name.ts), classified — a missing or unknown one does not compile.
 * `anonymous`: public reads; `token`: needs a caller.
 */
export const MCP_TOOL_ACCESS = {
  search_stories: 'anonymous',
  get_story: 'anonymous',
  suggest_for_project: 'anonymous',
  check_capability: 'anonymous',
  list_notifications: 'token',
  publish_story: 'token',
  edit_story: 'token',
  report_reproduction: 'token',
  withdraw_reproduction: 'token',
  report_check: 'token',
  report_drift: 'token',
  flag_story: 'token',
  unflag_story: 'token',
  appeal_moderation: 'token',
  set_visibility: 'token',
  mark_notifications_read: 'token',
  upload_image: 'token',
  list_drafts: 'token',
  draft_story_for: 'token',
  claim_draft: 'token',
  decline_draft: 'token',
  withdraw_draft: 'token',
  publish_draft: 'token',
  redact_story: 'token',
} as const satisfies Record<McpToolName, 'anonymous' | 'token'>;

type TokenTool = { [Name in McpToolName]: (typeof MCP_TOOL_ACCESS)[Name] extends 'token' ? Name : never }[McpToolName];

/** The scope (src/auth/oauth/scopes.ts) each tool that needs a token needs: reads `lorebook:read`, writes `lorebook:write`. */
export const MCP_TOOL_SCOPE = {
  list_notifications: 'lorebook:read',
  publish_story: 'lorebook:write',
  edit_story: 'lorebook:write',
  report_reproduction: 'lorebook:write',
  withdraw_reproduction: 'lorebook:write',
  report_check: 'lorebook:write',
  report_drift: 'lorebook:write',
  flag_story: 'lorebook:write',
  unflag_story: 'lorebook:write',
  appeal_moderation: 'lorebook:write',
  set_visibility: 'lorebook:write',
  mark_notifications_read: 'lorebook:write',
  upload_image: 'lorebook:write',
  list_drafts: 'lorebook:read',
  draft_story_for: 'lorebook:write',
  claim_draft: 'lorebook:write',
  decline_draft: 'lorebook:write',
  withdraw_draft: 'lorebook:write',
  publish_draft: 'lorebook:write',
  redact_story: 'lorebook:write',
} as const satisfies Record<TokenTool, Scope>;

/** The scope a call that needs a token needs: per tool on MCP; on HTTP a GET reads and anything else writes. */
export function scopeNeeded(call: { mcpTool: string } | { httpMethod: string }): Scope {
  if ('mcpTool' in call) return Object.hasOwn(MCP_TOOL_SCOPE, call.mcpTool) ? MCP_TOOL_SCOPE[call.mcpTool as TokenTool] : 'lorebook:write';
  return ['GET', 'HEAD'].includes(call.httpMethod.toUpperCase()) ? 'lorebook:read' : 'lorebook:write';
}

/**
 * Every JSON-RPC request method lorebook serves, classified; `tools/call` is judged per tool. A
 * method not listed here is unknown: it is answered -32601 at the edge and never reaches the
 * server, so registering a handler without classifying it here serves nothing.
 */
export const MCP_METHOD_ACCESS = {
  initialize: 'anonymous',
  ping: 'anonymous',
  'server/discover': 'anonymous',
  'tools/list': 'anonymous',
  'tools/call': 'per tool',
  'resources/list': 'anonymous',
  'resources/read': 'anonymous',
  'resources/templates/list': 'anonymous',
  'prompts/list': 'anonymous',
  'prompts/get': 'anonymous',
  'completion/complete': 'anonymous',
} as const satisfies Record<string, 'anonymous' | 'token' | 'per tool'>;

/**
 * What one JSON-RPC message needs. `unknown_method` and `unknown_tool` run nothing, so they need no
 * token: the caller gets the protocol error the spec names (-32601, -32602) whoever they are, and a
 * token that is sent is still checked. For a batch (refused anyway), every message would have to
 * be judged, never just one.
 */
export type McpAccess = 'anonymous' | 'token' | 'unknown_method' | 'unknown_tool';

export function mcpAccess(method: string, toolName?: string): McpAccess {
  if (method.startsWith('notifications/')) return 'anonymous';
  if (!Object.hasOwn(MCP_METHOD_ACCESS, method)) return 'unknown_method';
  const access = MCP_METHOD_ACCESS[method as keyof typeof MCP_METHOD_ACCESS];
  if (access !== 'per tool') return access;
  if (toolName === undefined || !Object.hasOwn(MCP_TOOL_ACCESS, toolName)) return 'unknown_tool';
  return MCP_TOOL_ACCESS[toolName as McpToolName];
}

/** RFC 9728 protected-resource metadata; 401 answers point clients here. */
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';

/**
 * HTTP routes that answer without a token, as `METHOD pattern` with hono's route patterns. A
 * path parameter's name does not matter (`:slug` and `:id` are one pattern). HEAD counts as GET.
 */
export const ANONYMOUS_HTTP_ROUTES: readonly string[] = [
  'GET /v1/stories',
  'GET /v1/stories/:slug',
  'POST /v1/capability',
  'GET /v1/openapi.json',
  'GET /v1/skill',
  'GET /v1/badge/s/:slug',
  'GET /v1/badge/a/:handle',
  'GET /v1/badge/capability/:sha12',
  'GET /i/:file',
  `GET ${RESOURCE_METADATA_PATH}`,
];

const anonymousRoutes: ReadonlySet<string> = new Set(
  ANONYMOUS_HTTP_ROUTES.map((route) => {
    const [method = '', pattern = ''] = route.split(' ');
    return routeId(method, pattern);
  }),
);

export function httpRouteIsAnonymous(method: string, routePattern: string): boolean {
  return anonymousRoutes.has(routeId(method, routePattern));
}

function routeId(method: string, pattern: string): string {
  const verb = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
  const path = pattern
    .split('/')
    .map((segment) => (segment.startsWith(':') ? ':' : segment))
    .join('/')
    .replace(/(.)\/+$/, '$1');
  return `${verb} ${path}`;
}

/**
 * The WWW-Authenticate value of a 401 (RFC 6750 §3, RFC 9728 §5.1). `error` is an RFC 6750 code,
 * e.g. `invalid_token` when a token was sent but is not live; omit it when none was sent.
 */
export function wwwAuthenticate(baseUrl: string, error?: string): string {
  const metadata = `${baseUrl.replace(/\/+$/, '')}${RESOURCE_METADATA_PATH}`;
  const parts = [`Bearer resource_metadata="${quoted(metadata)}"`];
  if (error !== undefined) parts.push(`error="${quoted(error)}"`);
  return parts.join(', ');
}

/**
 * The WWW-Authenticate value of a 403 for a token that lacks a scope (RFC 6750 §3.1, MCP
 * authorization "scope challenge"): `scope` names every scope the client should ask for next —
 * what the token holds plus what the call needs — so one step-up authorization is enough.
 */
export function insufficientScope(baseUrl: string, scopes: readonly string[]): string {
  const metadata = `${baseUrl.replace(/\/+$/, '')}${RESOURCE_METADATA_PATH}`;
  return `Bearer error="insufficient_scope", scope="${quoted(scopes.join(' '))}", resource_metadata="${quoted(metadata)}"`;
}

const quoted = (value: string): string => value.replace(/["\\]/g, '');

/**
 * Account deletion (design.md#account-deletion): `DELETE /v1/account` needs a token with `lorebook:write` like any
 * write, and is the one route a token of an account whose deletion is under way may still call —
 * a retry after a lost answer gets the same 202, not a 401. Every other call by such a token is
 * refused. There is deliberately no MCP tool for it: an agent acts for its person, and ending the
 * person's account is the person's own act (the account page, or their app through /v1).
 */
export const HTTP_ROUTES_WHILE_DELETING: readonly string[] = ['DELETE /v1/account'];

const whileDeletingRoutes: ReadonlySet<string> = new Set(
  HTTP_ROUTES_WHILE_DELETING.map((route) => {
    const [method = '', pattern = ''] = route.split(' ');
    return routeId(method, pattern);
  }),
);

export function httpRouteAdmitsDeletingAccount(method: string, routePattern: string): boolean {
  return whileDeletingRoutes.has(routeId(method, routePattern));
}
