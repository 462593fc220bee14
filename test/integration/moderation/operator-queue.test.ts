// `moderate queue` (docs/moderation.md "The operator's queue"): held stories, appeals, spam waves
// and new accounts' held announcements on one list, newest first, at most the limit.
import { describe, expect, it } from 'vitest';
import { ensureAccount } from '../../../src/app/account/accounts.ts';
import { approveHeldAnnouncement } from '../../../src/app/moderation/approve-held.ts';
import { operatorQueue } from '../../../src/app/moderation/operator-queue.ts';
import { quarantineStory } from '../../../src/app/moderation/quarantine-story.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { refusal } from '../../helpers/refusal.ts';
import { spamCopy, storyOfItsOwn } from '../../helpers/spam-wave.ts';

const app = useAppFixture('operator-queue', { duplicateWindowHours: 168 });

describe('the operator queue', () => {
  it('lists a held story, a spam wave and a held announcement newest first; an approved announcement leaves it; --limit keeps the newest', async () => {
    const established = caller('queue-established');
    const held = await publishStory(app.ctx(), established, { markdown: storyOfItsOwn('Held for review', 71, 24) });
    app.advance(1000);
    await quarantineStory(app.ctx(), { slug: held.slug, reason: 'Unsafe steps.', actor: 'operator:test', op_id: 'op-queue-hold' });
    app.advance(1000);
    await refusal(publishStory(app.ctx(), caller('queue-copier'), { markdown: spamCopy(storyOfItsOwn('Held for review', 71, 24), 1) }));
    app.advance(1000);
    const newcomer = caller('queue-newcomer');
    await ensureAccount(app.ctx(), newcomer);
    const waiting = await publishStory(app.ctx(), newcomer, { markdown: storyOfItsOwn('Waiting to be announced', 72, 24) });

    const queue = await operatorQueue(app.ctx(), 50);
    expect(queue.map((entry) => [entry.kind, entry.slug])).toEqual([
      ['held_announcement', waiting.slug],
      ['spam_wave', held.slug],
      ['held', held.slug],
    ]);
    expect(queue[0]).toMatchObject({ title: 'Waiting to be announced', author: newcomer.account, held_reason: 'new_account' });
    expect(queue[1]).toMatchObject({ copies: 1, accounts: [caller('queue-copier').account] });
    expect((await operatorQueue(app.ctx(), 2)).map((entry) => entry.kind)).toEqual(['held_announcement', 'spam_wave']);

    await approveHeldAnnouncement(app.ctx(), {
      slug: waiting.slug,
      reason: 'Looks fine.',
      actor: 'operator:test',
      op_id: 'op-queue-approve',
    });
    expect((await operatorQueue(app.ctx(), 50)).map((entry) => entry.kind)).toEqual(['spam_wave', 'held']);
  });
});
