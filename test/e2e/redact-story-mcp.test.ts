// redact_story as an agent calls it: the real MCP SDK client over Streamable HTTP against the real
// server, on a story published and edited twice through MCP with a distinctive string in its first
// two revisions. The answer, the story read back, a scan of the whole table, and the twice-safety
// three ways (the same call again, 16 in parallel with and without an op_id, an op_id replay); the
// /v1 route once, as text/markdown, with the history both surfaces show after it.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { redactStoryOutputSchema } from '../../src/app/redact-story.contract.ts';
import { answerOf, refusalOf, useLorebookServer } from '../helpers/lorebook-server.ts';
import { storyTitled } from '../helpers/stories.ts';

const server = useLorebookServer('e2e-redact-story-mcp');

type Item = Record<string, unknown>;
/** What a call may change: everything but op records and the rate windows every call counts in. */
const observable = async (): Promise<Item[]> => (await server.app.state()).filter((item) => !String(item.PK).startsWith('RATE#'));
const revisionKeys = async (slug: string): Promise<unknown[]> =>
  (await observable()).filter((item) => item.PK === `STORY#${slug}` && String(item.SK).startsWith('REV#')).map((item) => item.SK);
const itemsNaming = async (text: string): Promise<Item[]> =>
  (await server.app.allItems()).filter((item) => JSON.stringify(item).includes(text));

let alice: Client;

beforeAll(async () => {
  alice = await server.mcp((await server.token('alice')).token);
});

const call = async (name: string, args: Record<string, unknown>): Promise<unknown> => alice.callTool({ name, arguments: args });

/** Distinct per story, so one test's scan is not satisfied by another's story. */
const leaks = (title: string) => {
  const tag = title.replaceAll(/\W/g, '').toUpperCase();
  return { first: `ZEBRAQUARTZ-${tag}-FIRST`, second: `ZEBRAQUARTZ-${tag}-SECOND` };
};
const clean = (title: string): string => storyTitled(title, { extra: 'I copied the internal host name first.' });

/** Published and edited twice over MCP: revision 1 and 2 hold the leaks, revision 3 the second one still. Answers its slug. */
async function leakedStory(title: string): Promise<string> {
  const { first, second } = leaks(title);
  const { slug } = answerOf<{ slug: string }>(
    await call('publish_story', { markdown: storyTitled(title, { extra: `I copied ${first} first.` }) }),
  );
  const withSecond = storyTitled(title, { extra: `I copied ${first} and ${second} first.` });
  answerOf(await call('edit_story', { slug, markdown: withSecond, kind: 'addition' }));
  answerOf(await call('edit_story', { slug, markdown: `${withSecond}\nOne more line.\n`, kind: 'addition' }));
  expect(await revisionKeys(slug)).toEqual(['REV#000001', 'REV#000002', 'REV#000003']);
  return slug;
}

describe('redact_story over MCP removes the leaked text from the story and from every stored item', () => {
  it('answers the output schema, get_story shows the redacted text, and no item in the table holds either leak', async () => {
    const title = 'Redacted over MCP';
    const slug = await leakedStory(title);
    const answer = answerOf(await call('redact_story', { slug, base_revision: 3, markdown: clean(title) }));
    expect(redactStoryOutputSchema.strict().parse(answer)).toMatchObject({ slug, revision: 4, redacted_below: 4 });
    expect(answer.replayed).toBeUndefined();
    const story = answerOf<{ markdown: string; revision: number }>(await call('get_story', { slug }));
    expect(story.revision).toBe(4);
    expect(story.markdown).toBe(clean(title));
    expect(await itemsNaming(leaks(title).first)).toEqual([]);
    expect(await itemsNaming(leaks(title).second)).toEqual([]);
  });

  it('redacted through POST /v1/stories/{slug}/redact as text/markdown: get_story and GET /v1/stories/{slug} mark every revision whose text was removed redacted, and only those', async () => {
    const title = 'Redacted history shown';
    const slug = await leakedStory(title);
    const redacted = await server.fetch(`/v1/stories/${slug}/redact`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${(await server.token('alice')).token}`,
        'Content-Type': 'text/markdown',
        'If-Match': '"3"',
      },
      body: clean(title),
    });
    expect(redacted.status).toBe(200);
    expect(await redacted.json()).toMatchObject({ slug, revision: 4, redacted_below: 4 });
    type History = { revisions: { revision: number; kind: string; redacted?: true }[] };
    const expected = [
      { revision: 1, kind: 'publish', redacted: true },
      { revision: 2, kind: 'addition', redacted: true },
      { revision: 3, kind: 'addition', redacted: true },
      { revision: 4, kind: 'redaction' },
    ];
    const shown = ({ revisions }: History) =>
      revisions.map(({ revision, kind, redacted }) => (redacted === undefined ? { revision, kind } : { revision, kind, redacted }));
    expect(shown(answerOf<History>(await call('get_story', { slug })))).toEqual(expected);
    const answer = await server.fetch(`/v1/stories/${slug}`);
    expect(answer.status).toBe(200);
    expect(shown((await answer.json()) as History)).toEqual(expected);
  });

  it('a stale base revision is revision_conflict as a tool error, and nothing is written', async () => {
    const title = 'Redacted from a stale read over MCP';
    const slug = await leakedStory(title);
    const before = await observable();
    const refusal = refusalOf(await call('redact_story', { slug, base_revision: 2, markdown: clean(title) }));
    expect(refusal.code).toBe('revision_conflict');
    expect(await observable()).toEqual(before);
    expect(await itemsNaming(leaks(title).first)).not.toEqual([]);
  });
});

describe('redact_story over MCP is safe to deliver twice', () => {
  it('the same call again answers the same and writes nothing', async () => {
    const title = 'Redacted twice over MCP';
    const slug = await leakedStory(title);
    const args = { slug, base_revision: 3, markdown: clean(title) };
    const first = answerOf(await call('redact_story', args));
    const after = await observable();
    expect(answerOf(await call('redact_story', args))).toEqual(first);
    expect(await observable()).toEqual(after);
  });

  for (const [how, opId] of [
    ['without an op_id', undefined],
    ['with the same op_id', 'op-redact-mcp-fanout'],
  ] as const) {
    it(`16 parallel identical calls ${how} leave one redaction revision and answer the same`, async () => {
      const title = `Redacted sixteen times over MCP ${how}`;
      const slug = await leakedStory(title);
      const args = { slug, base_revision: 3, markdown: clean(title), ...(opId === undefined ? {} : { op_id: opId }) };
      const answers = await Promise.all(Array.from({ length: 16 }, async () => answerOf(await call('redact_story', args))));
      // With an op_id, every call but the one that wrote finds its op record: the same outcome, as a replay.
      const withoutReplayed = answers.map(({ replayed: _replayed, ...outcome }) => outcome);
      for (const answer of withoutReplayed) expect(answer).toEqual(withoutReplayed[0]);
      expect(answers.filter((answer) => answer.replayed === true)).toHaveLength(opId === undefined ? 0 : 15);
      expect(withoutReplayed[0]).toMatchObject({ revision: 4, redacted_below: 4 });
      expect(await revisionKeys(slug)).toEqual(['REV#000001', 'REV#000002', 'REV#000003', 'REV#000004']);
      expect(await itemsNaming(leaks(title).second)).toEqual([]);
    });
  }

  it('an op_id replay after a later edit answers the first answer with replayed: true and changes nothing', async () => {
    const title = 'Redacted and replayed over MCP';
    const slug = await leakedStory(title);
    const args = { slug, base_revision: 3, markdown: clean(title), op_id: 'op-redact-mcp-replay' };
    const first = answerOf(await call('redact_story', args));
    answerOf(await call('edit_story', { slug, markdown: `${clean(title)}\nLater.\n`, kind: 'addition' }));
    const before = await observable();
    expect(answerOf(await call('redact_story', args))).toEqual({ ...first, replayed: true });
    expect(await observable()).toEqual(before);
    expect(await revisionKeys(slug)).toEqual(['REV#000001', 'REV#000002', 'REV#000003', 'REV#000004', 'REV#000005']);
  });
});
