// `npm start` logs the counters the Lambda functions write as EMF (docs/metrics.md): one line per
// LOREBOOK_METRICS_LOG_INTERVAL_MS (1 s here, a minute by default) holding what moved since the
// line before, against the real server process and its real stdout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../helpers/eventually.ts';
import { type NpmStart, startNpmStart } from '../helpers/npm-start.ts';
import { testEndpoint, useTestTable } from '../helpers/test-table.ts';

const table = useTestTable('e2e-metrics-npm-start');
let server: NpmStart | undefined;

beforeAll(async () => {
  server = await startNpmStart({ endpoint: testEndpoint(), table: table.tableName, env: { LOREBOOK_METRICS_LOG_INTERVAL_MS: '1000' } });
}, 120_000);
afterAll(async () => {
  await server?.stop();
}, 60_000);

const METRICS_LINE = 'lorebook: metrics, last 1 s: ';

/** Every counter in every metrics line so far, added up: the requests may fall in two intervals. */
function counted(): Map<string, number> {
  const sums = new Map<string, number>();
  for (const line of (server as NpmStart).output().split('\n')) {
    if (!line.startsWith(METRICS_LINE)) continue;
    for (const pair of line.slice(METRICS_LINE.length).split(' ')) {
      const at = pair.lastIndexOf('=');
      sums.set(pair.slice(0, at), (sums.get(pair.slice(0, at)) ?? 0) + Number(pair.slice(at + 1)));
    }
  }
  return sums;
}

describe('npm start logs its counters', () => {
  it('an answer and a refusal show up in the interval lines: requests by surface and status class, the refusal by its code', async () => {
    const base = (server as NpmStart).baseUrl;
    expect((await fetch(`${base}/v1/stories`)).status).toBe(200);
    expect((await fetch(`${base}/v1/stories/2026-01-01-no-such-story`)).status).toBe(404);
    const sums = await eventually(
      async () => {
        const now = counted();
        return now.get('Requests{Surface=v1,StatusClass=4xx}') === 1 ? now : undefined;
      },
      'a metrics line counting the refusal',
      10_000,
    );
    expect(Object.fromEntries(sums)).toEqual({
      'Requests{Surface=v1,StatusClass=2xx}': 1,
      'Requests{Surface=v1,StatusClass=4xx}': 1,
      'Refusals{Code=not_found}': 1,
    });
  });
});
