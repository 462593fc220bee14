import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Surface } from '../../../src/settings/setting.ts';
import { SETTINGS } from '../../../src/settings/settings-table.ts';

const run = promisify(execFile);
const ROOT = new URL('../../../', import.meta.url).pathname;
const HELP_MS = 60_000;

const COMMANDS: [Surface, string][] = [
  ['start', 'src/cli/start.ts'],
  ['sweep', 'src/cli/sweep.ts'],
  ['token', 'src/cli/token.ts'],
  ['bsky:publish-feed', 'src/cli/publish-feed.ts'],
];

/** The setting names listed in the help's environment section, in order. */
function listed(help: string): string[] {
  const start = help.indexOf('environment (every setting: docs/config.md):');
  expect(start).toBeGreaterThanOrEqual(0);
  const section = help.slice(start).split('\n\n')[0] as string;
  return [...section.matchAll(/^ {2}([A-Z][A-Z0-9_]+)\b/gm)].map(([, name]) => name as string);
}

describe("each command's --help", () => {
  it.each(COMMANDS)(
    '%s lists exactly the settings the table gives it, each with its default',
    async (surface, file) => {
      const { stdout } = await run(process.execPath, [file, '--help'], { cwd: ROOT, timeout: HELP_MS });
      const mine = SETTINGS.filter((setting) => (setting.surfaces as readonly Surface[]).includes(surface));
      expect(listed(stdout)).toEqual(mine.map((setting) => setting.name));
      for (const setting of mine) if ('default' in setting) expect(stdout.replace(/\s+/g, ' ')).toContain(`(default ${setting.default})`);
    },
    HELP_MS,
  );
});
