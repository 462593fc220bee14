// The metrics the http function writes, read back from its stdout as CloudWatch would read them:
// the real handlers/http.ts behind synthetic Function URL events, the real Powertools EMF output.
// The 500 comes from a real fault, not a mock: a function whose LOREBOOK_TABLE names a table that
// does not exist (a broken deployment) fails its first store call with ResourceNotFoundException,
// which is no retryable trouble, so the app answers it as a bug.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHttpHandler } from '../../../handlers/http.ts';
import { FUNCTION_URL, functionUrlFetch } from '../../helpers/function-url.ts';
import { testEndpoint, testTableName, useTestTable } from '../../helpers/test-table.ts';

const table = useTestTable('http-metrics');

let stdout: string[];
beforeEach(() => {
  stdout = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    stdout.push(String(chunk));
    return true;
  });
  // The unexpected error's own log line: not what this file reads.
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => vi.restoreAllMocks());

/** The EMF objects written to stdout: each line with an `_aws` member. */
const emfLines = (): Record<string, unknown>[] =>
  stdout
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{') && line.includes('"_aws"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** The EMF object whose dimension set is exactly `dimensions` and which carries `metric`. */
function emfPoint(metric: string, dimensions: string[]): Record<string, unknown> | undefined {
  return emfLines().find((line) => {
    const [directive] = (line._aws as { CloudWatchMetrics: { Dimensions: string[][]; Metrics: { Name: string }[] }[] }).CloudWatchMetrics;
    return (
      JSON.stringify(directive?.Dimensions) === JSON.stringify([['service', ...dimensions]]) &&
      directive?.Metrics.some((definition) => definition.Name === metric) === true
    );
  });
}

const fetchFrom = (tableName: string): typeof fetch =>
  functionUrlFetch(
    createHttpHandler({
      env: { LOREBOOK_DDB_ENDPOINT: testEndpoint(), LOREBOOK_TABLE: tableName },
      log: () => undefined,
    }),
  );

describe('the http function writes its counters as EMF before it answers', () => {
  it('a 500 moves Requests with StatusClass 5xx, by surface and in the total the 5xx alarm reads', async () => {
    const answer = await fetchFrom(testTableName('no-such-table'))(`${FUNCTION_URL}/v1/stories`);
    expect(answer.status).toBe(500);

    const bySurface = emfPoint('Requests', ['Surface', 'StatusClass']);
    expect(bySurface).toMatchObject({ service: 'lorebook', Surface: 'v1', StatusClass: '5xx', Requests: 1 });
    expect(bySurface?._aws).toMatchObject({
      CloudWatchMetrics: [{ Namespace: 'lorebook', Metrics: [{ Name: 'Requests', Unit: 'Count' }] }],
    });
    expect(emfPoint('Requests', ['StatusClass'])).toMatchObject({ service: 'lorebook', StatusClass: '5xx', Requests: 1 });
    // A bug is no refusal: nothing counted by error code.
    expect(emfPoint('Refusals', ['Code'])).toBeUndefined();
  });

  it('a refusal moves Refusals under its error code and Requests under 4xx; a good answer moves 2xx', async () => {
    const fetchIt = fetchFrom(table.tableName);
    expect((await fetchIt(`${FUNCTION_URL}/v1/stories/2026-01-01-no-such-story`)).status).toBe(404);
    expect(emfPoint('Refusals', ['Code'])).toMatchObject({ Code: 'not_found', Refusals: 1 });
    expect(emfPoint('Requests', ['Surface', 'StatusClass'])).toMatchObject({ Surface: 'v1', StatusClass: '4xx', Requests: 1 });

    stdout.length = 0;
    expect((await fetchIt(`${FUNCTION_URL}/v1/stories`)).status).toBe(200);
    expect(emfPoint('Requests', ['StatusClass'])).toMatchObject({ StatusClass: '2xx', Requests: 1 });
    expect(emfPoint('Refusals', ['Code'])).toBeUndefined();
  });
});
