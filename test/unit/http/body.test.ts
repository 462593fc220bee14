// Reading a request body under its admission (src/http/body.ts): past 512 KiB only once admitted
// and in the account's turn, within it never waiting for the turn; and what a read keeps once it has
// returned. A read raced its chunks against a promise shared by every call that never settled,
// so each call's chunks stayed reachable for good: 4 MB an image upload, 455 MB after 30 s of
// the fairness bench's image attack (BENCHMARKS.md §11).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { holdBodyUntilAdmitted, MAX_BODY_BYTES, readBodyBytes } from '../../../src/http/body.ts';
import { pulledBody } from '../../helpers/pulled-body.ts';

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

const CHUNK = 256 * 1024;

/** A POST whose body is `chunks` chunks of 256 KiB, handed out one a pull as the reader asks (no read ahead), with the pulls counted. */
function pulledPost(chunks: number, declare: boolean): { request: Request; pulls: () => number } {
  const { body, pulls } = pulledBody(Array.from({ length: chunks }, (_, n) => new Uint8Array(CHUNK).fill(n + 1)));
  const headers = declare ? { 'content-length': String(chunks * CHUNK) } : {};
  const request = new Request('http://lorebook.test/v1/images', { method: 'POST', body, headers, duplex: 'half' } as RequestInit);
  return { request, pulls };
}

/** A turn that stays pending until `grant()`, counting how often it was asked for. */
function pendingTurn(): { take: () => Promise<void>; grant: () => void; asked: () => number } {
  let asked = 0;
  let grant: () => void = () => undefined;
  const granted = new Promise<void>((resolve) => {
    grant = resolve;
  });
  return {
    take: () => {
      asked += 1;
      return granted;
    },
    grant: () => grant(),
    asked: () => asked,
  };
}

const read = (request: Request) => readBodyBytes(request, 5 * 1024 * 1024, () => new Error('over the limit'));

/** A signed-in caller's read of `chunks` × 256 KiB, admitted, its turn not come yet. */
function readBehindTurn(chunks: number, declare: boolean) {
  const turn = pendingTurn();
  const { request, pulls } = pulledPost(chunks, declare);
  holdBodyUntilAdmitted(request, Promise.resolve(), turn.take);
  return { turn, pulls, reading: read(request) };
}
/** 'read' once the read has returned, 'waiting' if it has not after a few turns of the event loop. */
const stateOf = (reading: Promise<Uint8Array>) =>
  Promise.race([reading.then(() => 'read'), new Promise((resolve) => setTimeout(() => resolve('waiting'), 100))]);

describe("a body past 512 KiB waits for its account's turn", () => {
  it('declared past 512 KiB: not a byte is pulled until the turn comes, then the whole body is read', async () => {
    const { turn, pulls, reading } = readBehindTurn(3, true);
    expect(await stateOf(reading)).toBe('waiting');
    expect(pulls()).toBe(0);
    turn.grant();
    expect((await reading).byteLength).toBe(3 * CHUNK);
    expect(turn.asked()).toBeGreaterThan(0);
  });

  it('sent with no declared length: read up to 512 KiB, then the chunk that passes it waits for the turn', async () => {
    const { turn, pulls, reading } = readBehindTurn(4, false);
    expect(await stateOf(reading)).toBe('waiting');
    // 256 KiB, 512 KiB, then 768 KiB: the third chunk passes 512 KiB and nothing more is pulled.
    expect(pulls()).toBe(3);
    turn.grant();
    expect((await reading).byteLength).toBe(4 * CHUNK);
    // Asked once, at the crossing: the chunks after it are read in the turn already given.
    expect(turn.asked()).toBe(1);
  });

  it('exactly 512 KiB, declared or not, is read without asking for the turn', async () => {
    for (const declare of [true, false]) {
      const { turn, reading } = readBehindTurn(MAX_BODY_BYTES / CHUNK, declare);
      expect(await stateOf(reading), declare ? 'declared' : 'chunked').toBe('read');
      expect(turn.asked()).toBe(0);
    }
  });

  it('a caller with no turn to take (no token) is read past 512 KiB once admitted; a body with no admission at all is read', async () => {
    const admitted = pulledPost(3, true);
    holdBodyUntilAdmitted(admitted.request, Promise.resolve());
    expect((await read(admitted.request)).byteLength).toBe(3 * CHUNK);
    const unheld = pulledPost(3, false);
    expect((await read(unheld.request)).byteLength).toBe(3 * CHUNK);
  });
});
