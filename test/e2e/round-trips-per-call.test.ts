// What one tool call costs in DynamoDB round trips, counted on the server's own client while the
// real MCP SDK client calls the real server over HTTP: in all, and in sequence (the critical
// path). Each command is delayed by an injected network delay so that "in sequence" is decided by
// overlap, not by how fast DynamoDB Local happens to answer on a loaded machine.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN_TRUST_MS } from '../../src/app/context/verified-tokens.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { answerOf, useLorebookServer } from '../helpers/lorebook-server.ts';
import { type RoundTripTimeline, recordRoundTrips } from '../helpers/round-trip-timeline.ts';
import { storyTitled } from '../helpers/stories.ts';

const server = useLorebookServer('e2e-round-trips');
// Long enough that the count is still on its way when the snapshot read is sent, even on a loaded machine.
const DELAY_MS = 300;
const AUTHOR = {
  account: 'acct-round-trip-author',
  handle: 'round-trip-author.test',
};

let reporter: Client;
let timeline: RoundTripTimeline | undefined;
let stories = 0;

beforeAll(async () => {
  const { token } = await server.token('round-trip-reporter');
  // Connecting lists the tools with the token: the server has seen it, as it has after any call.
  reporter = await server.mcp(token);
});

afterEach(() => timeline?.detach());

async function freshStory(): Promise<string> {
  stories += 1;
  return (
    await publishStory(server.app.ctx(), AUTHOR, {
      markdown: storyTitled(`Round trip story ${stories}`),
    })
  ).slug;
}

/** Counts the server's round trips during one call only. */
async function measured(call: () => Promise<unknown>): Promise<{
  counts: Record<string, number>;
  sequential: number;
  answer: unknown;
}> {
  timeline = recordRoundTrips(server.app.ctx().store.client, DELAY_MS);
  const answer = await call();
  const result = {
    counts: timeline.counts(),
    sequential: timeline.sequential(),
    answer,
  };
  timeline.detach();
  timeline = undefined;
  console.log('round trips', JSON.stringify(result.counts), 'in sequence', result.sequential);
  return result;
}

const report = (slug: string) =>
  reporter.callTool({
    name: 'report_reproduction',
    arguments: { slug, result: 'worked', note: 'Ran the steps; it worked.' },
  });

describe('a write tool call is one snapshot read and one transaction on the critical path', () => {
  it('report_reproduction with a token the server has seen: 4 round trips, 2 in sequence (the rate count and the account check beside the snapshot read, then the transaction)', async () => {
    const slug = await freshStory();
    const { counts, sequential, answer } = await measured(() => report(slug));
    expect(answerOf(answer)).toMatchObject({ counted: true });
    expect(counts).toEqual({
      GetItem: 1,
      UpdateItem: 1,
      TransactGetItems: 1,
      TransactWriteItems: 1,
    });
    expect(sequential).toBe(2);
  });

  it('an identical repeat: 3 round trips side by side (the count, the account check and the snapshot read), no transaction', async () => {
    const slug = await freshStory();
    await report(slug);
    const { counts, sequential } = await measured(() => report(slug));
    expect(counts).toEqual({ GetItem: 1, UpdateItem: 1, TransactGetItems: 1 });
    expect(sequential).toBe(1);
  });

  it('a read tool call (list_notifications): the count and the account check beside the read, 1 in sequence', async () => {
    const { counts, sequential } = await measured(() => reporter.callTool({ name: 'list_notifications', arguments: {} }));
    expect(counts).toEqual({ GetItem: 1, UpdateItem: 1, Query: 1 });
    expect(sequential).toBe(1);
  });

  it(`a token not read for ${TOKEN_TRUST_MS / 1000} s is read again with its account first: 5 round trips, 4 in sequence`, async () => {
    const slug = await freshStory();
    server.app.advance(TOKEN_TRUST_MS);
    const { counts, sequential, answer } = await measured(() => report(slug));
    expect(answerOf(answer)).toMatchObject({ counted: true });
    expect(counts).toEqual({
      GetItem: 2,
      UpdateItem: 1,
      TransactGetItems: 1,
      TransactWriteItems: 1,
    });
    // Token, then account, then the count beside the snapshot read, then the transaction.
    expect(sequential).toBe(4);
  });
});
