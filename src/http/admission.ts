// Who may make this call, and whether they have budget left: the access rule (src/auth/access-rule.ts),
// the token's scope (src/auth/oauth/scopes.ts) and the rate limit, applied before anything runs,
// for MCP and /v1 alike.
import type { Context } from 'hono';
import type { AppContext, Caller } from '../app/context/app-context.ts';
import { cpuMinuteRefusal } from '../app/context/offloaded.ts';
import {
  accountRateSubject,
  consumeRateLimit,
  ipRateSubject,
  knownRefusal,
  type RateDecision,
  rateLimited,
  rateLimitHeaders,
} from '../app/context/rate-limit.ts';
import { authenticateAlongside } from '../app/oauth-server/authenticate.ts';
import { scopeNeeded } from '../auth/access-rule.ts';
import { SCOPES, type Scope } from '../auth/oauth/scopes.ts';
import { LorebookError } from '../domain/errors.ts';
import { holdBodyUntilAdmitted } from './body.ts';
import type { HttpEnv } from './http-env.ts';
import { createLargeBodyLine, type LargeBodyTurn } from './large-body-line.ts';

export type ClientAddress = (c: Context<HttpEnv>) => string | undefined;

export interface AdmissionDeps {
  ctx: AppContext;
  clientAddress: ClientAddress;
  /** The public base URL: a resource-bound token must be bound to `<base>/<first path segment>` (e.g. /mcp). */
  baseUrl?: string;
}

/** Where an account's large bodies take their turn: one line for the process. */
const largeBodies = createLargeBodyLine();

/** The resource a request is for (RFC 8707): `<base>/mcp` for MCP, `<base>/v1` for the API. Unknown base: none. */
export function resourceOf(baseUrl: string | undefined, path: string): string | undefined {
  if (baseUrl === undefined) return undefined;
  const segment = path.split('/')[1] ?? '';
  return `${baseUrl.replace(/\/+$/, '')}/${segment}`;
}

/** A call let in while its rate-limit count is still on its way (admitAlongside). */
export interface Admitted {
  caller: Caller | undefined;
  /** The context to run the call on: its write loop waits for the count before committing, and writes nothing when refused. */
  ctx: AppContext;
  /**
   * Runs the call and answers it once the count is in: the RateLimit headers, and `rate_limited`
   * instead of the call's own answer or error when the count refused it (a read answers nothing;
   * a write has committed nothing, see ctx).
   */
  answer<T>(run: () => Promise<T>): Promise<T>;
}

/** A caller known before its body is read (admitCaller): what the call may do is decided once the body says what it is. */
export interface AdmittedCaller extends Admitted {
  /** Refuses a call that needs a token without one, or with a token lacking the call's scope; call it inside answer. */
  requireAccess(anonymous: boolean, mcpTool?: string): void;
}

/**
 * Authenticates (a token that is sent must be live, even on an anonymous call), refuses a call
 * that needs a token without one or with a token lacking the call's scope, then counts the call: per account when signed in (whichever
 * token or client), per IP address otherwise. A call refused for its token is counted against
 * its IP too, so guessing tokens runs into the anonymous budget. The RateLimit headers go on
 * every answer. Returns once the call is counted; /mcp and /v1 use admitAlongside instead.
 */
export async function admit(c: Context<HttpEnv>, deps: AdmissionDeps, anonymous: boolean, mcpTool?: string): Promise<Caller | undefined> {
  const admitted = await admitAlongside(c, deps, anonymous, mcpTool);
  await admitted.answer(async () => undefined);
  return admitted.caller;
}

/**
 * The same rules as admit, with the count off the critical path (docs/design.md#surfaces): it is sent
 * the moment the caller is known and runs beside the call's own snapshot read. Nothing waits for
 * it but the commit and the answer, so the limit stays exact across instances (the window item's
 * condition decides, as before) while a call costs one sequential round trip less.
 */
export async function admitAlongside(
  c: Context<HttpEnv>,
  deps: AdmissionDeps,
  anonymous: boolean,
  mcpTool?: string,
  /** The route admits a token of an account whose deletion is under way (access-rule.ts, design.md#account-deletion). */
  whileDeleting = false,
): Promise<Admitted> {
  const admitted = await admitCaller(c, deps, whileDeleting);
  try {
    admitted.requireAccess(anonymous, mcpTool);
  } catch (error) {
    await admitted.answer(() => Promise.reject(error));
  }
  return admitted;
}

/**
 * The part of admission that needs no body (docs/design.md#admission), for a route that must read the
 * body to know what the call is (/mcp): the token and the rate budget are settled before a byte
 * of it is read — a bogus token is 401 and a window already seen full is 429 with the body
 * unread — and the body is tied to the rest (body.ts): past the anonymous cap only once the count
 * and the account's standing are in, and not at all once either refuses.
 */
export async function admitCaller(
  c: Context<HttpEnv>,
  deps: AdmissionDeps,
  /** The route admits a token of an account whose deletion is under way (access-rule.ts, design.md#account-deletion). */
  whileDeleting = false,
): Promise<AdmittedCaller> {
  let caller: Caller | undefined;
  let startStanding: () => Promise<void> = () => Promise.resolve();
  try {
    const authenticated = await authenticateAlongside(
      deps.ctx,
      c.req.header('authorization'),
      resourceOf(deps.baseUrl, c.req.path),
      whileDeleting,
    );
    caller = authenticated?.caller;
    if (authenticated !== undefined) startStanding = authenticated.standing;
  } catch (error) {
    await settle(c, startCount(c, deps, undefined));
    throw error;
  }
  const known = knownRefusal(deps.ctx, subjectOf(c, deps, caller));
  // A window already seen full: refused (answerWith throws) before anything runs, without a round trip.
  if (known !== undefined) answerWith(c, known);
  const count = startCount(c, deps, caller);
  // A remembered token's account check (design.md#account-deletion) starts here, beside the count, once no known refusal answered.
  const standing = startStanding();
  c.set('caller', caller);
  // A remembered token's account check (design.md#account-deletion) runs beside the call like the count: a write
  // commits nothing and a read answers nothing for an account deleted since the token was remembered.
  const allowed = async (): Promise<void> => {
    await standing;
    const decision = await count;
    if (!decision.allowed) throw rateLimited(decision);
  };
  // Taken only if a body past MAX_BODY_BYTES is read (body.ts), and given up once the call has answered.
  const turn = caller === undefined ? undefined : largeBodyTurn(deps, caller.account);
  holdBodyUntilAdmitted(c.req.raw, allowed(), turn?.take);
  return {
    caller,
    ctx: { ...deps.ctx, beforeCommit: allowed },
    requireAccess(anonymous, mcpTool) {
      if (caller === undefined && !anonymous) throw missingToken();
      // A call refused for its scope spends the account's budget, like any other call it makes;
      // over the budget it is told so first (answer).
      if (caller !== undefined && !anonymous) requireScope(caller, neededScope(c, mcpTool));
    },
    async answer(run) {
      const outcome = await run().then(
        (value) => ({ value }),
        (error: unknown) => ({ error }),
      );
      turn?.release();
      await settle(c, count);
      await standing;
      if ('error' in outcome) throw outcome.error;
      return outcome.value;
    },
  };
}

/**
 * The account's turn for a body past MAX_BODY_BYTES (large-body-line.ts), its minute of CPU asked
 * before it waits and again once its turn comes: a large body is an image upload, refused
 * `cpu_time` once read if the minute is spent, so it is refused before instead, unread.
 */
function largeBodyTurn(deps: AdmissionDeps, account: string): LargeBodyTurn {
  const turn = largeBodies(account);
  const minuteLeft = (): void => {
    const spent = cpuMinuteRefusal(deps.ctx, accountRateSubject(account));
    if (spent !== undefined) throw spent;
  };
  let taken: Promise<void> | undefined;
  return {
    take: () => {
      taken ??= (async () => {
        minuteLeft();
        await turn.take();
        minuteLeft();
      })();
      return taken;
    },
    release: turn.release,
  };
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
    {
      details: {
        reason: 'insufficient_scope',
        needed,
        held: [...held],
        scope: wanted.join(' '),
      },
    },
  );
}

/** Per account when signed in (whichever token or client), per IP address otherwise. */
function subjectOf(c: Context<HttpEnv>, deps: AdmissionDeps, caller: Caller | undefined): string {
  return caller === undefined ? ipRateSubject(deps.clientAddress(c) ?? 'unknown') : accountRateSubject(caller.account);
}

/** The count of one call, sent now; observed at once so a refusal nobody awaits yet is never an unhandled rejection. */
function startCount(c: Context<HttpEnv>, deps: AdmissionDeps, caller: Caller | undefined): Promise<RateDecision> {
  const count = consumeRateLimit(deps.ctx, subjectOf(c, deps, caller));
  count.catch(() => undefined);
  return count;
}

/** Waits for the count: the RateLimit headers on the answer, `rate_limited` when it refused the call. */
async function settle(c: Context<HttpEnv>, count: Promise<RateDecision>): Promise<void> {
  answerWith(c, await count);
}

function answerWith(c: Context<HttpEnv>, decision: RateDecision): void {
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
