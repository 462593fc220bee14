import { describe, expect, it } from 'vitest';
import { buildJvmArgs } from '../../../../integrations/dynamodb-local/jvm-args.ts';

const jar = { jarPath: '/pkg/lib/ddb/DynamoDBLocal.jar', libDir: '/pkg/lib/ddb/DynamoDBLocal_lib', version: '11.1.0/ddb' };

describe('buildJvmArgs', () => {
  it('runs the 127.0.0.1 launcher in memory with telemetry off and the small-JVM flags', () => {
    expect(buildJvmArgs({ jar, port: 8123, loopbackClassDir: '/cache/abc' })).toEqual([
      '-XX:TieredStopAtLevel=1',
      '-XX:+UseSerialGC',
      '-Xmx256m',
      '-Djava.library.path=/pkg/lib/ddb/DynamoDBLocal_lib',
      '-cp',
      '/cache/abc:/pkg/lib/ddb/DynamoDBLocal.jar',
      '-Dlorebook.ddb.host=127.0.0.1',
      '-Dlorebook.ddb.exitOnStdinEof=true',
      'LoopbackServerRunner',
      '-port',
      '8123',
      '-inMemory',
      '-sharedDb',
      '-disableTelemetry',
    ]);
  });

  it('a data dir replaces -inMemory with -dbPath', () => {
    const args = buildJvmArgs({ jar, port: 8123, dataDir: '/data/ddb', loopbackClassDir: '/cache/abc' });
    expect(args).not.toContain('-inMemory');
    expect(args.slice(args.indexOf('-dbPath'), args.indexOf('-dbPath') + 2)).toEqual(['-dbPath', '/data/ddb']);
  });

  it('without the launcher it falls back to the stock main class on the plain jar', () => {
    const args = buildJvmArgs({ jar, port: 8123 });
    expect(args).toContain('software.amazon.dynamodb.services.local.main.ServerRunner');
    expect(args[args.indexOf('-cp') + 1]).toBe(jar.jarPath);
    expect(args.some((arg) => arg.startsWith('-Dlorebook.'))).toBe(false);
  });
});
