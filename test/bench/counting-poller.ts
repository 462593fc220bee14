// The table-stream poller for the table-stream bench (table-stream.ts, table-stream-reads.ts),
// counting what its consumer is handed: `caughtUp` settles once `count` records were delivered.
import {
  startTableStreamPoller,
  type TableStreamPoller,
  type TableStreamPollerOptions,
} from '../../src/store/table-stream/table-stream.ts';

export interface CountingPoller extends TableStreamPoller {
  caughtUp: Promise<void>;
}

export function startCountingPoller(options: Omit<TableStreamPollerOptions, 'onRecords'>, count: number): CountingPoller {
  let delivered = 0;
  let done: () => void = () => {};
  const caughtUp = new Promise<void>((resolve) => (done = resolve));
  const poller = startTableStreamPoller({
    ...options,
    async onRecords(records) {
      delivered += records.length;
      if (delivered >= count) done();
    },
  });
  return { caughtUp, stop: () => poller.stop() };
}
