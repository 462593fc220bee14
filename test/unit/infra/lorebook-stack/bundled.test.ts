// The one synthesis that bundles for real (local esbuild, no Docker), as `npm run synth` and
// `cdk deploy` do: each function's asset is an ES module that Node 22 loads and that exports
// the handler the template names, split into chunks that load on first use: every chunk loads,
// and the http function's cold start reads at most 1.5 MB.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resourcesOf, synthesize } from '../synth.ts';

/**
 * What the http function may load to serve /mcp and /v1: issue 18's bound. What only some calls
 * need waits in chunks loaded on first use (the rarer use cases, the account page, the OpenAPI
 * document, the skill's text), so a cold start pays for what every call needs; code that grows
 * past this goes to first use too, rather than the bound moving.
 */
const HTTP_START_MAX_BYTES = 1_500_000;

let assets: Map<string, string>;

beforeAll(() => {
  const { json, outdir } = synthesize({}, { bundle: true });
  assets = new Map(
    resourcesOf(json, 'AWS::Lambda::Function').map(([id, fn]) => {
      const key = String((fn.Properties.Code as { S3Key: string }).S3Key);
      return [id, join(outdir, `asset.${key.replace(/\.zip$/, '')}`)];
    }),
  );
}, 240_000);

const importIn = (script: string): string =>
  execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 60_000 }).trim();

/** `import … from "./x.mjs"` and `import "./x.mjs"`, as esbuild writes them; never `import("./x.mjs")`. */
const STATIC_IMPORT = /\bimport\s*(?:[^"'();]*?\bfrom\s*)?["'](\.\.?\/[^"']+)["']/g;

/** index.mjs and every file it reaches by static imports: what importing the handler reads. */
function startupFiles(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const match of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) visit(resolve(dirname(file), match[1] as string));
  };
  visit(entry);
  return [...seen];
}

const httpAsset = (): string => [...assets].find(([id]) => id.startsWith('Http'))?.[1] as string;

describe('npm run synth bundles every handler', () => {
  it("each function's asset is index.mjs, and a fresh Node 22 process imports it and finds `handler`", { timeout: 180_000 }, () => {
    expect(assets.size).toBe(3);
    for (const [id, asset] of assets) {
      const bundle = join(asset, 'index.mjs');
      expect(existsSync(bundle), `${id}: ${bundle}`).toBe(true);
      // Import only: the handlers build nothing until their first event.
      expect(importIn(`const m = await import(${JSON.stringify(bundle)}); console.log(typeof m.handler)`), id).toBe('function');
      // sharp is not in the bundle: only the http function carries it, as linux-arm64 glibc binaries.
      const modules = join(asset, 'node_modules');
      const isHttp = id.startsWith('Http');
      expect(existsSync(join(modules, 'sharp', 'package.json')), id).toBe(isHttp);
      expect(existsSync(join(modules, '@img', 'sharp-linux-arm64', 'package.json')), id).toBe(isHttp);
      expect(existsSync(join(modules, '@img', 'sharp-libvips-linux-arm64', 'package.json')), id).toBe(isHttp);
      expect(existsSync(join(modules, '@img', 'sharp-linux-x64')), id).toBe(false);
    }
  });

  it('every chunk a handler may load later loads in a fresh Node 22 process', { timeout: 180_000 }, () => {
    for (const [id, asset] of assets) {
      const chunks = readdirSync(join(asset, 'chunks')).filter((file) => file.endsWith('.mjs'));
      expect(chunks.length, id).toBeGreaterThan(0);
      const files = JSON.stringify(chunks.map((file) => join(asset, 'chunks', file)));
      expect(importIn(`for (const file of ${files}) await import(file); console.log('loaded')`), id).toBe('loaded');
    }
  });

  it('the http function loads at most 1.5 MB at a cold start; the sign-in client, the renderer, badges and the skill text wait in chunks', () => {
    const asset = httpAsset();
    const startup = startupFiles(join(asset, 'index.mjs'));
    const bytes = startup.reduce((sum, file) => sum + readFileSync(file).length, 0);
    expect(bytes).toBeLessThanOrEqual(HTTP_START_MAX_BYTES);
    const loaded = startup.map((file) => readFileSync(file, 'utf8')).join('\n');
    // Strings only these hold: the atproto handle resolver (under the sign-in client), micromark's
    // GFM footnotes, badge-maker's font widths, the Atom writer, the skill's text.
    for (const marker of [
      'Unable to resolve handle',
      'data-footnote-ref',
      'Verdana',
      'http://www.w3.org/2005/Atom',
      '## Keep this skill current',
    ])
      expect(loaded, marker).not.toContain(marker);
  });
});
