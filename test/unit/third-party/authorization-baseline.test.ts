// The authorization conformance baseline is judged like the suite's own --expected-failures: what
// fails unlisted fails the run, and so does a listed entry that passes (the list cannot go stale).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { judge, readBaseline, readResults } from '../../third-party/authorization-baseline.ts';

const ok = (id: string) => ({ id, status: 'SUCCESS' });
const bad = (id: string, status = 'FAILURE') => ({ id, status });

describe('judge', () => {
  it('an unlisted failing or warning check is unexpected; a passing one is nothing', () => {
    const results = new Map([['metadata', [ok('shape'), bad('cimd', 'WARNING'), bad('iss')]]]);
    expect(judge(results, [])).toEqual({ unexpected: ['metadata:cimd', 'metadata:iss'], stale: [], expected: [] });
  });

  it('a listed check that fails is expected, and one that passes is stale', () => {
    const results = new Map([['metadata', [bad('cimd', 'WARNING'), ok('iss')]]]);
    expect(judge(results, ['metadata:cimd', 'metadata:iss'])).toEqual({
      unexpected: [],
      stale: ['metadata:iss'],
      expected: ['metadata:cimd'],
    });
  });

  it('a listed scenario is expected while it does not pass, skipped included, and stale once every check passes', () => {
    expect(judge(new Map([['grant', [bad('grant', 'SKIPPED')]]]), ['grant'])).toEqual({ unexpected: [], stale: [], expected: ['grant'] });
    expect(judge(new Map([['grant', [ok('grant')]]]), ['grant'])).toEqual({ unexpected: [], stale: ['grant'], expected: [] });
  });

  it('an unlisted scenario that ran no check is unexpected', () => {
    expect(judge(new Map([['grant', []]]), []).unexpected).toEqual(['grant (no checks ran)']);
  });
});

describe('reading the suite output and the baseline', () => {
  let dir: string | undefined;
  afterEach(() => dir !== undefined && rmSync(dir, { recursive: true, force: true }));

  it('reads each scenario from its timestamped result folder, and the baseline list', () => {
    dir = mkdtempSync(join(tmpdir(), 'lorebook-auth-baseline-'));
    const folder = join(dir, 'authorization-server-authorization-code-grant-2026-12-01T15-18-31-020Z');
    mkdirSync(folder);
    writeFileSync(join(folder, 'checks.json'), JSON.stringify([bad('authorization-code-grant', 'SKIPPED')]));
    writeFileSync(join(dir, 'baseline.yml'), 'authorization:\n  # why\n  - authorization-code-grant\n');
    expect([...readResults(dir)]).toEqual([['authorization-code-grant', [bad('authorization-code-grant', 'SKIPPED')]]]);
    expect(readBaseline(join(dir, 'baseline.yml'))).toEqual(['authorization-code-grant']);
  });

  it('a baseline that is not a list of strings is refused', () => {
    dir = mkdtempSync(join(tmpdir(), 'lorebook-auth-baseline-'));
    writeFileSync(join(dir, 'baseline.yml'), 'authorization:\n  - metadata: cimd\n');
    expect(() => readBaseline(join(dir as string, 'baseline.yml'))).toThrow(/must be a list/);
  });
});
