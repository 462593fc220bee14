// The code before a change, to measure it in the same run as the code after: the server's sources
// at a named commit, unpacked with `git archive` into a temporary directory beside this tree's
// node_modules, so the bench can start that commit's server-process.ts next to this one.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** What the baseline is, for the report. */
export interface BaselineTree {
  commit: string;
  /** Its test/bench/server-process.ts. */
  server: string;
  remove(): void;
}

export function unpackBaseline(commit: string): BaselineTree {
  const dir = mkdtempSync(join(tmpdir(), 'lorebook-baseline-'));
  const archive = execFileSync(
    'git',
    ['-C', ROOT, 'archive', commit, 'src', 'integrations', 'test/bench', 'test/helpers', 'package.json'],
    {
      maxBuffer: 256 * 1024 * 1024,
    },
  );
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return { commit, server: join(dir, 'test/bench/server-process.ts'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}
