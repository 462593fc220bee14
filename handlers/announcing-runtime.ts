// The runtime of a function that announces (stream, sweeper): the store runtime plus the Bluesky
// announcer, with the app password read from Secrets Manager. Apart from lambda-runtime.ts so the
// http function, which never announces, does not load the Bluesky client.
import { buildAnnouncer } from '../src/announcer-from-config.ts';
import { readConfig } from '../src/config.ts';
import { readSettings } from '../src/settings/read-settings.ts';
import { defaultSecretsClient, secretReader } from './bluesky-secret.ts';
import { defaultLog, type HandlerDeps, LAMBDA_ENV, lambdaContext, type Runtime, storeRuntime } from './lambda-runtime.ts';

/**
 * The config, context and announcer of a function that announces, built once per cold start —
 * and again only if the app password changes from the placeholder to a value (set after the
 * deploy). Reads the secret only when the posting account is configured, so a stack deployed
 * without one never calls Secrets Manager.
 */
export function announcingRuntime(deps: HandlerDeps): () => Promise<Runtime> {
  const env = deps.env ?? readSettings();
  const log = deps.log ?? defaultLog;
  const secretId = env[LAMBDA_ENV.blueskySecretId];
  if (!secretId || !env[LAMBDA_ENV.blueskyIdentifier] || !env[LAMBDA_ENV.blueskyService]) {
    let off: Runtime | undefined;
    return async () => (off ??= announcingOff(env, log));
  }
  const readPassword = secretReader(deps.secrets ?? defaultSecretsClient(), secretId, deps.secretRecheckMs);
  let built: { password: string | undefined; runtime: Runtime } | undefined;
  return async () => {
    const password = await readPassword();
    if (built !== undefined && built.password === password) return built.runtime;
    built?.runtime.ctx.store.client.destroy();
    if (password === undefined) {
      log(
        `lorebook: Bluesky announcing is off: the secret ${secretId} still holds its placeholder (docs/deploy.md, "Set the Bluesky secret"); stories wait on the announce queue`,
      );
      built = { password, runtime: storeRuntime(env, log) };
    } else {
      const config = readConfig({ ...env, BLUESKY_APP_PASSWORD: password });
      built = { password, runtime: { config, ctx: lambdaContext(config), announcer: buildAnnouncer(config, log), log } };
    }
    return built.runtime;
  };
}

function announcingOff(env: NodeJS.ProcessEnv, log: (line: string) => void): Runtime {
  const runtime = storeRuntime(env, log);
  log(
    `lorebook: Bluesky announcing is off (set ${LAMBDA_ENV.blueskyService}, ${LAMBDA_ENV.blueskyIdentifier} and ${LAMBDA_ENV.blueskySecretId}); stories wait on the announce queue`,
  );
  return runtime;
}
