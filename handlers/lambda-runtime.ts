// What every handler builds once per cold start: the config from the environment (src/config.ts),
// the AppContext on the table, and — for the functions that announce — the Bluesky announcer
// with the app password read from Secrets Manager. The CDK stack sets the same variable names
// (infra/ imports LAMBDA_ENV), so a renamed variable cannot silently turn announcing off.
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { AppContext } from '../src/app/app-context.ts';
import { readConfig, type Config } from '../src/config.ts';
import { buildAnnouncer, buildContext } from '../src/context.ts';
import { consoleLog } from '../src/log-sink.ts';
import type { Announcer } from '../src/outbox/announcer.ts';
import { readSettings } from '../src/settings/read-settings.ts';
import type { SettingName } from '../src/settings/settings-table.ts';
import { defaultSecretsClient, secretReader } from './bluesky-secret.ts';

export const LAMBDA_ENV = {
  table: 'LOREBOOK_TABLE',
  /** The S3 bucket of uploaded images (infra/image-bucket.ts). */
  imageBucket: 'LOREBOOK_IMAGE_BUCKET',
  baseUrl: 'LOREBOOK_BASE_URL',
  blueskyService: 'BLUESKY_SERVICE',
  blueskyIdentifier: 'BLUESKY_IDENTIFIER',
  /** ARN (or name) of the secret holding the Bluesky app password; the password never sits in env. */
  blueskySecretId: 'LOREBOOK_BLUESKY_SECRET_ID',
  /** ARN (or name) of the secret holding Sign in with Bluesky's private key (handlers/sign-in-secret.ts). */
  signInKeySecretId: 'LOREBOOK_SIGN_IN_KEY_SECRET_ID',
  feedPublisherDid: 'BLUESKY_FEED_PUBLISHER_DID',
  feedRkey: 'BLUESKY_FEED_RKEY',
} as const satisfies Record<string, SettingName>;

export interface HandlerDeps {
  /** Default: the settings as set (src/settings/read-settings.ts). */
  env?: NodeJS.ProcessEnv;
  /** Default: a Secrets Manager client from the Lambda environment (tests point one at a fake). */
  secrets?: SecretsManagerClient;
  /** Default console.log: CloudWatch Logs on Lambda. */
  log?: (line: string) => void;
  /** How long the secret's placeholder is believed before it is read again (default 5 min). */
  secretRecheckMs?: number;
}

export interface Runtime {
  config: Config;
  ctx: AppContext;
  /** Undefined when announcing is off (not configured, or the secret still holds its placeholder). */
  announcer: Announcer | undefined;
  log(line: string): void;
}

export const defaultLog = consoleLog;

/** The config and context without Bluesky (the http function never announces: see http.ts). */
export function storeRuntime(env: NodeJS.ProcessEnv, log: (line: string) => void): Runtime {
  const config = readConfig(withoutBluesky(env));
  return { config, ctx: buildContext(config), announcer: undefined, log };
}

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
      built = { password, runtime: { config, ctx: buildContext(config), announcer: buildAnnouncer(config, log), log } };
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

function withoutBluesky(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { BLUESKY_SERVICE: _service, BLUESKY_IDENTIFIER: _identifier, BLUESKY_APP_PASSWORD: _password, ...rest } = env;
  return rest;
}
