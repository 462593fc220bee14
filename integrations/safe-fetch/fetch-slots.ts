// The cap on outbound fetches in flight in one process (design.md#admission), shared by every fetch made
// for a stranger (DID documents, client metadata documents): however many requests ask at once,
// at most `concurrency` connections are open and a bounded line waits; past the line a fetch is
// refused at once rather than queued without end. Hand-written: the queue libraries in reach
// (p-queue) queue without a bound, and refusing is the point here.

export class FetchSlotsFull extends Error {
  override readonly name = 'FetchSlotsFull';
}

export interface FetchSlots {
  /** Runs one whole exchange (the fetch and reading its answer) in a slot; throws FetchSlotsFull when the line is full too. */
  run<T>(exchange: () => Promise<T>): Promise<T>;
}

export function createFetchSlots(concurrency: number, maxWaiting = concurrency * 4): FetchSlots {
  let inFlight = 0;
  const waiting: Array<() => void> = [];
  const release = (): void => {
    const next = waiting.shift();
    if (next === undefined) inFlight -= 1;
    else next();
  };
  return {
    async run(exchange) {
      if (inFlight >= concurrency) {
        if (waiting.length >= maxWaiting) throw new FetchSlotsFull(`${concurrency} outbound fetches are in flight and ${maxWaiting} wait`);
        // The slot is handed over by release, so inFlight stays as it is.
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else inFlight += 1;
      try {
        return await exchange();
      } finally {
        release();
      }
    },
  };
}
