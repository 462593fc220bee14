// Two accounts through the real surfaces: A's token cannot edit, hide or read B's private
// stories, and A's op_id never answers B's result (op records are per account).
import { beforeAll, describe, expect, it } from 'vitest';
import { answerOf, refusalOf, useLorebookServer } from '../helpers/lorebook-server.ts';
import { storyTitled } from '../helpers/stories.ts';
import { type Writer, writer } from './write-surface.ts';

const server = useLorebookServer('e2e-cross-account');
const observable = async () => (await server.app.state()).filter((item) => !String(item.PK).startsWith('RATE#'));

let a: { token: string; account: string };
let b: { token: string; account: string };
let bPublic: string;
let bPrivate: string;
beforeAll(async () => {
  a = await server.token('handle-a');
  b = await server.token('handle-b');
  const asB = await server.mcp(b.token);
  bPublic = answerOf<{ slug: string }>(
    await asB.callTool({ name: 'publish_story', arguments: { markdown: storyTitled('B public story') } }),
  ).slug;
  bPrivate = answerOf<{ slug: string }>(
    await asB.callTool({ name: 'publish_story', arguments: { markdown: storyTitled('B private story', { visibility: 'private' }) } }),
  ).slug;
});

describe("A's token against B's stories", () => {
  it("cannot edit or hide B's public story (forbidden) and writes nothing, through MCP and /v1", async () => {
    const before = await observable();
    for (const surface of ['mcp', 'http'] as const) {
      const asA: Writer = await writer(server, surface, a.token);
      const edit = await asA.write('edit_story', {
        slug: bPublic,
        markdown: storyTitled('B public story', { extra: 'By A.' }),
        kind: 'rephrase',
      });
      expect(edit.body.code, surface).toBe('forbidden');
      const hide = await asA.write('set_visibility', { slug: bPublic, hidden: true });
      expect(hide.body.code, surface).toBe('forbidden');
      if (surface === 'http') expect(hide.status).toBe(403);
    }
    expect(await observable()).toEqual(before);
  });

  it("cannot read, edit, hide or report on B's private story: it is not_found, never forbidden", async () => {
    const asA = await server.mcp(a.token);
    expect(refusalOf(await asA.callTool({ name: 'get_story', arguments: { slug: bPrivate } })).code).toBe('not_found');
    expect((await server.fetch(`/v1/stories/${bPrivate}`, { headers: { Authorization: `Bearer ${a.token}` } })).status).toBe(404);
    const before = await observable();
    for (const [name, args] of [
      ['edit_story', { slug: bPrivate, markdown: storyTitled('B private story', { visibility: 'private' }), kind: 'rephrase' }],
      ['set_visibility', { slug: bPrivate, hidden: true }],
      ['report_reproduction', { slug: bPrivate, result: 'worked' }],
    ] as const) {
      expect(refusalOf(await asA.callTool({ name, arguments: args })).code, name).toBe('not_found');
    }
    expect(await observable()).toEqual(before);
    // Nor does search or B's author list show it to A.
    const listed = (await (
      await server.fetch(`/v1/stories?author=${b.account}`, { headers: { Authorization: `Bearer ${a.token}` } })
    ).json()) as {
      stories: Array<{ slug: string }>;
    };
    expect(listed.stories.map((story) => story.slug)).toEqual([bPublic]);
    // B sees it.
    const asB = await server.mcp(b.token);
    expect(answerOf<{ slug: string }>(await asB.callTool({ name: 'get_story', arguments: { slug: bPrivate } })).slug).toBe(bPrivate);
  });

  it("A's op_id never returns B's result: the same op_id is a separate record per account", async () => {
    const asB = await writer(server, 'mcp', b.token);
    const asA = await writer(server, 'http', a.token);
    const bAnswer = await asB.write('publish_story', { markdown: storyTitled('B with a shared key'), op_id: 'op-shared-key' });
    expect(bAnswer.refused).toBe(false);
    // A sends the same op_id with A's own story: a first delivery for A, not B's replay.
    const aAnswer = await asA.write('publish_story', { markdown: storyTitled('A with a shared key'), op_id: 'op-shared-key' });
    expect(aAnswer.status).toBe(201);
    expect(aAnswer.replayedHeader).toBeNull();
    expect(aAnswer.body.slug).not.toBe(bAnswer.body.slug);
    // A sending B's exact request with that key gets A's own record (another request: refused), never B's stored answer.
    const before = await observable();
    const aReplaysB = await asA.write('publish_story', { markdown: storyTitled('B with a shared key'), op_id: 'op-shared-key' });
    expect(aReplaysB.body.code).toBe('idempotency_key_reused');
    expect(await observable()).toEqual(before);
  });
});
