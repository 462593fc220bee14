// The http function: the same hono app as `npm start` (MCP at /mcp, the API at /v1) behind a
// Lambda Function URL, through hono/aws-lambda. The context, the search index and the app are
// built once per cold start, on the first event: when LOREBOOK_BASE_URL is unset the public base
// URL is the Function URL itself, which only the event knows (the stack cannot pass a function
// its own URL without a dependency cycle).
// @NOTE no announcer here: an attempt started after the response would be frozen with the
// container. Publishing puts the story on the announce queue in its transaction; the stream
// function announces it within seconds and the sweeper catches anything that slipped.
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context as LambdaContext } from 'aws-lambda';
import type { Context } from 'hono';
import { getConnInfo, handle, type LambdaEvent } from 'hono/aws-lambda';
import { createStorySearch } from '../src/app/search/story-search.ts';
import { createHttpApp } from '../src/http/app.ts';
import type { HttpEnv } from '../src/http/http-env.ts';
import { LAMBDA_ENV, defaultLog, storeRuntime, type HandlerDeps } from './lambda-runtime.ts';

export type HttpHandler = (event: APIGatewayProxyEventV2, context: LambdaContext) => Promise<APIGatewayProxyStructuredResultV2>;

/** The caller's address for the anonymous rate limit: the Function URL's requestContext.http.sourceIp. */
const sourceIp = (c: Context<HttpEnv>): string | undefined => getConnInfo(c as unknown as Parameters<typeof getConnInfo>[0]).remote.address;

export function createHttpHandler(deps: HandlerDeps = {}): HttpHandler {
  const env = deps.env ?? process.env;
  const log = deps.log ?? defaultLog;
  let serve: ReturnType<typeof handle> | undefined;

  const build = (event: APIGatewayProxyEventV2): ReturnType<typeof handle> => {
    const domain = event.requestContext.domainName;
    const baseUrl = env[LAMBDA_ENV.baseUrl] || `https://${domain}`;
    const { config, ctx } = storeRuntime({ ...env, [LAMBDA_ENV.baseUrl]: baseUrl }, log);
    log(`lorebook: http cold start: table "${config.tableName}", base URL ${config.http.baseUrl}`);
    const app = createHttpApp({
      ctx,
      search: createStorySearch(ctx, { refreshMs: config.http.searchRefreshMs }),
      baseUrl: config.http.baseUrl,
      allowedOrigins: config.http.allowedOrigins,
      // The Function URL's own host stays reachable when the base URL is a custom domain.
      allowedHosts: [domain],
      clientAddress: sourceIp,
    });
    return handle(app);
  };

  return async (event, context) => {
    serve ??= build(event);
    // hono's event type says body: string | null where aws-lambda's says string | undefined.
    return (await serve(event as unknown as LambdaEvent, context)) as APIGatewayProxyStructuredResultV2;
  };
}

export const handler: HttpHandler = createHttpHandler();
