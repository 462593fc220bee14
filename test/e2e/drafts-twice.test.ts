// The twice-tests of the drafts' writes, end to end through MCP (the real SDK client) and /v1 on
// the real server: the same call twice in a row, 16 times in parallel, and an op_id replay after a
// different change. Each answers the first answer and changes nothing more: no second draft,
// claim, notification or story.
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { Caller } from '../../src/app/context/app-context.ts';
import { claimDraft } from '../../src/app/drafts/claim-draft.ts';
import { draftStoryFor } from '../../src/app/drafts/draft-story-for.ts';
import { useLorebookServer } from '../helpers/lorebook-server.ts';
import { storyTitled } from '../helpers/stories.ts';

vi.setConfig({ testTimeout: 180_000 });

const server = useLorebookServer('e2e-drafts-twice');

type Args = Record<string, unknown>;
type Tool = 'draft_story_for' | 'claim_draft' | 'decline_draft' | 'withdraw_draft' | 'publish_draft';
interface Answer {
  body: Args;
  refused: boolean;
  status?: number;
  replayedHeader?: string | null;
}
type Send = (tool: Tool, args: Args) => Promise<Answer>;

/** What a call may change: everything but op records and the rate windows every call counts in. */
const observable = async () => (await server.app.state()).filter((item) => !String(item.PK).startsWith('RATE#'));

function httpRequest(tool: Tool, args: Args): { path: string; body: Args } {
  const { draft_id: id, op_id: _opId, ...rest } = args;
  switch (tool) {
    case 'draft_story_for':
      return { path: '/v1/drafts', body: rest };
    case 'claim_draft':
      return { path: '/v1/drafts/claim', body: rest };
    case 'decline_draft':
      return { path: '/v1/drafts/decline', body: rest };
    case 'withdraw_draft':
      return { path: `/v1/drafts/${String(id)}/withdraw`, body: rest };
    case 'publish_draft':
      return { path: `/v1/drafts/${String(id)}/publish`, body: rest };
  }
}

async function sender(surface: 'mcp' | 'http', token: string): Promise<Send> {
  if (surface === 'mcp') {
    const client = await server.mcp(token);
    return async (tool, args) => {
      const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
      return { body: result.structuredContent as Args, refused: result.isError === true };
    };
  }
  return async (tool, args) => {
    const { path, body } = httpRequest(tool, args);
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    if (typeof args.op_id === 'string') headers['Idempotency-Key'] = args.op_id;
    const response = await server.fetch(path, { method: 'POST', headers, body: JSON.stringify(body) });
    return {
      body: (await response.json()) as Args,
      refused: !response.ok,
      status: response.status,
      replayedHeader: response.headers.get('idempotent-replayed'),
    };
  };
}

interface People {
  dana: Caller & { token: string };
  ivy: Caller & { token: string };
}
let people: People;
beforeAll(async () => {
  const person = async (handle: string) => ({ ...(await server.token(handle)), handle });
  people = { dana: await person('dana'), ivy: await person('ivy') };
});

const draftArgs = (title: string): Args => ({
  markdown: storyTitled(title),
  invitee_note: 'What we fixed together.',
  draft_key: randomUUID(),
});
let helpers = 0;
/** A draft written directly, by dana or (the daily draft limit is per account) a drafter of its own. */
const drafted = async (title: string, by?: Caller) => {
  helpers += 1;
  const drafter = by ?? { account: `acct-helper-${helpers}`, handle: `helper-${helpers}` };
  const answer = await draftStoryFor(server.app.ctx(), drafter, draftArgs(title));
  return { id: answer.draft.id, claimUrl: answer.claim_url };
};
const draftItem = async (id: string) => (await observable()).find((item) => item.PK === `DRAFT#${id}`);

interface Case {
  tool: Tool;
  by: keyof People;
  setup(name: string, send: Send): Promise<{ args: Args; target: string; differentChange: () => Promise<unknown> }>;
  appliedOnce(target: string, answer: Answer): Promise<void>;
}

const CASES: Case[] = [
  {
    tool: 'draft_story_for',
    by: 'dana',
    async setup(name) {
      const title = `Drafted for ivy ${name}`;
      return { args: draftArgs(title), target: title, differentChange: () => drafted(`Another draft ${name}`) };
    },
    async appliedOnce(title, answer) {
      const drafts = (await observable()).filter((item) => String(item.PK).startsWith('DRAFT#') && item.title === title);
      expect(drafts).toHaveLength(1);
      expect(answer.body.claim_url).toMatch(/\/claim\/lbc_/);
    },
  },
  {
    tool: 'claim_draft',
    by: 'ivy',
    async setup(name, send) {
      const { id, claimUrl } = await drafted(`Claimed ${name}`);
      return { args: { claim_url: claimUrl }, target: id, differentChange: () => send('publish_draft', { draft_id: id }) };
    },
    async appliedOnce(id) {
      expect(await draftItem(id)).toMatchObject({ status: 'claimed', claimer: people.ivy.account });
      const notes = (await observable()).filter(
        (item) => item.PK === `INBOX#${people.ivy.account}` && item.kind === 'draft' && String(item.text).includes(id),
      );
      expect(notes).toHaveLength(1);
    },
  },
  {
    tool: 'decline_draft',
    by: 'ivy',
    async setup(name, send) {
      const { id, claimUrl } = await drafted(`Declined ${name}`);
      const other = await drafted(`Claimed instead ${name}`);
      return { args: { claim_url: claimUrl }, target: id, differentChange: () => send('claim_draft', { claim_url: other.claimUrl }) };
    },
    async appliedOnce(id) {
      expect(await draftItem(id)).toMatchObject({ status: 'declined' });
    },
  },
  {
    tool: 'withdraw_draft',
    by: 'dana',
    async setup(name, send) {
      const { id } = await drafted(`Withdrawn ${name}`, people.dana);
      return { args: { draft_id: id }, target: id, differentChange: () => send('draft_story_for', draftArgs(`Drafted instead ${name}`)) };
    },
    async appliedOnce(id) {
      expect(await draftItem(id)).toMatchObject({ status: 'withdrawn' });
    },
  },
  {
    tool: 'publish_draft',
    by: 'ivy',
    async setup(name, send) {
      const { id, claimUrl } = await drafted(`Published from a draft ${name}`);
      await claimDraft(server.app.ctx(), people.ivy, { claim_url: claimUrl });
      const other = await drafted(`Claimed meanwhile ${name}`);
      return { args: { draft_id: id }, target: id, differentChange: () => send('claim_draft', { claim_url: other.claimUrl }) };
    },
    async appliedOnce(id, answer) {
      const slug = String(answer.body.slug);
      expect(await draftItem(id)).toMatchObject({ status: 'published', story: slug });
      const story = (await observable()).filter((item) => item.PK === `STORY#${slug}`);
      expect(story.filter((item) => String(item.SK).startsWith('REV#'))).toHaveLength(1);
      expect(story.find((item) => item.SK === 'META')).toMatchObject({
        author: people.ivy.account,
        drafted_by: expect.stringMatching(/^acct-helper-/),
      });
    },
  },
];

describe.each(['mcp', 'http'] as const)('every drafts write through %s is safe to deliver twice', (surface) => {
  const senders = new Map<keyof People, Send>();
  beforeAll(async () => {
    for (const name of ['dana', 'ivy'] as const) senders.set(name, await sender(surface, people[name].token));
  });
  const by = (c: Case): Send => senders.get(c.by) as Send;

  describe.each(CASES.map((c) => [c.tool, c] as const))('%s', (_tool, c) => {
    it(`the same ${c.tool} twice in a row answers the same and the second changes nothing`, async () => {
      const send = by(c);
      const { args, target } = await c.setup(`${surface} twice`, send);
      const first = await send(c.tool, args);
      expect(first.refused, JSON.stringify(first.body)).toBe(false);
      const before = await observable();
      const second = await send(c.tool, args);
      expect(second.body).toEqual(first.body);
      expect(second.status).toBe(first.status);
      expect(await observable()).toEqual(before);
      await c.appliedOnce(target, first);
    });

    it(`16 parallel ${c.tool} calls apply once and all answer the same`, async () => {
      const send = by(c);
      const { args, target } = await c.setup(`${surface} sixteen`, send);
      const answers = await Promise.all(Array.from({ length: 16 }, () => send(c.tool, args)));
      for (const answer of answers) {
        expect(answer.refused, JSON.stringify(answer.body)).toBe(false);
        expect(answer.body).toEqual(answers[0]?.body);
      }
      await c.appliedOnce(target, answers[0] as Answer);
    });

    it(`an op_id replay of ${c.tool} after a different change answers the first answer and changes nothing`, async () => {
      const send = by(c);
      const { args, differentChange } = await c.setup(`${surface} replay`, send);
      const opId = `op-${surface}-${c.tool}`;
      const first = await send(c.tool, { ...args, op_id: opId });
      expect(first.refused, JSON.stringify(first.body)).toBe(false);
      const changed = (await differentChange()) as Answer | undefined;
      if (changed !== undefined && 'refused' in changed) expect(changed.refused, JSON.stringify(changed.body)).toBe(false);
      const before = await observable();
      const replay = await send(c.tool, { ...args, op_id: opId });
      expect(replay.body).toEqual({ ...first.body, replayed: true });
      if (surface === 'http') {
        expect(replay.status).toBe(first.status);
        expect(replay.replayedHeader).toBe('true');
        expect(first.replayedHeader).toBeNull();
      }
      expect(await observable()).toEqual(before);
    });
  });
});
