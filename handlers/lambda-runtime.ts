// What every handler builds once per cold start: the config from the environment (src/config.ts)
// and the AppContext on the table; the functions that announce add the Bluesky announcer
// (announcing-runtime.ts), which the http function never loads. The CDK stack sets the same variable names
// (infra/ imports LAMBDA_ENV), so a renamed variable cannot silently turn announcing off.
import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { AppContext } from '../src/app/context/app-context.ts';
import { type Config, readConfig } from '../src/config.ts';
import { buildContext } from '../src/context.ts';
import { consoleLog } from '../src/log-sink.ts';
import { type EmfMetrics, emfMetrics } from '../src/metrics/emf-metrics.ts';
import type { Announcer } from '../src/outbox/announce/announcer.ts';
import type { SettingName } from '../src/settings/settings-table.ts';

export const LAMBDA_ENV = {
  table: 'LOREBOOK_TABLE',
  /** The S3 bucket of uploaded images (infra/image-bucket.ts). */
  imageBucket: 'LOREBOOK_IMAGE_BUCKET',
  /** The S3 bucket of search index snapshots (infra/search-bucket.ts). */
  searchBucket: 'LOREBOOK_SEARCH_BUCKET',
  baseUrl: 'LOREBOOK_BASE_URL',
  blueskyService: 'BLUESKY_SERVICE',
  blueskyIdentifier: 'BLUESKY_IDENTIFIER',
  /** ARN (or name) of the secret holding the Bluesky app password; the password never sits in env. */
  blueskySecretId: 'LOREBOOK_BLUESKY_SECRET_ID',
  /** ARN (or name) of the secret holding Sign in with Bluesky's private key (handlers/sign-in-secret.ts). */
  signInKeySecretId: 'LOREBOOK_SIGN_IN_KEY_SECRET_ID',
  /** ARN (or name) of the secret CloudFront sends to the http function (handlers/origin-secret.ts). */
  originSecretId: 'LOREBOOK_ORIGIN_SECRET_ID',
  feedPublisherDid: 'BLUESKY_FEED_PUBLISHER_DID',
  feedRkey: 'BLUESKY_FEED_RKEY',
  feedTags: 'LOREBOOK_FEED_TAGS',
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

/**
 * The container's metrics (EMF lines on stdout, docs/metrics.md): every context this process
 * builds counts into it, and each handler flushes it before it answers (withMetricsFlushed).
 */
export const lambdaMetrics: EmfMetrics = emfMetrics(defaultLog);

/** Runs one invocation, then writes what it counted: after the answer Lambda may freeze the process. */
export async function withMetricsFlushed<T>(invocation: () => Promise<T>): Promise<T> {
  try {
    return await invocation();
  } finally {
    await lambdaMetrics.flush();
  }
}

/** The config and context without Bluesky (the http function never announces: see http.ts). */
export function storeRuntime(env: NodeJS.ProcessEnv, log: (line: string) => void): Runtime {
  const config = readConfig(withoutBluesky(env));
  return { config, ctx: lambdaContext(config), announcer: undefined, log };
}

/**
 * The context as a function sees it. Search snapshots only in a bucket: a function's disk is
 * read-only or gone with the container, so without LOREBOOK_SEARCH_BUCKET there are none (the
 * sweeper writes none, and each instance builds its index from the feed at its first search).
 */
export function lambdaContext(config: Config): AppContext {
  const ctx = buildContext(config);
  if (!('bucket' in config.search)) delete ctx.searchSnapshots;
  ctx.metrics = lambdaMetrics;
  return ctx;
}

function withoutBluesky(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { BLUESKY_SERVICE: _service, BLUESKY_IDENTIFIER: _identifier, BLUESKY_APP_PASSWORD: _password, ...rest } = env;
  return rest;
}
