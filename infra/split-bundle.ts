// `node infra/split-bundle.ts <entry> <outdir>`: the handler's split build (bundling.ts,
// splitBuildOptions) over the single-file index.mjs NodejsFunction wrote in <outdir>. Run by the
// CDK bundling's afterBundling hook; anything else in <outdir> (installed node modules) stays.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { splitBuildOptions } from './bundling.ts';

const [entry, outdir] = process.argv.slice(2);
if (entry === undefined || outdir === undefined) {
  process.stderr.write('usage: node infra/split-bundle.ts <entry> <outdir>\n');
  process.exit(2);
}
for (const file of ['index.mjs', 'index.mjs.map']) rmSync(join(outdir, file), { force: true });
await build(splitBuildOptions(entry, outdir));
