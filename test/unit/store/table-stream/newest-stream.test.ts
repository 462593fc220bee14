// The stream the poller reads when a table lists more than one: the one made last (a table deleted
// and made again keeps its old stream listed, disabled, for a while).
import { describe, expect, it } from 'vitest';
import { newestStream } from '../../../../src/store/table-stream/newest-stream.ts';

const stream = (label: string) => ({ StreamArn: `arn:aws:dynamodb:ddblocal:000000000000:table/t/stream/${label}`, StreamLabel: label });

describe('newestStream', () => {
  it('is the stream with the latest creation label, in whatever order they are listed', () => {
    const old = stream('2026-12-05T11:24:31.669');
    const made = stream('2026-12-05T11:24:56.080');
    const between = stream('2026-12-05T11:24:40.000');
    expect(newestStream([old, made, between])).toEqual(made);
    expect(newestStream([made, between, old])).toEqual(made);
    expect(newestStream([between, old, made])).toEqual(made);
  });

  it('skips a listing without an ARN or a label, and is undefined when nothing usable is listed', () => {
    expect(newestStream([])).toBeUndefined();
    expect(newestStream([{ StreamLabel: '2026-12-05T11:24:56.080' }, { StreamArn: 'arn:x' }])).toBeUndefined();
    const only = stream('2026-01-01T00:00:00.000');
    expect(newestStream([{ StreamLabel: '2027-01-01T00:00:00.000' }, only])).toEqual(only);
  });
});
