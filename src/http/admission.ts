// Who may make this call, and whether they have budget left: the access rule (src/auth/access-rule.ts),
// the token's scope (src/auth/oauth/scopes.ts) and the rate limit, applied before anything runs,
// for MCP and /v1 alike.
import type { Context } from 'hono';
import type { AppContext, Caller } from '../app/app-context.ts';
import { authenticate } from '../app/oauth-server/authenticate.ts';
import { accountRateSubject, consumeRateLimit, ipRateSubject, rateLimitHeaders, rateLimited } from '../app/rate-limit.ts';
import { scopeNeeded } from '../auth/access-rule.ts';
import { SCOPES, type Scope } from '../auth/oauth/scopes.ts';
import { LorebookError } from '../domain/errors.ts';
import type { HttpEnv } from './http-env.ts';

export type ClientAddress = (c: Context<HttpEnv>) => string | undefined;

export interface AdmissionDeps {
  ctx: AppContext;
  clientAddress: ClientAddress;
  /** The public base URL: a resource-bound token must be bound to `<base>/<first path segment>` (e.g. /mcp). */
  baseUrl?: string;
}

/** The resource a request is for (RFC 8707): `<base>/mcp` for MCP, `<base>/v1` for the API. Unknown base: none. */
export function resourceOf(baseUrl: string | undefined, path: string): string | undefined {
  if (baseUrl === undefined) return undefined;
  const segment = path.split('/')[1] ?? '';
  return `${baseUrl.replace(/\/+$/, '')}/${segment}`;
}

/**
 * Authenticates (a token that is sent must be live, even on an anonymous call), refuses a call
 * that needs a token without one or with a token lacking the call's scope, then counts the call: per account when signed in (whichever
 * token or client), per IP address otherwise. A call refused for its token is counted against
 * its IP too, so guessing tokens runs into the anonymous budget. The RateLimit headers go on
 * every answer.
 */
export async function admit(c: Context<HttpEnv>, deps: AdmissionDeps, anonymous: boolean, mcpTool?: string): Promise<Caller | undefined> {
  let caller: Caller | undefined;
  try {
    caller = await authenticate(deps.ctx, c.req.header('authorization'), resourceOf(deps.baseUrl, c.req.path));
    if (caller === undefined && !anonymous) throw missingToken();
  } catch (error) {
    await countCall(c, deps, undefined);
    throw error;
  }
  await countCall(c, deps, caller);
  // After counting: a call refused for its scope spends the account's budget, like any other call it makes.
  if (caller !== undefined && !anonymous) requireScope(caller, neededScope(c, mcpTool));
  c.set('caller', caller);
  return caller;
}

/** On /mcp the tool the route read from the message decides; on /v1 the HTTP method does. */
function neededScope(c: Context<HttpEnv>, mcpTool: string | undefined): Scope {
  return mcpTool === undefined ? scopeNeeded({ httpMethod: c.req.method }) : scopeNeeded({ mcpTool });
}

/** A live token without the scope the call needs: 403 insufficient_scope, which the renderer turns into a step-up challenge. */
function requireScope(caller: Caller, needed: Scope): void {
  const held = caller.scopes ?? SCOPES;
  if (held.includes(needed)) return;
  const wanted = SCOPES.filter((scope) => scope === needed || held.includes(scope));
  throw new LorebookError(
    'forbidden',
    `This token may do ${held.join(', ') || 'nothing'}; this call needs ${needed}. Authorize again asking for scope "${wanted.join(' ')}" (the WWW-Authenticate header says the same) and retry with the new token.`,
    { details: { reason: 'insufficient_scope', needed, held: [...held], scope: wanted.join(' ') } },
  );
}

async function countCall(c: Context<HttpEnv>, deps: AdmissionDeps, caller: Caller | undefined): Promise<void> {
  const subject = caller === undefined ? ipRateSubject(deps.clientAddress(c) ?? 'unknown') : accountRateSubject(caller.account);
  const decision = await consumeRateLimit(deps.ctx, subject);
  c.set('answerHeaders', { ...c.get('answerHeaders'), ...rateLimitHeaders(decision) });
  if (!decision.allowed) throw rateLimited(decision);
}

function missingToken(): LorebookError {
  return new LorebookError(
    'unauthenticated',
    'This call needs a lorebook token: send `Authorization: Bearer <token>`. The person you work for creates one with `npm run token -- create --handle <handle>`. Public reads (search_stories, get_story, suggest_for_project) work without one.',
    { details: { reason: 'missing' } },
  );
}
