// DynamoDB Local is ready when a ListTables answers 200. Jetty accepts connections slightly
// before the request handler is wired, so a TCP connect alone is not proof.
// Raw HTTP on purpose: only src/store imports the AWS SDK (docs/design.md#layers). DynamoDB Local does not
// verify signatures, it only reads the credential scope from the Authorization header.
import { request } from 'node:http';

const LIST_TABLES_HEADERS = {
  'content-type': 'application/x-amz-json-1.0',
  'x-amz-target': 'DynamoDB_20120810.ListTables',
  authorization: 'AWS4-HMAC-SHA256 Credential=local/20200101/local/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
};

/** One ListTables round trip; resolves true on HTTP 200, false on any failure. */
export function listTablesSucceeds(endpoint: string, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const req = request(endpoint, { method: 'POST', headers: LIST_TABLES_HEADERS, agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200));
      res.on('error', () => resolve(false));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
    req.end('{}');
  });
}

export interface WaitOptions {
  timeoutMs: number;
  intervalMs?: number;
  /** Stops waiting early (e.g. the process exited): return a reason to give up. */
  giveUp?: () => string | undefined;
}

/** Polls until ListTables succeeds; resolves undefined when ready, or the reason it is not. */
export async function waitUntilReady(endpoint: string, options: WaitOptions): Promise<string | undefined> {
  const { timeoutMs, intervalMs = 100, giveUp } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const reason = giveUp?.();
    if (reason !== undefined) return reason;
    if (await listTablesSucceeds(endpoint)) return undefined;
    if (Date.now() >= deadline) return `no successful ListTables within ${timeoutMs} ms`;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
