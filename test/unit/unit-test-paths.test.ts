// A unit test sits at the path of the module it tests, so the test of a file is found without a
// search: test/unit/<path>.test.ts tests src/<path>.ts (handlers/, infra/ and integrations/ keep
// their own root: test/unit/infra/<path>.test.ts tests infra/<path>.ts). A module tested in
// several files gets a folder of its name: test/unit/config/feeds.test.ts tests src/config.ts.
// The few tests that cover many modules, or something that is not a module, are listed below,
// each with its reason.
import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const REPO = new URL('../../', import.meta.url).pathname;
const OWN_ROOTS = new Set(['handlers', 'infra', 'integrations']);

/** Test files that mirror no one module, each with why. */
const MANY_MODULES: Record<string, string> = {
  'chromium-choice.test.ts': 'tests a test helper (test/helpers/chromium.ts), not a module',
  'round-trips.test.ts': 'tests a test helper (test/helpers/round-trips.ts), not a module',
  'layering.test.ts': 'the layering rules (.dependency-cruiser.mjs) on fixture folders',
  'unit-test-paths.test.ts': 'this rule, over the whole of test/unit/',
  'slowest-first-sequencer.test.ts': "the test runner's file order (test/sequencer/), not a module",
  'vitest-config.test.ts': "the test runner's projects (vitest.config.ts), over the test files",
  'docs/readme-connect.test.ts': "the README's connect-your-agent blocks, a document",
  'docs/design-anchors.test.ts': 'every reference to docs/design.md across the repository, a document',
  'skill/skill-portable-shell.test.ts': "the skill's shell examples (skills/lorebook/SKILL.md), a document",
  'third-party/authorization-baseline.test.ts': 'the MCP conformance baseline file in test/third-party/',
  'handlers/log-line.test.ts': "every Lambda's and CLI's log sink, each in a real process",
  'install-platforms.test.ts': 'the install on every platform: package.json, the lockfile, .npmrc and tools/, not a module',
  'infra/context-keys-documented.test.ts': "every -c key read across infra/ against docs/deploy.md's table",
  'domain/normalize-and-hash.test.ts': 'the write path across parse, normalize, serialize and content hash',
  'domain/story-format.test.ts': 'the story format across parse-story and normalize-markdown',
  'domain/story-reflow.test.ts': 'section order across parse-story, section labels, label order and read-only steps',
  'mcp/tool-schemas.test.ts': "every tool's contract against the tool listing",
  'store/oauth-items.test.ts': "the five OAuth item modules of store/identity/, one grant's life",
  'store/story-queries.test.ts': 'the story queries (revisions, story index) against one table shape',
};

function testFiles(dir = 'test/unit'): string[] {
  return readdirSync(`${REPO}${dir}`, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? testFiles(`${dir}/${entry.name}`) : entry.name.endsWith('.test.ts') ? [`${dir}/${entry.name}`] : [],
  );
}

/** Whether test/unit/<path>.test.ts names a module, or sits in a folder named after one. */
function mirrorsAModule(testFile: string): boolean {
  const parts = testFile.slice('test/unit/'.length, -'.test.ts'.length).split('/');
  const root = OWN_ROOTS.has(parts[0] as string) ? '' : 'src/';
  return parts.some((_, index) => existsSync(`${REPO}${root}${parts.slice(0, index + 1).join('/')}.ts`));
}

describe('unit test paths', () => {
  it('every unit test file mirrors the module it tests, or is listed with its reason', () => {
    const strays = testFiles().filter((file) => !mirrorsAModule(file) && MANY_MODULES[file.slice('test/unit/'.length)] === undefined);
    expect(strays).toEqual([]);
  });

  it('every listed test exists and mirrors no module (a listing is never stale)', () => {
    const listed = Object.keys(MANY_MODULES).map((name) => `test/unit/${name}`);
    expect(listed.filter((file) => !existsSync(`${REPO}${file}`) || mirrorsAModule(file))).toEqual([]);
  });

  it('a test named after no module is found (the rule is not vacuous)', () => {
    expect(mirrorsAModule('test/unit/app/no-such-module.test.ts')).toBe(false);
    expect(mirrorsAModule('test/unit/config/feeds.test.ts')).toBe(true);
    expect(mirrorsAModule('test/unit/infra/lorebook-stack/template.test.ts')).toBe(true);
  });
});
