// Records when each DynamoDB command a client sends starts and ends, so a test can say how many
// round trips a call made one after another (its critical path), not only how many in all. An
// injected network delay (the one stand-in here: DynamoDB Local answers in a millisecond, a real
// table across a network does not) makes every command take at least delayMs, so two commands
// sent together overlap and two sent one after the other do not, whatever the machine's load.
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { operationName } from './round-trips.ts';

export interface TimedCall {
  operation: string;
  startMs: number;
  endMs: number;
}

export interface RoundTripTimeline {
  calls(): TimedCall[];
  /** Operations by count, as countRoundTrips gives them. */
  counts(): Record<string, number>;
  /**
   * The longest chain of commands each sent after the one before it had answered: the round
   * trips a caller waited for in sequence.
   */
  sequential(): number;
  reset(): void;
  detach(): void;
}

let timelineSequence = 0;

export function recordRoundTrips(client: DynamoDBDocumentClient, delayMs: number): RoundTripTimeline {
  let calls: TimedCall[] = [];
  const name = `lorebookRoundTripTimeline${++timelineSequence}`;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const startMs = performance.now();
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      try {
        return await next(args);
      } finally {
        calls.push({
          operation: operationName(String(context.commandName ?? 'Unknown')),
          startMs,
          endMs: performance.now(),
        });
      }
    },
    { step: 'initialize', name, override: true },
  );
  return {
    calls: () => [...calls],
    counts: () => {
      const counts: Record<string, number> = {};
      for (const call of calls) counts[call.operation] = (counts[call.operation] ?? 0) + 1;
      return counts;
    },
    sequential: () => {
      const byStart = [...calls].sort((a, b) => a.startMs - b.startMs);
      const depth = new Map<TimedCall, number>();
      for (const call of byStart) {
        const before = byStart.filter((other) => other.endMs <= call.startMs).map((other) => depth.get(other) ?? 0);
        depth.set(call, 1 + Math.max(0, ...before));
      }
      return Math.max(0, ...depth.values());
    },
    reset: () => {
      calls = [];
    },
    detach: () => {
      client.middlewareStack.remove(name);
    },
  };
}
