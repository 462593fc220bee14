// The secret scan leaves nothing behind in the process: secretlint's profiler would put a mark
// per rule of every scan on the performance timeline and keep them for ever (a server scans every
// publish and edit), so it is turned off.
import { type PerformanceEntry, performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { scanForSecrets } from '../../../../../src/domain/secrets/scan-secrets.ts';

const secretlintMarks = (): PerformanceEntry[] => performance.getEntriesByType('mark').filter((entry) => entry.name.startsWith('@core>'));

describe('the secret scan', () => {
  it('leaves no performance marks behind, however many texts it scans', async () => {
    for (let i = 0; i < 20; i += 1) await scanForSecrets(`# Story ${i}\n\nNothing secret here, only text number ${i}.\n`);
    expect(secretlintMarks()).toEqual([]);
  });
});
