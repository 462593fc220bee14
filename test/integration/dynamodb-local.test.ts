import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo, connect, createServer } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DescribeTimeToLiveCommand, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type DynamoDbLocal,
  DynamoDbLocalStartError,
  JavaUnavailableError,
  startDynamoDbLocal,
} from '../../integrations/dynamodb-local/index.ts';
import { prepareLoopbackRunner } from '../../integrations/dynamodb-local/loopback-runner.ts';
import { ensureTable } from '../../src/store/bootstrap.ts';
import { createStoreClient } from '../../src/store/client.ts';
import { TTL_ATTRIBUTE } from '../../src/store/schema.ts';
import { createTestTable, useTestTable } from '../helpers/test-table.ts';

const started: DynamoDbLocal[] = [];
const tempDirs: string[] = [];

async function start(options: Parameters<typeof startDynamoDbLocal>[0] = {}): Promise<DynamoDbLocal> {
  const ddb = await startDynamoDbLocal(options);
  started.push(ddb);
  return ddb;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lorebook-ddb-test-'));
  tempDirs.push(dir);
  return dir;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function eventually(check: () => boolean, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port, timeout: 2_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

function nonLoopbackIpv4(): string | undefined {
  return Object.values(networkInterfaces())
    .flat()
    .find((address) => address !== undefined && address.family === 'IPv4' && !address.internal)?.address;
}

afterEach(async () => {
  await Promise.all(started.splice(0).map((ddb) => ddb.stop()));
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

describe('the test run’s DynamoDB Local (global setup, in memory)', () => {
  const table = useTestTable('dynamodb-local');

  it('takes a table from ensureTable, then a put and a get of the same item', async () => {
    const item = { PK: 'STORY#2026-01-01-hello', SK: 'META', title: 'Hello', missing: undefined };
    await table.client.send(new PutCommand({ TableName: table.tableName, Item: item }));
    const got = await table.client.send(
      new GetCommand({ TableName: table.tableName, Key: { PK: item.PK, SK: item.SK }, ConsistentRead: true }),
    );
    expect(got.Item).toEqual({ PK: item.PK, SK: item.SK, title: 'Hello' });
  });

  it('a second ensureTable on an existing table changes nothing and TTL stays enabled on expires_at', async () => {
    await ensureTable(table.client, table.tableName);
    const ttl = await table.client.send(new DescribeTimeToLiveCommand({ TableName: table.tableName }));
    expect(ttl.TimeToLiveDescription).toMatchObject({ TimeToLiveStatus: 'ENABLED', AttributeName: TTL_ATTRIBUTE });
  });
});

describe('startDynamoDbLocal', () => {
  it('listens on 127.0.0.1 only: ss shows the PID on loopback and the machine’s other address refuses', async () => {
    const ddb = await start();
    expect(ddb.listenHost).toBe('127.0.0.1');
    expect(ddb.endpoint).toBe(`http://127.0.0.1:${ddb.port}`);

    const listening = execFileSync('ss', ['-ltnpH', `sport = :${ddb.port}`], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes(`pid=${ddb.pid},`));
    expect(listening).toHaveLength(1);
    // Local address column: 127.0.0.1:<port> or its IPv4-mapped form [::ffff:127.0.0.1]:<port>.
    expect(listening[0]).toMatch(new RegExp(`\\s(\\[::ffff:)?127\\.0\\.0\\.1\\]?:${ddb.port}\\s`));

    expect(await canConnect('127.0.0.1', ddb.port)).toBe(true);
    const otherAddress = nonLoopbackIpv4();
    if (otherAddress !== undefined) expect(await canConnect(otherAddress, ddb.port)).toBe(false);
  });

  it('stop() ends the JVM: its PID is gone when the promise resolves, and a second stop() is harmless', async () => {
    const ddb = await start();
    expect(isAlive(ddb.pid)).toBe(true);
    await ddb.stop();
    expect(isAlive(ddb.pid)).toBe(false);
    await ddb.stop();
    expect(await canConnect('127.0.0.1', ddb.port)).toBe(false);
  });

  it('a data-dir run keeps an item across a stop and a restart on the same folder', async () => {
    const dataDir = join(tempDir(), 'nested', 'data'); // created when missing
    const key = { PK: 'ACCOUNT#persisted', SK: 'META' };

    const first = await start({ dataDir });
    const firstClient = createStoreClient({ endpoint: first.endpoint });
    await ensureTable(firstClient, 'lorebook');
    await firstClient.send(new PutCommand({ TableName: 'lorebook', Item: { ...key, handle: 'kept.test' } }));
    firstClient.destroy();
    await first.stop();

    const second = await start({ dataDir });
    const secondClient = createStoreClient({ endpoint: second.endpoint });
    const got = await secondClient.send(new GetCommand({ TableName: 'lorebook', Key: key, ConsistentRead: true }));
    secondClient.destroy();
    expect(got.Item).toEqual({ ...key, handle: 'kept.test' });
  });

  it('each in-memory run is its own empty database, apart from the run’s shared server', async () => {
    const shared = await createTestTable('in-memory isolation');
    const ddb = await start();
    const client = createStoreClient({ endpoint: ddb.endpoint });
    const tables = await client.send(new ListTablesCommand({}));
    client.destroy();
    const sharedTables = await shared.client.send(new ListTablesCommand({}));
    await shared.drop();
    expect(tables.TableNames).toEqual([]);
    expect(sharedTables.TableNames).toContain(shared.tableName);
  });

  it('when the parent process dies without stop(), the JVM exits too instead of holding the port', async () => {
    const script = `
      const { startDynamoDbLocal } = await import(${JSON.stringify(new URL('../../integrations/dynamodb-local/index.ts', import.meta.url).href)});
      const ddb = await startDynamoDbLocal();
      console.log(JSON.stringify({ pid: ddb.pid }));
      setInterval(() => {}, 1000);
    `;
    const parent = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const line = await new Promise<string>((resolve, reject) => {
      parent.stdout.setEncoding('utf8').once('data', resolve);
      parent.once('exit', (code) => reject(new Error(`parent exited early with ${code}`)));
    });
    const { pid } = JSON.parse(line) as { pid: number };
    expect(isAlive(pid)).toBe(true);
    parent.kill('SIGKILL');
    const gone = await eventually(() => !isAlive(pid));
    if (!gone) process.kill(pid, 'SIGKILL');
    expect(gone).toBe(true);
  });
});

describe('startDynamoDbLocal when it cannot start', () => {
  it('a taken port fails with an error that quotes the JVM’s last output lines', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as AddressInfo).port;
    try {
      const attempt = startDynamoDbLocal({ port });
      await expect(attempt).rejects.toBeInstanceOf(DynamoDbLocalStartError);
      await expect(attempt).rejects.toThrow(
        new RegExp(`did not start on port ${port}[\\s\\S]*Last output lines:[\\s\\S]*(Address already in use|Failed to bind)`),
      );
    } finally {
      holder.close();
    }
  });

  it('a launcher that cannot be compiled is reported with its reason, so the start falls back to the stock jar', async () => {
    const jar = { jarPath: join(tempDir(), 'missing.jar'), libDir: tempDir(), version: `test-${Date.now()}` };
    const runner = await prepareLoopbackRunner('java', jar, tempDir());
    expect(runner.ok).toBe(false);
    if (!runner.ok) expect(runner.reason).toMatch(/compiling the loopback launcher failed/);
  });
});

describe('startDynamoDbLocal without a usable Java', () => {
  const installHint = /Java 17.*apt-get install openjdk-17-jre-headless/s;

  it('a missing java binary fails at once with a message saying Java 17 is needed and how to install it', async () => {
    const attempt = startDynamoDbLocal({ java: join(tempDir(), 'no-such-java') });
    await expect(attempt).rejects.toBeInstanceOf(JavaUnavailableError);
    await expect(attempt).rejects.toThrow(/Java was not found/);
    await expect(attempt).rejects.toThrow(installHint);
  });

  it('env JAVA pointing at a file that cannot run gives the same clear message', async () => {
    const notExecutable = join(tempDir(), 'java');
    writeFileSync(notExecutable, 'not a program');
    chmodSync(notExecutable, 0o644);
    vi.stubEnv('JAVA', notExecutable);
    await expect(startDynamoDbLocal()).rejects.toThrow(installHint);
  });
});
