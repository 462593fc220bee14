// The layering rules (.dependency-cruiser.mjs, docs/design.md#layering) catch what they forbid: a small tree
// that breaks each rule once (test/fixtures/layering/) is reported rule by rule, what the rules
// allow in it is not, and the real tree breaks none of them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cruise } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const fixture = fileURLToPath(new URL('../fixtures/layering', import.meta.url));

// What `npm run lint:deps` cruises: the code that ships.
const SHIPPED_CODE = ['src', 'handlers', 'integrations', 'infra'];

/** A package's file (…/node_modules/@aws-sdk/client-dynamodb/dist-es/index.js) read as its name. */
function packageName(resolved: string): string {
  const inPackages = resolved.split('node_modules/').at(-1) ?? resolved;
  const parts = inPackages.split('/');
  return inPackages.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] ?? inPackages);
}

/** Each violation the rules report over `paths` (relative to `baseDir`), as `rule: from → to`. */
async function violations(baseDir: string, paths: string[]): Promise<string[]> {
  const options = await extractDepcruiseOptions(`${root}/.dependency-cruiser.mjs`);
  const { output } = await cruise(paths, { ...options, baseDir });
  if (typeof output === 'string') throw new Error('expected the cruise result, got a report');
  return output.summary.violations
    .map(({ rule, from, to }) => `${rule.name}: ${from} → ${to.includes('node_modules/') ? packageName(to) : to}`)
    .sort();
}

describe('the layering rules catch each violation', () => {
  it('a tree breaking each rule once is reported by every rule, naming the import; what the rules allow is not reported', async () => {
    expect(await violations(fixture, ['src', 'handlers', 'infra'])).toEqual([
      'app-imports-no-surface: src/app/answers-http.ts → src/http/route.ts',
      'domain-imports-no-io: src/domain/reaches-the-store.ts → src/store/table.ts',
      'domain-imports-no-io: src/domain/reads-a-file.ts → fs',
      'domain-imports-no-io: src/domain/serves-http.ts → hono',
      'http-reaches-mcp-only-through-mcp-route: src/http/route.ts → src/mcp/tool.ts',
      'mcp-imports-no-http: src/mcp/tool.ts → src/http/problem.ts',
      'no-circular-between-folders: src/app → src/auth',
      'no-circular-between-folders: src/auth → src/app',
      // mcp/tool.ts → http/problem.ts closes a folder cycle with the allowed /mcp route.
      'no-circular-between-folders: src/http → src/mcp',
      'no-circular-between-folders: src/mcp → src/http',
      // A cycle of modules is reported once, from its first module.
      'no-circular: src/app/cycle-first.ts → src/app/cycle-second.ts',
      'not-to-unresolvable: src/app/imports-nothing-there.ts → ./not-there.ts',
      'only-infra-imports-aws-cdk: src/cli/deploys.ts → aws-cdk-lib',
      'only-store-imports-aws-sdk: src/outbox/talks-to-dynamodb.ts → @aws-sdk/client-dynamodb',
    ]);
  });

  it('the real tree breaks none of the rules', async () => {
    expect(await violations(root, SHIPPED_CODE)).toEqual([]);
  });

  it('npm run lint:deps cruises the same code with the same rules', () => {
    const scripts = JSON.parse(readFileSync(`${root}/package.json`, 'utf8')).scripts as Record<string, string>;
    expect(scripts['lint:deps']).toBe(`depcruise --config .dependency-cruiser.mjs ${SHIPPED_CODE.join(' ')}`);
  });
});
