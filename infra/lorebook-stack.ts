// The whole cloud deployment (docs/design.md#runtime): the table, the image bucket, the three functions, the http function's
// URL, the stream wiring with its DLQ, the every-minute sweeper, the Bluesky secret, the sign-in
// key's secret, least-privilege IAM, the alarms and the dashboard, and optionally a CloudFront
// distribution for a custom domain with its origin secret and WAF rule. Each piece is built in a file of its own;
// this file only connects them.
import { CfnOutput, Duration, SecretValue, Stack, type StackProps } from 'aws-cdk-lib';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { FunctionUrlAuthType, InvokeMode } from 'aws-cdk-lib/aws-lambda';
import { Secret } from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { UNSET_APP_PASSWORD } from '../handlers/bluesky-secret.ts';
import { LAMBDA_ENV } from '../handlers/lambda-runtime.ts';
import { UNSET_SIGN_IN_KEY } from '../handlers/sign-in-secret.ts';
import { SIGN_IN_ENV } from '../src/auth/sign-in-config.ts';
import { readConfig } from '../src/config.ts';
import { createAlarms } from './alarms.ts';
import { createDashboard } from './dashboard.ts';
import { deploySettings } from './deploy-settings.ts';
import { type CustomDomain, createDistribution } from './distribution.ts';
import { handlerFunction } from './handler-function.ts';
import { createImageBucket, grantImageAccess, IMAGE_ACCESS } from './image-bucket.ts';
import { createMetricAlarms } from './metric-alarms.ts';
import { createSearchBucket, grantSearchAccess, SEARCH_ACCESS } from './search-bucket.ts';
import { connectStream } from './stream-source.ts';
import { scheduleSweeper } from './sweeper-schedule.ts';
import { type ExistingTable, lorebookTable } from './table.ts';
import { grantTableAccess, TABLE_ACCESS } from './table-access.ts';

export interface LorebookSettings {
  /** The public base URL (a custom domain in front of the Function URL); default the Function URL. */
  baseUrl?: string;
  /** Web origins allowed to call from a browser, comma-separated. */
  allowedOrigins?: string;
  /** The Bluesky account that announces stories (handle or DID); unset = announcing off. */
  blueskyIdentifier?: string;
  /** Its PDS or entryway. */
  blueskyService: string;
  /** Subscribed to the alarm topic when given. */
  alarmEmail?: string;
  /**
   * 'production' turns Sign in with Bluesky on (LOREBOOK_BLUESKY_OAUTH_CLIENT): the http function
   * reads the private key from the SignInPrivateKey secret; unset = sign-in off.
   */
  blueskyOAuthClient?: 'production';
  /** The account holding the feed record (BLUESKY_FEED_PUBLISHER_DID); unset = the feed generator lists no feed. */
  feedPublisherDid?: string;
  /** The feed record's key (BLUESKY_FEED_RKEY; default lorebook). */
  feedRkey?: string;
  /** The tags that get a feed, comma-separated (LOREBOOK_FEED_TAGS; default typescript,dynamodb; empty = none). */
  feedTags?: string;
  /** Every other setting the functions read, by name (`-c settings=<json file>`), checked at synth (deploy-settings.ts). */
  environment?: Record<string, unknown>;
  /** An existing table instead of the stack's own (a point-in-time restore put in service, docs/backup.md). */
  existingTable?: ExistingTable;
  /**
   * Reserved concurrency of the http function: a burst of requests can use at most this many
   * of the account's concurrent executions, so the stream and sweeper functions always find room.
   */
  httpReservedConcurrency?: number;
  /**
   * A CloudFront distribution for this domain in front of the Function URL (infra/distribution.ts);
   * baseUrl defaults to https://<domainName>.
   */
  customDomain?: CustomDomain;
}

export const FUNCTION_SETTINGS = {
  // Requests answer in tens of milliseconds; memory buys CPU, which is what a cold start needs.
  http: { memorySize: 1024, timeout: Duration.seconds(30) },
  // Both stay far below the announcer's stale-claim time (5 min): a killed run's claim is taken
  // over only after it can no longer post.
  stream: { memorySize: 512, timeout: Duration.minutes(2) },
  sweeper: { memorySize: 512, timeout: Duration.minutes(2) },
} as const;

export class LorebookStack extends Stack {
  constructor(scope: Construct, id: string, settings: LorebookSettings, props: StackProps = {}) {
    super(scope, id, props);
    const table = lorebookTable(this, 'Table', settings.existingTable);
    const images = createImageBucket(this, 'ImageBucket');
    const search = createSearchBucket(this, 'SearchBucket');
    const secret = new Secret(this, 'BlueskyAppPassword', {
      description: 'lorebook: the Bluesky app password of the announcing account (a plain string; see docs/deploy.md)',
      // A placeholder, not a secret: the handlers keep announcing off until it is replaced.
      // CloudFormation leaves a value set later alone as long as this template value is unchanged.
      secretStringValue: SecretValue.unsafePlainText(UNSET_APP_PASSWORD),
    });
    const signInKey = new Secret(this, 'SignInPrivateKey', {
      description: 'lorebook: the private ES256 key (a JWK with a kid, JSON text) Sign in with Bluesky signs with; see docs/deploy.md',
      // A placeholder, as for the app password: sign-in stays off until it is replaced.
      secretStringValue: SecretValue.unsafePlainText(UNSET_SIGN_IN_KEY),
    });
    const signIn = settings.blueskyOAuthClient === 'production';
    const feed = {
      ...(settings.feedPublisherDid === undefined ? {} : { [LAMBDA_ENV.feedPublisherDid]: settings.feedPublisherDid }),
      ...(settings.feedRkey === undefined ? {} : { [LAMBDA_ENV.feedRkey]: settings.feedRkey }),
      ...(settings.feedTags === undefined ? {} : { [LAMBDA_ENV.feedTags]: settings.feedTags }),
    };
    checkHttpSettings(settings, feed);
    const domain = settings.customDomain;
    const baseUrl = settings.baseUrl ?? (domain === undefined ? undefined : `https://${domain.domainName}`);
    // Generated by Secrets Manager at deploy; only CloudFront (in its origin header) and the http function know it.
    const originSecret =
      domain === undefined
        ? undefined
        : new Secret(this, 'OriginSecret', {
            description:
              'lorebook: the value CloudFront sends in x-lorebook-origin-secret (docs/operations.md, "Rotate the origin secret")',
            generateSecretString: { passwordLength: 48, excludePunctuation: true },
          });
    const store = {
      ...deploySettings(settings.environment ?? {}),
      [LAMBDA_ENV.table]: table.tableName,
      [LAMBDA_ENV.imageBucket]: images.bucketName,
      // The stream function is told too but never reads it: it only writes the change log.
      [LAMBDA_ENV.searchBucket]: search.bucketName,
      ...(settings.allowedOrigins === undefined ? {} : { LOREBOOK_ALLOWED_ORIGINS: settings.allowedOrigins }),
    };

    const http = handlerFunction(this, 'Http', {
      file: 'http.ts',
      description: 'lorebook: MCP at /mcp and the HTTP API at /v1',
      // Image uploads re-encode with sharp, a native module: shipped beside the bundle for the function's architecture.
      nativeModules: ['sharp'],
      ...FUNCTION_SETTINGS.http,
      ...(settings.httpReservedConcurrency === undefined ? {} : { reservedConcurrentExecutions: settings.httpReservedConcurrency }),
      environment: {
        ...store,
        ...(baseUrl === undefined ? {} : { [LAMBDA_ENV.baseUrl]: baseUrl }),
        ...(originSecret === undefined ? {} : { [LAMBDA_ENV.originSecretId]: originSecret.secretArn }),
        ...feed,
        // The secret's ARN, never the key: the function reads the value at its cold start.
        ...(signIn ? { [SIGN_IN_ENV.mode]: 'production', [LAMBDA_ENV.signInKeySecretId]: signInKey.secretArn } : {}),
      },
    });
    // Auth is the app's own (bearer tokens, 401 + WWW-Authenticate); CORS too (LOREBOOK_ALLOWED_ORIGINS).
    const url = http.addFunctionUrl({ authType: FunctionUrlAuthType.NONE, invokeMode: InvokeMode.BUFFERED });

    const announcing = {
      ...store,
      // Link cards point at the public URL; only the http function can learn its own URL at run time.
      [LAMBDA_ENV.baseUrl]: baseUrl ?? url.url,
      ...(settings.blueskyIdentifier === undefined
        ? {}
        : {
            [LAMBDA_ENV.blueskyService]: settings.blueskyService,
            [LAMBDA_ENV.blueskyIdentifier]: settings.blueskyIdentifier,
            [LAMBDA_ENV.blueskySecretId]: secret.secretArn,
          }),
    };
    const stream = handlerFunction(this, 'Stream', {
      file: 'stream.ts',
      description: 'lorebook: table stream -> notification fan-out and Bluesky announcements',
      ...FUNCTION_SETTINGS.stream,
      environment: announcing,
    });
    const sweeper = handlerFunction(this, 'Sweeper', {
      file: 'sweeper.ts',
      description: 'lorebook: every minute, the announce sweep, the notification backstop and the search snapshot',
      ...FUNCTION_SETTINGS.sweeper,
      environment: announcing,
    });

    grantTableAccess(http, table, TABLE_ACCESS.http);
    grantTableAccess(stream, table, TABLE_ACCESS.stream);
    grantTableAccess(sweeper, table, TABLE_ACCESS.sweeper);
    grantImageAccess(http, images, IMAGE_ACCESS.http);
    grantImageAccess(stream, images, IMAGE_ACCESS.stream);
    grantImageAccess(sweeper, images, IMAGE_ACCESS.sweeper);
    grantSearchAccess(http, search, SEARCH_ACCESS.http);
    grantSearchAccess(sweeper, search, SEARCH_ACCESS.sweeper);
    for (const fn of [stream, sweeper]) {
      // Only the value, never DescribeSecret/ListSecrets; the http function gets nothing of it.
      fn.addToRolePolicy(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [secret.secretArn] }));
    }
    // The http function reads the sign-in key, and only when sign-in is on.
    if (signIn) http.addToRolePolicy(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [signInKey.secretArn] }));
    // And the origin secret, only behind the distribution.
    if (originSecret !== undefined)
      http.addToRolePolicy(new PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [originSecret.secretArn] }));

    const dlq = connectStream(this, table, stream);
    scheduleSweeper(this, sweeper);
    const functions = { Http: http, Stream: stream, Sweeper: sweeper };
    const topic = createAlarms(this, { functions, streamFunction: stream, dlq, email: settings.alarmEmail });
    createMetricAlarms(this, topic);
    const dashboard = createDashboard(this, functions);

    new CfnOutput(this, 'FunctionUrl', { value: url.url, description: 'MCP at <url>mcp, the API at <url>v1' });
    new CfnOutput(this, 'ImageBucketName', {
      value: images.bucketName,
      description: 'where uploaded images are kept (LOREBOOK_IMAGE_BUCKET)',
    });
    new CfnOutput(this, 'SearchBucketName', {
      value: search.bucketName,
      description: 'where search index snapshots are kept (LOREBOOK_SEARCH_BUCKET)',
    });
    new CfnOutput(this, 'TableName', { value: table.tableName, description: 'LOREBOOK_TABLE for npm run token:aws' });
    new CfnOutput(this, 'BlueskySecretArn', { value: secret.secretArn, description: 'put the app password here (docs/deploy.md)' });
    new CfnOutput(this, 'SignInKeySecretArn', {
      value: signInKey.secretArn,
      description: 'put the sign-in private key here (docs/deploy.md)',
    });
    if (domain !== undefined && originSecret !== undefined) {
      const distribution = createDistribution(this, url, originSecret, domain);
      new CfnOutput(this, 'DistributionDomainName', {
        value: distribution.distributionDomainName,
        description: `point ${domain.domainName} here (a CNAME, or an alias record in Route 53)`,
      });
      new CfnOutput(this, 'DistributionId', { value: distribution.distributionId });
      new CfnOutput(this, 'OriginSecretArn', { value: originSecret.secretArn, description: 'rotate it as in docs/operations.md' });
    }
    new CfnOutput(this, 'StreamDlqUrl', { value: dlq.queueUrl });
    new CfnOutput(this, 'AlarmTopicArn', { value: topic.topicArn });
    new CfnOutput(this, 'DashboardName', { value: dashboard.dashboardName, description: 'CloudWatch dashboard (docs/metrics.md)' });
  }
}

/**
 * What the http function would refuse at its cold start, refused at synth instead: a bad feed
 * setting would stop every request (readConfig throws), and production sign-in needs an https
 * base URL (PDSs fetch the client metadata from it).
 */
function checkHttpSettings(settings: LorebookSettings, feed: Record<string, string>): void {
  readConfig(feed);
  const reserved = settings.httpReservedConcurrency;
  if (reserved !== undefined && (!Number.isInteger(reserved) || reserved < 1))
    throw new Error(`httpReservedConcurrency must be a whole number of at least 1, got ${String(reserved)}`);
  if (settings.blueskyOAuthClient !== undefined && settings.blueskyOAuthClient !== 'production') {
    throw new Error(
      `blueskyOAuthClient must be "production" on AWS (the loopback client works on 127.0.0.1 only), got "${String(settings.blueskyOAuthClient)}"`,
    );
  }
  if (settings.blueskyOAuthClient === 'production' && settings.baseUrl !== undefined && !settings.baseUrl.startsWith('https://')) {
    throw new Error(`Sign in with Bluesky needs an https baseUrl, got "${settings.baseUrl}"`);
  }
}
