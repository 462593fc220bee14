// The Bluesky app password lives in Secrets Manager, never in the function's environment (which
// anyone with lambda:GetFunctionConfiguration can read). It is read once per cold start: the
// promise is kept, so every invocation of a warm container reuses the one answer (a failed read
// is forgotten, so the next invocation tries again).
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { once } from './once.ts';

/**
 * The value the stack creates the secret with. Until an operator replaces it (docs/deploy.md),
 * announcing stays off: signing in with a placeholder would only be refused, count failed
 * attempts against every queued story and risk locking the account.
 */
export const UNSET_APP_PASSWORD = 'unset: aws secretsmanager put-secret-value (docs/deploy.md)';

export type SecretReader = () => Promise<string | undefined>;

/** Reads the secret's string once; undefined while it still holds the placeholder. */
export function secretReaderOnce(client: SecretsManagerClient, secretId: string): SecretReader {
  return once(async () => {
    const output = await client.send(new GetSecretValueCommand({ SecretId: secretId }));
    const value = output.SecretString?.trim();
    return value === undefined || value === '' || value === UNSET_APP_PASSWORD ? undefined : value;
  });
}

/** The client the handlers use on AWS: region and credentials from the Lambda environment. */
export function defaultSecretsClient(): SecretsManagerClient {
  return new SecretsManagerClient({});
}
