// The origin secret CloudFront sends to the http function (infra/distribution.ts), read from
// Secrets Manager: loaded by handlers/http.ts on first use, and only when the stack put the
// function behind a distribution (LOREBOOK_ORIGIN_SECRET_ID set), so a cold start without a
// custom domain loads none of it. The current value and the previous one are both accepted, so
// while a rotation reaches CloudFront (docs/operations.md) no viewer is keyed on CloudFront's
// address. Read once per container; a failed read is not kept, the next invocation reads again.
import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { Context } from 'hono';
import type { ClientAddress } from '../src/http/admission.ts';
import type { HttpEnv } from '../src/http/http-env.ts';
import { defaultSecretsClient } from './bluesky-secret.ts';
import { clientAddress, ORIGIN_SECRET_HEADER, VIEWER_ADDRESS_HEADER } from './client-address.ts';

export interface OriginAddress {
  /** Reads the accepted secrets if they are not known yet; never throws (a failure is logged). */
  refresh(): Promise<void>;
  /** The caller's address: the viewer's when the request carries an accepted secret, else `direct`'s. */
  of(c: Context<HttpEnv>, direct: ClientAddress): string | undefined;
}

export function originAddress(secretId: string, client: SecretsManagerClient | undefined, log: (line: string) => void): OriginAddress {
  const secrets = client ?? defaultSecretsClient();
  let accepted: readonly string[] | undefined;
  return {
    async refresh() {
      if (accepted !== undefined) return;
      try {
        accepted = await acceptedSecrets(secrets, secretId);
      } catch (error) {
        log(
          `lorebook: could not read the origin secret ${secretId} (${String(error)}); the rate limit keys on each request's source IP until it is read`,
        );
      }
    },
    of(c, direct) {
      const headers = { originSecret: c.req.header(ORIGIN_SECRET_HEADER), viewerAddress: c.req.header(VIEWER_ADDRESS_HEADER) };
      return clientAddress(headers, direct(c), accepted ?? []);
    },
  };
}

/** AWSCURRENT and, when there is one, AWSPREVIOUS. */
async function acceptedSecrets(client: SecretsManagerClient, secretId: string): Promise<string[]> {
  const read = async (stage: string): Promise<string | undefined> => {
    try {
      return (await client.send(new GetSecretValueCommand({ SecretId: secretId, VersionStage: stage }))).SecretString || undefined;
    } catch (error) {
      // A secret never rotated has no previous version.
      if (stage === 'AWSPREVIOUS' && (error as { name?: string }).name === 'ResourceNotFoundException') return undefined;
      throw error;
    }
  };
  const current = await read('AWSCURRENT');
  if (current === undefined) throw new Error('the secret holds no string');
  const previous = await read('AWSPREVIOUS');
  return previous === undefined ? [current] : [current, previous];
}
