// Every `-c` key the CDK app reads is in docs/deploy.md's table of context settings, and every key
// the table lists is read: an operator learns the stack's settings from that table alone.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const INFRA = new URL('../../../infra/', import.meta.url);
const DEPLOY_DOC = new URL('../../../docs/deploy.md', import.meta.url);

const sources = readdirSync(INFRA)
  .filter((file) => file.endsWith('.ts'))
  .map((file) => ({ file, text: readFileSync(new URL(file, INFRA), 'utf8') }));

/** Context keys read by name: `tryGetContext('k')`, `getContext('k')`, or app.ts's helpers `text('k')` and `optional('k')`. */
const READ = /\b(?:tryGetContext|getContext|text|optional)\(\s*['"]([A-Za-z][A-Za-z0-9]*)['"]/g;
const keysRead = new Set(sources.flatMap(({ text }) => [...text.matchAll(READ)].map((match) => match[1] as string)));

/** The first column of the table under "| `-c` key |". */
function documentedKeys(): Set<string> {
  const lines = readFileSync(DEPLOY_DOC, 'utf8').split('\n');
  const header = lines.findIndex((line) => line.startsWith('| `-c` key |'));
  expect(header, 'docs/deploy.md has the table of -c keys').toBeGreaterThan(-1);
  const rows = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line);
  }
  return new Set(rows.map((row) => /^\| `([^`]+)` \|/.exec(row)?.[1] ?? `unparsed row: ${row}`));
}

describe('the -c keys of infra/ and docs/deploy.md', () => {
  it('context is read in one place only: the helper in infra/app.ts that every key goes through', () => {
    const readers = sources.flatMap(({ file, text }) =>
      [...text.matchAll(/\b(?:tryGetContext|getContext)\(([^)]*)\)/g)].map((m) => `${file}: ${m[1]}`),
    );
    expect(readers).toEqual(['app.ts: key']);
    // The scan finds the keys it must (so a changed helper cannot make it find none).
    expect([...keysRead]).toEqual(
      expect.arrayContaining(['baseUrl', 'settings', 'tableName', 'domainName', 'certificateArn', 'wafRateLimit']),
    );
  });

  it('every key read is documented, and every documented key is read', () => {
    const documented = documentedKeys();
    expect(
      [...keysRead].filter((key) => !documented.has(key)),
      'read by infra/ but not in docs/deploy.md',
    ).toEqual([]);
    expect(
      [...documented].filter((key) => !keysRead.has(key)),
      'in docs/deploy.md but read by no infra/ file',
    ).toEqual([]);
  });
});
