// The deployment's edges in the synthesized template: a restored table put in service instead
// of the stack's own (-c tableName / -c tableStreamArn), and the http function's reserved
// concurrency (-c httpReservedConcurrency), which leaves the rest of the account's executions
// to the stream and sweeper functions.
import { describe, expect, it } from 'vitest';
import { logicalId, resourcesOf, synthesize } from '../synth.ts';

const RESTORED = 'lorebook-restored-2026-12-01';
const STREAM = `arn:aws:dynamodb:eu-west-1:123456789012:table/${RESTORED}/stream/2026-12-01T10:00:00.000`;

describe('a restored table put in service', () => {
  const { json } = synthesize({ existingTable: { tableName: RESTORED, tableStreamArn: STREAM } });
  const text = JSON.stringify(json);

  it('creates no table; the functions, their grants, the stream mapping and the TableName output name the restored one', () => {
    expect(resourcesOf(json, 'AWS::DynamoDB::Table')).toHaveLength(0);
    const http = json.Resources[logicalId(json, 'AWS::Lambda::Function', 'Http')];
    expect((http?.Properties.Environment as { Variables: Record<string, unknown> }).Variables.LOREBOOK_TABLE).toBe(RESTORED);
    expect(resourcesOf(json, 'AWS::Lambda::EventSourceMapping').map(([, mapping]) => mapping.Properties.EventSourceArn)).toEqual([STREAM]);
    expect(text).toContain(`:table/${RESTORED}`);
    expect((json.Outputs?.TableName as { Value: unknown }).Value).toBe(RESTORED);
  });

  it('a stream ARN of another table, or not a stream ARN, is refused at synth', () => {
    expect(() => synthesize({ existingTable: { tableName: RESTORED, tableStreamArn: STREAM.replace(RESTORED, 'other') } })).toThrow(
      'names another table',
    );
    expect(() => synthesize({ existingTable: { tableName: RESTORED, tableStreamArn: RESTORED } })).toThrow('must be the table');
  });
});

describe('the http function reserved concurrency', () => {
  const reserved = (settings: Parameters<typeof synthesize>[0]) => {
    const { json } = synthesize(settings);
    return ['Http', 'Stream', 'Sweeper'].map(
      (id) => json.Resources[logicalId(json, 'AWS::Lambda::Function', id)]?.Properties.ReservedConcurrentExecutions,
    );
  };

  it('is set on the http function alone when asked for, and absent by default', () => {
    expect(reserved({ httpReservedConcurrency: 50 })).toEqual([50, undefined, undefined]);
    expect(reserved({})).toEqual([undefined, undefined, undefined]);
  });

  it('less than one, or not whole, is refused at synth', () => {
    expect(() => synthesize({ httpReservedConcurrency: 0 })).toThrow('httpReservedConcurrency');
    expect(() => synthesize({ httpReservedConcurrency: 2.5 })).toThrow('httpReservedConcurrency');
  });
});
