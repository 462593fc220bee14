// Third-party clients against `npm start`, as a newcomer would run it: the MCP inspector CLI
// lists the tools and calls a read and a write tool with a token from `npm run token`, then the
// MCP conformance suite runs the server scenarios each protocol revision requires
// (`--requirements 2025-11-25` and `2026-07-28`, each against its baseline of what does not apply,
// test/third-party/conformance-<revision>.yml) and its authorization-server scenarios
// (conformance-authorization.yml, judged by ./authorization-baseline.ts). Ctrl-C (SIGINT to the
// process group) must stop `npm start` cleanly. Run: npm run test:third-party
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { TOOLS } from '../../src/mcp/tools/index.ts';
import { judge, readBaseline, readResults } from './authorization-baseline.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const results: Array<{ name: string; ok: boolean; detail?: string }> = [];
const check = (name: string, ok: boolean, detail?: string): void => {
  results.push({ name, ok, ...(detail === undefined ? {} : { detail }) });
  process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok || detail === undefined ? '' : ` — ${detail}`}\n`);
};

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd ?? root, env: options.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`npm start did not print ${pattern} within ${timeoutMs} ms:\n${seen}`)), timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      process.stdout.write(chunk);
      if (pattern.test(seen)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => reject(new Error(`npm start exited (${code}) before it was ready:\n${seen}`)));
  });
}

const scratch = mkdtempSync(join(tmpdir(), 'lorebook-third-party-'));
const dataDir = join(scratch, 'dynamodb');
const port = await freePort();
const url = `http://127.0.0.1:${port}/mcp`;
const env = {
  ...process.env,
  PORT: String(port),
  LOREBOOK_DATA_DIR: dataDir,
  // The conformance suite makes a few hundred anonymous calls in seconds.
  LOREBOOK_ANONYMOUS_RATE_LIMIT_PER_MINUTE: '100000',
};

// Its own process group, so SIGINT reaches npm, node and DynamoDB Local as Ctrl-C would.
const server = spawn('npm', ['start'], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
const exited = new Promise<string>((resolve) =>
  server.once('exit', (code, signal) => resolve(code === null ? String(signal) : String(code))),
);
let serverOutput = '';
server.stdout?.on('data', (chunk: Buffer) => (serverOutput += chunk.toString()));
try {
  await waitForLine(server, /Ctrl-C stops/, 120_000);

  const created = await run('npm', ['run', '-s', 'token', '--', 'create', '--handle', 'third-party', '--json'], { env });
  const token = created.code === 0 ? (JSON.parse(created.stdout) as { token: string }).token : '';
  check('npm run token -- create gives a token', token.startsWith('lbk_'), created.code === 0 ? undefined : created.stderr);

  // @NOTE inspector-cli 1.0.3 looks for its own package.json relative to the working directory,
  // so it runs from its build folder.
  const inspectorDir = join(root, 'node_modules/@modelcontextprotocol/inspector-cli/build');
  const inspector = (...args: string[]) => run(process.execPath, ['index.js', url, '--transport', 'http', ...args], { cwd: inspectorDir });

  const listed = await inspector('--method', 'tools/list');
  const names = listed.code === 0 ? (JSON.parse(listed.stdout) as { tools: Array<{ name: string }> }).tools.map((tool) => tool.name) : [];
  const expected = TOOLS.map((tool) => tool.name).sort();
  check(
    `inspector-cli lists the ${expected.length} tools without a token`,
    JSON.stringify([...names].sort()) === JSON.stringify(expected),
    listed.stderr || names.join(', '),
  );

  const markdown = readFileSync(join(root, 'test/fixtures/stories/success-with-check.md'), 'utf8');
  const published = await inspector(
    '--method',
    'tools/call',
    '--tool-name',
    'publish_story',
    '--tool-arg',
    `markdown=${markdown}`,
    '--header',
    `Authorization: Bearer ${token}`,
  );
  const slug =
    published.code === 0 ? (JSON.parse(published.stdout) as { structuredContent?: { slug?: string } }).structuredContent?.slug : undefined;
  check(
    'inspector-cli calls publish_story with the token',
    slug === '2026-10-14-my-counter-doubled-when-two-agents-reported-at-once',
    published.stderr || published.stdout.slice(0, 300),
  );

  const searched = await inspector('--method', 'tools/call', '--tool-name', 'search_stories', '--tool-arg', 'query=counter doubled');
  const found =
    searched.code === 0
      ? (JSON.parse(searched.stdout) as { structuredContent?: { stories?: Array<{ slug: string }> } }).structuredContent?.stories
      : undefined;
  check(
    'inspector-cli calls search_stories and finds the story',
    found?.some((story) => story.slug === slug) === true,
    searched.stderr || searched.stdout.slice(0, 300),
  );

  const refused = await inspector('--method', 'tools/call', '--tool-name', 'publish_story', '--tool-arg', `markdown=${markdown}`);
  check(
    'inspector-cli without a token cannot publish (401)',
    refused.code !== 0 && /401|unauthenticated/.test(refused.stdout + refused.stderr),
  );

  const suite = join(root, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
  for (const revision of ['2025-11-25', '2026-07-28']) {
    const conformance = await run(
      process.execPath,
      [
        suite,
        'server',
        '--url',
        url,
        '--requirements',
        revision,
        '--expected-failures',
        join(root, `test/third-party/conformance-${revision}.yml`),
        '-o',
        join(scratch, `conformance-${revision}`),
      ],
      { timeoutMs: 300_000 },
    );
    process.stdout.write(`${conformance.stdout.slice(conformance.stdout.indexOf('=== SUMMARY ==='))}\n`);
    check(
      `MCP conformance --requirements ${revision}: every scenario passes or is in its baseline, and no baseline entry passes`,
      conformance.code === 0,
      conformance.code === 0 ? undefined : conformance.stderr.slice(0, 500),
    );
  }

  const authorizationDir = join(scratch, 'conformance-authorization');
  const authorization = await run(process.execPath, [suite, 'authorization', '--url', `http://127.0.0.1:${port}`, '-o', authorizationDir], {
    timeoutMs: 120_000,
  });
  process.stdout.write(`${authorization.stdout.slice(authorization.stdout.indexOf('=== SUMMARY ==='))}\n`);
  const judged = judge(readResults(authorizationDir), readBaseline(join(root, 'test/third-party/conformance-authorization.yml')));
  check(
    'MCP conformance authorization: every check passes or is in its baseline, and no baseline entry passes',
    judged.unexpected.length === 0 && judged.stale.length === 0,
    `unexpected: ${judged.unexpected.join(', ') || 'none'}; stale: ${judged.stale.join(', ') || 'none'}`,
  );
} catch (error) {
  check('npm start serves', false, (error as Error).message);
} finally {
  if (server.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGINT');
  const code = await Promise.race([exited, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), 30_000))]);
  if (code === 'timeout' && server.pid !== undefined) process.kill(-server.pid, 'SIGKILL');
  // npm itself ends by the signal (as on a terminal); lorebook must have said it stopped.
  check(
    'Ctrl-C stops npm start cleanly',
    (code === '0' || code === 'SIGINT') && serverOutput.includes('lorebook: stopped'),
    `exit ${code}`,
  );
  check('the endpoint file is removed on stop', !existsSync(join(scratch, 'endpoint')));
  rmSync(scratch, { recursive: true, force: true });
}

const failed = results.filter((result) => !result.ok).length;
process.stdout.write(`\n${results.length - failed} passed, ${failed} failed\n`);
process.exitCode = failed === 0 ? 0 : 1;
