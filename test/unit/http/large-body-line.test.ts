// One large body per account at a time (src/http/large-body-line.ts): the next call of the account
// waits for the one before to answer, another account never waits, and a line that is full or a
// wait past its bound is refused rate_limited with retry_after_ms. Fake timers: the bound is 20 s.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LorebookError } from '../../../src/domain/errors.ts';
import { createLargeBodyLine } from '../../../src/http/large-body-line.ts';

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

/** Resolves to 'turn', or to the refusal's code, or 'waiting' while the promise is still pending. */
async function stateOf(taking: Promise<void>): Promise<string> {
  const settled = taking.then(
    () => 'turn',
    (error: LorebookError) => error.code,
  );
  await vi.advanceTimersByTimeAsync(0);
  return Promise.race([settled, Promise.resolve('waiting')]);
}

/** A line whose turn for alice is held by a first call (`holder`). */
async function heldByAlice(waiting = 4) {
  const line = createLargeBodyLine({ waiting, waitMs: 20_000 });
  const holder = line('alice');
  await holder.take();
  return { line, holder };
}

describe('an account reads one large body at a time', () => {
  it("the account's next call waits until the one before has answered; another account's goes at once", async () => {
    const line = createLargeBodyLine({ waiting: 4, waitMs: 20_000 });
    const first = line('alice');
    const second = line('alice');
    const bob = line('bob');
    expect(await stateOf(first.take())).toBe('turn');
    const secondTaking = second.take();
    expect(await stateOf(secondTaking)).toBe('waiting');
    expect(await stateOf(bob.take())).toBe('turn');
    first.release();
    expect(await stateOf(secondTaking)).toBe('turn');
  });

  it('calls wait in the order they came, and each taking again is the same place', async () => {
    const line = createLargeBodyLine({ waiting: 4, waitMs: 20_000 });
    const calls = [line('alice'), line('alice'), line('alice')];
    const takings = calls.map((call) => call.take());
    expect(calls[2]?.take()).toBe(takings[2]);
    calls[0]?.release();
    expect(await stateOf(takings[1] as Promise<void>)).toBe('turn');
    expect(await stateOf(takings[2] as Promise<void>)).toBe('waiting');
    // Released twice, the turn moves once.
    calls[0]?.release();
    expect(await stateOf(takings[2] as Promise<void>)).toBe('waiting');
    calls[1]?.release();
    expect(await stateOf(takings[2] as Promise<void>)).toBe('turn');
  });

  it('a full line refuses the next call at once (rate_limited, retry_after_ms, nothing read), and takes calls again once it moves', async () => {
    const { line, holder } = await heldByAlice(2);
    const waiting = [line('alice').take(), line('alice').take()];
    const refused = line('alice').take();
    await expect(refused).rejects.toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(
        /^Your account already has a large upload being read and others waiting behind it: bodies past 512 KiB .*Nothing was read or stored/,
      ),
      retryAfterMs: expect.any(Number),
      details: { reason: 'large_body_line', waiting_limit: 2 },
    });
    holder.release();
    expect(await stateOf(waiting[0] as Promise<void>)).toBe('turn');
    expect(await stateOf(line('alice').take())).toBe('waiting');
  });

  it('a call that waited past the bound is refused and leaves its place; the calls behind it keep theirs', async () => {
    const { line, holder } = await heldByAlice();
    const late = line('alice');
    const lateTaking = late.take();
    lateTaking.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(10_000);
    const behind = line('alice');
    const behindTaking = behind.take();
    await vi.advanceTimersByTimeAsync(10_001);
    await expect(lateTaking).rejects.toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(/^Your account's large uploads before this one took too long: /),
    });
    late.release();
    expect(await stateOf(behindTaking)).toBe('waiting');
    holder.release();
    expect(await stateOf(behindTaking)).toBe('turn');
  });

  it('a call answered while it waited passes its turn on; one answered before reading holds no place', async () => {
    const { line, holder } = await heldByAlice();
    const gone = line('alice');
    void gone.take();
    const next = line('alice');
    const nextTaking = next.take();
    gone.release();
    holder.release();
    expect(await stateOf(nextTaking)).toBe('turn');
    next.release();
    const answeredFirst = line('alice');
    answeredFirst.release();
    expect(await stateOf(answeredFirst.take())).toBe('turn');
    expect(await stateOf(line('alice').take())).toBe('turn');
  });

  it('a call whose turn came within the bound is not refused by the bound later, and the call behind it keeps its place', async () => {
    const { line, holder } = await heldByAlice();
    const first = line('alice');
    const firstTaking = first.take();
    await vi.advanceTimersByTimeAsync(5_000);
    const behindTaking = line('alice').take();
    behindTaking.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(5_000);
    holder.release();
    expect(await stateOf(firstTaking)).toBe('turn');
    // Past the first call's bound (20 s from its start), within the one behind it's (25 s).
    await vi.advanceTimersByTimeAsync(11_000);
    first.release();
    expect(await stateOf(behindTaking)).toBe('turn');
  });

  it('a call refused for waiting frees its place: a line of one takes the next call', async () => {
    const { line } = await heldByAlice(1);
    const late = line('alice').take();
    late.catch(() => undefined);
    await vi.advanceTimersByTimeAsync(20_001);
    await expect(late).rejects.toMatchObject({ code: 'rate_limited' });
    expect(await stateOf(line('alice').take())).toBe('waiting');
  });
});
