// The OAuth server as one request sees it: a client metadata document the request makes lorebook
// fetch (a client_id that is a URL) is paid for by the request's address first (design.md#admission).
import type { Context } from 'hono';
import type { AppContext } from '../../app/context/app-context.ts';
import { fetchBudgetOf } from '../../app/context/outbound-budget.ts';
import type { OAuthServer } from '../../auth/oauth/oauth-settings.ts';
import type { ClientAddress } from '../admission.ts';
import type { HttpEnv } from '../http-env.ts';

export function oauthForRequest(
  c: Context<HttpEnv>,
  deps: { ctx: AppContext; oauth: OAuthServer; clientAddress?: ClientAddress | undefined },
): OAuthServer {
  const { clientDocuments } = deps.oauth;
  const spend = fetchBudgetOf(deps.ctx, clientDocuments.outbound.settings, deps.clientAddress?.(c));
  return { ...deps.oauth, clientDocuments: { ...clientDocuments, spend } };
}
