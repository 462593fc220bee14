// A poller process killed with SIGKILL in the middle of a batch (its checkpoint for the batches
// before it written, none for this one) is resumed by the next process from the first record it
// had not finished: the batch in flight is handed over again, nothing before it is, nothing is
// skipped.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../../helpers/eventually.ts';
import { writeItems } from '../../helpers/stream-poller.ts';
import { testEndpoint, useTestTable } from '../../helpers/test-table.ts';

const CHILD = join(import.meta.dirname, '../../helpers/stream-poller-child.ts');
const table = useTestTable('table stream poller killed', { stream: true });
const dir = mkdtempSync(join(tmpdir(), 'lorebook-poller-killed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Line = { finished?: string[]; holding?: string[] };
const linesOf = (file: string): Line[] => {
  try {
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Line);
  } catch {
    return [];
  }
};

function runChild(out: string, holdAt: number) {
  const child = spawn(process.execPath, [CHILD], {
    env: {
      ...process.env,
      ENDPOINT: testEndpoint(),
      TABLE: table.tableName,
      NAMESPACE: 'killed',
      BATCH_SIZE: '3',
      OUT: out,
      HOLD_AT: String(holdAt),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<NodeJS.Signals | number | null>((done) => child.once('exit', (code, signal) => done(signal ?? code)));
  return { child, exited, stderr: () => stderr };
}

describe('a poller process killed mid-batch', () => {
  it('is resumed by the next process at the batch it was killed in: handed over again, nothing before it repeated, nothing skipped', async () => {
    const written = await writeItems(table.client, table.tableName, 'k', 0, 10);
    const firstOut = join(dir, 'first.jsonl');
    const first = runChild(firstOut, 3);
    const held = await eventually(
      async () => linesOf(firstOut).find((line) => line.holding !== undefined)?.holding,
      `the first process reaches its third batch (stderr: ${first.stderr()})`,
      20_000,
    );
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    const finishedBefore = linesOf(firstOut).flatMap((line) => line.finished ?? []);
    expect(finishedBefore).toEqual(written.slice(0, 6));
    expect(held).toEqual(written.slice(6, 9));

    const secondOut = join(dir, 'second.jsonl');
    const second = runChild(secondOut, 0);
    try {
      const resumed = await eventually(
        async () => {
          const sks = linesOf(secondOut).flatMap((line) => line.finished ?? []);
          return sks.length >= written.length - finishedBefore.length ? sks : undefined;
        },
        `the second process catches up (stderr: ${second.stderr()})`,
        20_000,
      );
      expect(resumed).toEqual(written.slice(6));
    } finally {
      second.child.kill('SIGKILL');
      await second.exited;
    }
  });
});
