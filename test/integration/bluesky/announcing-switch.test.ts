// The announcing switch (design.md#settings) against the real test PDS: `announcing off` through one
// process is honoured by a second on the same table within its settings cache period (1 s here) —
// nothing is posted, by the attempt after publishing or by the sweeper — and the story waits on the
// announce queue until announcing is on again, then is posted once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { setAnnouncing } from '../../../src/app/moderation/set-announcing.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { readConfig } from '../../../src/config.ts';
import { buildContext } from '../../../src/context.ts';
import { ANNOUNCING_OFF, sweepAnnouncements } from '../../../src/outbox/announce/sweeper.ts';
import { dueAnnouncements } from '../../../src/store/story/announce/queue.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { eventually } from '../../helpers/eventually.ts';
import { useBluesky, withAnnouncing } from '../../helpers/pds/use-bluesky.ts';
import { storyTitled } from '../../helpers/stories.ts';
import { testEndpoint } from '../../helpers/test-table.ts';

const app = useAppFixture('bluesky-announcing-switch');
const bsky = useBluesky();
const alice = caller('alice');
const scratch = mkdtempSync(join(tmpdir(), 'lorebook-announcing-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A process as `npm start` builds its context, on this suite's table, reading the settings at most once a second. */
function process(name: string): ReturnType<typeof buildContext> {
  return buildContext(
    readConfig({
      LOREBOOK_DDB_ENDPOINT: testEndpoint(),
      LOREBOOK_TABLE: app.ctx().store.tableName,
      LOREBOOK_IMAGE_DIR: join(scratch, name, 'images'),
      LOREBOOK_SEARCH_DIR: join(scratch, name, 'search'),
      LOREBOOK_SETTINGS_CACHE_SECONDS: '1',
    }),
  );
}

async function honoured(ctx: ReturnType<typeof buildContext>, announcing: boolean): Promise<void> {
  await eventually(
    async () => {
      await ctx.refreshSettings?.();
      return ctx.config.announcing === announcing ? true : undefined;
    },
    `announcing ${announcing ? 'on' : 'off'} honoured`,
    10_000,
    250,
  );
}

describe('announcing off|on', () => {
  it('off through one process: the second posts nothing and keeps the story on the queue; on again, the story is posted once', async () => {
    const operator = process('operator');
    const server = process('server');
    const announcer = bsky.announcer();
    const { ctx, idle } = withAnnouncing(server, announcer);
    await ctx.refreshSettings?.();
    expect(ctx.config.announcing).toBe(true);

    const off = { actor: 'operator:test', reason: 'the posting account is being abused', op_id: 'op-announcing-off' };
    await setAnnouncing(operator, { ...off, on: false });
    await honoured(ctx, false);
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Published while announcing is off') });
    await idle();
    expect((await sweepAnnouncements(ctx, announcer)).stopped).toBe(ANNOUNCING_OFF);
    expect(await bsky.posts()).toEqual([]);
    const queued = await dueAnnouncements(app.ctx().store, new Date().toISOString(), 10);
    expect(queued.map((entry) => entry.slug)).toEqual([slug]);

    // The audit record of the switch, in the moderation log.
    const audit = (await app.allItems()).filter((item) => item.PK === 'MODLOG');
    expect(audit).toEqual([
      expect.objectContaining({ action: 'announcing', target_kind: 'site', target: 'announcing', changes: { announcing: [null, 'off'] } }),
    ]);

    await setAnnouncing(operator, { ...off, on: true, op_id: 'op-announcing-on' });
    await honoured(ctx, true);
    await sweepAnnouncements(ctx, announcer);
    expect(await bsky.postsFor(slug)).toHaveLength(1);
    for (const context of [operator, server]) context.store.client.destroy();
  }, 60_000);
});
