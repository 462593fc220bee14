// Reading a request body under its admission (src/http/body.ts): what a read keeps once it has
// returned. A read raced its chunks against a promise shared by every call that never settled,
// so each call's chunks stayed reachable for good: 4 MB an image upload, 455 MB after 30 s of
// the fairness bench's image attack (BENCHMARKS.md §11).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { holdBodyUntilAdmitted, readBodyBytes } from '../../../src/http/body.ts';

// A collection on demand, so what is still reachable is told apart from garbage not yet collected.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function postWith(chunk: Uint8Array): Request {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(chunk);
      controller.close();
    },
  });
  return new Request('http://lorebook.test/v1/images', { method: 'POST', body, duplex: 'half' } as RequestInit);
}

describe('readBodyBytes', () => {
  it('keeps nothing of a body read for an admitted caller once it has returned', async () => {
    const chunks: Array<WeakRef<Uint8Array>> = [];
    const readOne = async (fill: number): Promise<void> => {
      const chunk = new Uint8Array(64 * 1024).fill(fill);
      chunks.push(new WeakRef(chunk));
      const request = postWith(chunk);
      holdBodyUntilAdmitted(request, Promise.resolve());
      const bytes = await readBodyBytes(request, 1024 * 1024, () => new Error('over the limit'));
      expect(Buffer.from(bytes).equals(Buffer.alloc(64 * 1024, fill))).toBe(true);
    };
    for (let fill = 1; fill <= 4; fill += 1) await readOne(fill);
    // A WeakRef holds its target until the job that made it ends; the stream's own last turns end too.
    for (let collection = 0; collection < 2; collection += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      gc();
    }
    expect(chunks.filter((chunk) => chunk.deref() !== undefined)).toHaveLength(0);
  });

  it('a refusal that lands while the body is read fails the read with the refusal', async () => {
    let refuse: (error: Error) => void = () => undefined;
    const admitted = new Promise<void>((_granted, reject) => {
      refuse = reject;
    });
    const body = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => undefined) });
    const request = new Request('http://lorebook.test/mcp', { method: 'POST', body, duplex: 'half' } as RequestInit);
    holdBodyUntilAdmitted(request, admitted);
    const read = readBodyBytes(request, 1024, () => new Error('over the limit'));
    refuse(new Error('refused: bad token'));
    await expect(read).rejects.toThrow('refused: bad token');
  });
});
