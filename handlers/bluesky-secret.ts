// The Bluesky app password lives in Secrets Manager, never in the function's environment (which
// anyone with lambda:GetFunctionConfiguration can read). A real value is read once per cold start
// and kept for the container's life; a failed read is not kept (the next invocation tries again);
// the stack's placeholder is kept only for `recheckMs`, so setting the secret after deploying
// turns announcing on within minutes without a redeploy.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

/**
 * The value the stack creates the secret with. Until an operator replaces it (docs/deploy.md),
 * announcing stays off: signing in with a placeholder would only be refused, count failed
 * attempts against every queued story and risk locking the account.
 */
export const UNSET_APP_PASSWORD = 'unset: aws secretsmanager put-secret-value (docs/deploy.md)';

/** How long the placeholder is believed before the secret is read again. */
export const DEFAULT_SECRET_RECHECK_MS = 5 * 60_000;

/** The app password, or undefined while the secret still holds the placeholder. */
export type SecretReader = () => Promise<string | undefined>;

export function secretReader(
  client: SecretsManagerClient,
  secretId: string,
  recheckMs = DEFAULT_SECRET_RECHECK_MS,
  now: () => number = Date.now,
): SecretReader {
  let known: { value: string | undefined; at: number } | undefined;
  let reading: Promise<string | undefined> | undefined;
  const read = async (): Promise<string | undefined> => {
    const output = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
    const value = output.SecretString?.trim();
    return value === undefined || value === '' || value === UNSET_APP_PASSWORD ? undefined : value;
  };
  return async () => {
    if (known !== undefined && (known.value !== undefined || now() - known.at < recheckMs)) return known.value;
    // Concurrent invocations of one container share the one read.
    reading ??= read()
      .then((value) => {
        known = { value, at: now() };
        return value;
      })
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };
}

/** The client the handlers use on AWS: region and credentials from the Lambda environment. */
export function defaultSecretsClient(): SecretsManagerClient {
  return new SecretsManagerClient({});
}
