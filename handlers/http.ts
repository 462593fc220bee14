// The http function: the same hono app as `npm start` (src/http/app-from-config.ts: MCP at /mcp,
// the API at /v1, pages and the Bluesky feed generator, the OAuth server, Sign in with Bluesky)
// behind a Lambda Function URL, through hono/aws-lambda. The context is built once per cold
// start, on the first event: when LOREBOOK_BASE_URL is unset the public base URL is the Function
// URL itself, which only the event knows (the stack cannot pass a function its own URL without a
// dependency cycle). The app is built then too, and once more only if the sign-in key's secret
// changes from its placeholder to a key (handlers/sign-in-secret.ts).
// @NOTE no announcer here: an attempt started after the response would be frozen with the
// container. Publishing puts the story on the announce queue in its transaction; the stream
// function announces it within seconds and the sweeper catches anything that slipped.
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context as LambdaContext } from 'aws-lambda';
import type { Context } from 'hono';
import { getConnInfo, handle, type LambdaEvent } from 'hono/aws-lambda';
import { httpAppFromConfig } from '../src/http/app-from-config.ts';
import type { HttpEnv } from '../src/http/http-env.ts';
import { readSettings } from '../src/settings/read-settings.ts';
import { defaultLog, type HandlerDeps, LAMBDA_ENV, type Runtime, storeRuntime, withMetricsFlushed } from './lambda-runtime.ts';
import type { OriginAddress } from './origin-secret.ts';
import { lambdaSignIn, signInKeyReader } from './sign-in-secret.ts';

export type HttpHandler = (event: APIGatewayProxyEventV2, context: LambdaContext) => Promise<APIGatewayProxyStructuredResultV2>;

/** The connection's address: the Function URL's requestContext.http.sourceIp (behind CloudFront, handlers/origin-secret.ts). */
const sourceIp = (c: Context<HttpEnv>): string | undefined => getConnInfo(c as unknown as Parameters<typeof getConnInfo>[0]).remote.address;

interface ColdStart {
  runtime: Runtime;
  /** The environment with the base URL the first event decided. */
  env: NodeJS.ProcessEnv;
  domain: string;
}

export function createHttpHandler(deps: HandlerDeps = {}): HttpHandler {
  const env = deps.env ?? readSettings();
  const log = deps.log ?? defaultLog;
  const readKey = signInKeyReader(env, deps);
  let cold: ColdStart | undefined;
  let built: { key: string | undefined; serve: ReturnType<typeof handle> } | undefined;
  const originSecretId = env[LAMBDA_ENV.originSecretId];
  // Behind the stack's CloudFront distribution only; loaded on the first event (a chunk of its own).
  let origin: OriginAddress | undefined;

  const coldStart = (event: APIGatewayProxyEventV2): ColdStart => {
    const domain = event.requestContext.domainName;
    const withBase = { ...env, [LAMBDA_ENV.baseUrl]: env[LAMBDA_ENV.baseUrl] || `https://${domain}` };
    const runtime = storeRuntime(withBase, log);
    log(`lorebook: http cold start: table "${runtime.config.tableName}", base URL ${runtime.config.http.baseUrl}`);
    return { runtime, env: withBase, domain };
  };

  const build = ({ runtime, env: withBase, domain }: ColdStart, key: string | undefined): ReturnType<typeof handle> => {
    const { signIn, offHint } = lambdaSignIn(withBase, runtime.config.http.baseUrl, key);
    const app = httpAppFromConfig({
      ctx: runtime.ctx,
      config: runtime.config,
      signIn,
      ...(offHint === undefined ? {} : { signInOffHint: offHint }),
      log,
      // The Function URL's own host stays reachable when the base URL is a custom domain.
      allowedHosts: [domain],
      clientAddress: (c) => (origin === undefined ? sourceIp(c) : origin.of(c, sourceIp)),
    });
    return handle(app);
  };

  /**
   * The key, or undefined (sign-in off). A failed read must not take the whole site down with it:
   * the app built before (or, on a cold start, one without sign-in) answers, and the next
   * invocation reads again (failures are never cached).
   */
  const currentKey = async (): Promise<string | undefined> => {
    if (readKey === undefined) return undefined;
    try {
      return await readKey();
    } catch (error) {
      log(
        `lorebook: could not read the sign-in key's secret ${env[LAMBDA_ENV.signInKeySecretId]} (${String(error)}); answering ${built?.key === undefined ? 'without sign-in' : 'with the key read before'} and reading again on the next request`,
      );
      return built?.key;
    }
  };

  return (event, context) =>
    withMetricsFlushed(async () => {
      cold ??= coldStart(event);
      const key = await currentKey();
      if (originSecretId) {
        origin ??= (await import('./origin-secret.ts')).originAddress(originSecretId, deps.secrets, log);
        await origin.refresh();
      }
      // No await between the check and the assignment: concurrent first events build one app.
      if (built === undefined || built.key !== key) built = { key, serve: build(cold, key) };
      // hono's event type says body: string | null where aws-lambda's says string | undefined.
      return (await built.serve(event as unknown as LambdaEvent, context)) as APIGatewayProxyStructuredResultV2;
    });
}

export const handler: HttpHandler = createHttpHandler();
