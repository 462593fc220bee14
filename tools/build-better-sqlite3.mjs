// `npm ci`'s postinstall: builds better-sqlite3 (the test PDS's native addon; package.json's
// allowScripts denies its own install script) for the running Node — the Node 22 of the `node`
// devDependency. Already loading: nothing to do. Else its prebuilt binary (prebuild-install, which
// downloads from GitHub), else a compile with npm's node-gyp (python3, make, a C++ compiler)
// against the headers that came with that Node (tools/node-headers.mjs), so no headers are
// downloaded and a nodedir in the user's npm config naming another Node is overridden; where no
// such headers are on disk node-gyp fetches them itself. Without the devDependencies (npm ci
// --omit=dev) there is nothing to build. See docs/local.md.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nodeHeaders } from './node-headers.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

/** better-sqlite3's directory as @atproto/pds resolves it, or undefined when it is not installed. */
function addonDirectory() {
  try {
    const fromPds = createRequire(createRequire(join(root, 'package.json')).resolve('@atproto/pds/package.json'));
    return dirname(fromPds.resolve('better-sqlite3/package.json'));
  } catch {
    return undefined;
  }
}

function run(args, options) {
  return spawnSync(process.execPath, args, { stdio: 'inherit', ...options }).status === 0;
}

const dir = addonDirectory();
const loads = () =>
  dir !== undefined && spawnSync(process.execPath, ['-e', `new (require(${JSON.stringify(dir)}))(':memory:').close()`]).status === 0;

if (dir !== undefined && !loads()) {
  const prebuilt = run([createRequire(join(dir, 'package.json')).resolve('prebuild-install/bin.js')], { cwd: dir }) && loads();
  if (!prebuilt) {
    const headers = nodeHeaders(root);
    const env = headers === undefined ? process.env : { ...process.env, npm_config_nodedir: headers };
    const npmRoot = process.env.npm_execpath ? dirname(dirname(process.env.npm_execpath)) : root;
    const nodeGyp = createRequire(join(npmRoot, 'package.json')).resolve('node-gyp/bin/node-gyp.js');
    if (!run([nodeGyp, 'rebuild', '--release'], { cwd: dir, env }) || !loads()) {
      console.error(`better-sqlite3 could not be built for Node ${process.versions.node} (docs/local.md)`);
      process.exit(1);
    }
  }
}
