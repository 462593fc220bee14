// A queue of one: each task starts when the one before it has settled, resolved or rejected, so
// at most one runs at any moment. Used to keep parallel re-encodes from adding up their buffers.

export type Serial = <T>(task: () => Promise<T>) => Promise<T>;

export function oneAtATime(): Serial {
  let previous: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const turn = previous.then(task);
    previous = turn.catch(() => undefined);
    return turn;
  };
}
