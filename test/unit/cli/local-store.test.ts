import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  endpointFilePath,
  lockFilePath,
  removeEndpointFile,
  runningEndpoint,
  tryLockDataDir,
  writeEndpointFile,
} from '../../../src/cli/local-store.ts';

const freshDataDir = (): string => join(mkdtempSync(join(tmpdir(), 'lorebook-local-store-')), 'dynamodb');

describe('the data dir lock keeps two DynamoDB Locals off one data dir', () => {
  it('is taken once; a second taker is refused while the holder lives; released, it can be taken again', () => {
    const dataDir = freshDataDir();
    const lock = tryLockDataDir(dataDir);
    expect(lock).toBeDefined();
    expect(readFileSync(lockFilePath(dataDir), 'utf8')).toBe(String(process.pid));
    expect(tryLockDataDir(dataDir)).toBeUndefined();
    lock?.release();
    expect(existsSync(lockFilePath(dataDir))).toBe(false);
    const again = tryLockDataDir(dataDir);
    expect(again).toBeDefined();
    again?.release();
  });

  it('a lock left by a process that is gone is taken over', () => {
    const dataDir = freshDataDir();
    const gone = spawnSync(process.execPath, ['-e', '0']);
    writeFileSync(lockFilePath(dataDir), String(gone.pid));
    const lock = tryLockDataDir(dataDir);
    expect(lock).toBeDefined();
    expect(readFileSync(lockFilePath(dataDir), 'utf8')).toBe(String(process.pid));
    lock?.release();
  });

  it('a lock file with garbage in it is stale', () => {
    const dataDir = freshDataDir();
    writeFileSync(lockFilePath(dataDir), 'not a pid');
    const lock = tryLockDataDir(dataDir);
    expect(lock).toBeDefined();
    lock?.release();
  });
});

describe('the endpoint file of npm start', () => {
  it('sits next to the data dir: .data/endpoint for the default .data/dynamodb', () => {
    expect(endpointFilePath('.data/dynamodb')).toBe(join(process.cwd(), '.data', 'endpoint'));
  });

  it('is ignored when missing, not a loopback URL, or not answering', async () => {
    const dataDir = freshDataDir();
    expect(await runningEndpoint(dataDir)).toBeUndefined();
    writeEndpointFile(dataDir, 'http://example.com:8000');
    expect(await runningEndpoint(dataDir)).toBeUndefined();
    // A port nothing listens on (the discard port on loopback).
    writeEndpointFile(dataDir, 'http://127.0.0.1:9');
    expect(readFileSync(endpointFilePath(dataDir), 'utf8')).toBe('http://127.0.0.1:9\n');
    expect(await runningEndpoint(dataDir)).toBeUndefined();
    removeEndpointFile(dataDir);
    expect(existsSync(endpointFilePath(dataDir))).toBe(false);
  });
});
