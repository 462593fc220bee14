// A FAKE AWS Secrets Manager for tests: a loopback HTTP server that speaks the GetSecretValue
// JSON protocol (awsJson1_1, X-Amz-Target: secretsmanager.GetSecretValue), so the real
// @aws-sdk/client-secrets-manager client can be pointed at it by endpoint. AWS is not reachable
// from the test machines; this stands in for exactly one call and counts it.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

export interface FakeSecretsManager {
  url: string;
  /** GetSecretValue calls answered (or refused) so far. */
  reads(): number;
  /** The value returned from now on; `fail: n` refuses the next n reads with a 500. */
  set(value: string, options?: { fail?: number }): void;
  /** The AWSPREVIOUS version's value (asked for with VersionStage); unset: ResourceNotFoundException, as for a secret never rotated. */
  setPrevious(value: string | undefined): void;
  /** A real SDK client aimed at this fake. */
  client(): SecretsManagerClient;
  close(): Promise<void>;
}

export async function startFakeSecretsManager(initial: string): Promise<FakeSecretsManager> {
  let value = initial;
  let previous: string | undefined;
  let failures = 0;
  let reads = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      reads += 1;
      const target = req.headers['x-amz-target'];
      const { SecretId, VersionStage } = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
        SecretId?: string;
        VersionStage?: string;
      };
      const stagePrevious = VersionStage === 'AWSPREVIOUS';
      res.setHeader('content-type', 'application/x-amz-json-1.1');
      if (target !== 'secretsmanager.GetSecretValue' || SecretId === undefined) {
        res.statusCode = 400;
        res.end(
          JSON.stringify({ __type: 'InvalidRequestException', message: `the fake answers GetSecretValue only, got ${String(target)}` }),
        );
      } else if (stagePrevious && previous === undefined) {
        res.statusCode = 400;
        res.end(
          JSON.stringify({
            __type: 'ResourceNotFoundException',
            message: "Secrets Manager can't find the specified secret value for staging label: AWSPREVIOUS",
          }),
        );
      } else if (failures > 0) {
        failures -= 1;
        res.statusCode = 500;
        res.end(JSON.stringify({ __type: 'InternalServiceError', message: 'injected by the fake' }));
      } else {
        res.end(
          JSON.stringify({
            ARN: SecretId,
            Name: 'lorebook-bluesky',
            SecretString: stagePrevious ? previous : value,
            VersionId: stagePrevious ? 'v0' : 'v1',
            VersionStages: [stagePrevious ? 'AWSPREVIOUS' : 'AWSCURRENT'],
            CreatedDate: 1_780_000_000,
          }),
        );
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    reads: () => reads,
    set(next, options = {}) {
      value = next;
      failures = options.fail ?? 0;
    },
    setPrevious(next) {
      previous = next;
    },
    // maxAttempts 1: a refusal the test injects is seen as is, not retried away by the SDK.
    client: () =>
      new SecretsManagerClient({
        endpoint: url,
        region: 'eu-west-1',
        maxAttempts: 1,
        credentials: { accessKeyId: 'fake', secretAccessKey: 'fake' },
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
