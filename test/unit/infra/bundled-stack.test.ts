// The one synthesis that bundles for real (local esbuild, no Docker), as `npm run synth` and
// `cdk deploy` do: each function's asset is an ES module that Node 22 loads and that exports
// the handler the template names.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resourcesOf, synthesize } from './synth.ts';

describe('npm run synth bundles every handler', () => {
  it("each function's asset is index.mjs, and a fresh Node 22 process imports it and finds `handler`", { timeout: 180_000 }, () => {
    const { json, outdir } = synthesize({}, { bundle: true });
    const functions = resourcesOf(json, 'AWS::Lambda::Function');
    expect(functions).toHaveLength(3);
    for (const [id, fn] of functions) {
      const key = String((fn.Properties.Code as { S3Key: string }).S3Key);
      const bundle = join(outdir, `asset.${key.replace(/\.zip$/, '')}`, 'index.mjs');
      expect(existsSync(bundle), `${id}: ${bundle}`).toBe(true);
      // Import only: the handlers build nothing until their first event.
      const exported = execFileSync(
        process.execPath,
        ['--input-type=module', '-e', `const m = await import(${JSON.stringify(bundle)}); console.log(typeof m.handler)`],
        {
          encoding: 'utf8',
          timeout: 60_000,
        },
      );
      expect(exported.trim(), id).toBe('function');
      // sharp is not in the bundle: only the http function carries it, as linux-arm64 glibc binaries.
      const modules = join(outdir, `asset.${key.replace(/\.zip$/, '')}`, 'node_modules');
      const isHttp = id.startsWith('Http');
      expect(existsSync(join(modules, 'sharp', 'package.json')), id).toBe(isHttp);
      expect(existsSync(join(modules, '@img', 'sharp-linux-arm64', 'package.json')), id).toBe(isHttp);
      expect(existsSync(join(modules, '@img', 'sharp-libvips-linux-arm64', 'package.json')), id).toBe(isHttp);
      expect(existsSync(join(modules, '@img', 'sharp-linux-x64')), id).toBe(false);
    }
  });
});
