// Every answer counted by surface and status class (docs/metrics.md), the refusals from onError
// and a bug's 500 included: this middleware runs outside the error renderer, so it sees the answer
// the caller got.
import type { MiddlewareHandler } from 'hono';
import type { AppContext } from '../app/context/app-context.ts';
import { countRequest, type Surface } from '../app/context/metrics.ts';
import type { HttpEnv } from './http-env.ts';

/** The surface a path belongs to; /v1/auth/device/* is the API's. */
export function surfaceOf(path: string): Surface {
  const first = path.split('/')[1] ?? '';
  if (first === 'mcp' || first === 'v1' || first === 'xrpc') return first;
  if (first === 'oauth' || first === 'auth' || first === 'device' || path.startsWith('/.well-known/oauth-')) return 'auth';
  return 'pages';
}

export const countRequests =
  (ctx: AppContext): MiddlewareHandler<HttpEnv> =>
  async (c, next) => {
    await next();
    countRequest(ctx, surfaceOf(c.req.path), c.res.status);
  };
