import { describe, expect, it } from 'vitest';
import { editStory } from '../../../src/app/edit-story.ts';
import { markNotificationsRead } from '../../../src/app/mark-notifications-read.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { correctionNotification, dispatchNotifications } from '../../../src/outbox/dispatch-notifications.ts';
import type { StoredItem } from '../../../src/store/actions.ts';
import { createItem } from '../../../src/store/replace-by-key.ts';
import { writeAtomically } from '../../../src/store/run-write.ts';
import { type CorrectionEvent, correctionOutboxItem } from '../../../src/store/story/outbox-items.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { storedNotifications } from '../../helpers/inbox.ts';
import { useOutside } from '../../helpers/outside.ts';
import { refusal } from '../../helpers/refusal.ts';
import { updateStoryMeta } from '../../helpers/stored-items.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('dispatch-notifications');
const alice = caller('alice');
const bob = caller('bob');

// Set-up writes (reproducers, replayed events), so the app's round-trip counter sees only the dispatcher.
const outside = useOutside(app);

const reproducers = (tag: string, count: number): string[] =>
  Array.from({ length: count }, (_v, index) => `acct-${tag}-${String(index).padStart(3, '0')}`);

const NOTE = 'The timeout is 30 s, not 3 s.';

/**
 * A story by alice with `accounts` as its reproducers, corrected through edit_story: the outbox
 * event the edit wrote in its transaction, as stored.
 */
async function correctedStory(title: string, accounts: readonly string[]): Promise<StoredItem> {
  const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled(title) });
  // report_reproduction would add them one by one; the dispatcher only reads the event's list.
  await updateStoryMeta(outside(), slug, {
    expression: 'ADD #reproducers :accounts',
    names: { '#reproducers': 'reproducers' },
    values: { ':accounts': new Set(accounts) },
  });
  await editStory(app.ctx(), alice, { slug, markdown: storyTitled(title, { extra: 'Corrected.' }), kind: 'correction', note: NOTE });
  const events = await outbox();
  const event = events.find((item) => item.slug === slug);
  expect(event).toMatchObject({ kind: 'correction', revision: 2, recipients: [...accounts].sort() });
  return event as StoredItem;
}

async function outbox(): Promise<StoredItem[]> {
  return (await app.state()).filter((item) => item.PK === 'OUTBOX') as StoredItem[];
}

function directEvent(slug: string, recipients: string[], revision = 2): CorrectionEvent {
  return {
    kind: 'correction',
    slug,
    title: `Story ${slug}`,
    revision,
    note: NOTE,
    actor: alice.account,
    actor_handle: alice.handle,
    at: '2026-11-02T10:00:00.000Z',
    recipients,
  };
}

describe('the notification dispatcher delivers each correction once', () => {
  it('a correction to 150 reproducers creates 150 notifications and retires its event', async () => {
    const accounts = reproducers('first', 150);
    const event = await correctedStory('Corrected for one hundred fifty', accounts);
    app.counter().reset();
    const result = await dispatchNotifications(app.ctx());
    console.log('dispatch of 150 round trips', app.counter().snapshot());
    expect(result).toEqual({ events: 1, notifications_created: 150, already_present: 0 });
    expect(app.counter().snapshot()).toEqual({ Query: 1, PutItem: 150, DeleteItem: 1 });
    expect(await outbox()).toEqual([]);
    const delivered = await storedNotifications(app, { story: String(event.slug) });
    expect(delivered.map((item) => item.PK).sort()).toEqual(accounts.map((account) => `INBOX#${account}`));
    expect(delivered[0]).toMatchObject({
      kind: 'correction',
      story: event.slug,
      story_title: 'Corrected for one hundred fifty',
      actor: alice.account,
      actor_handle: alice.handle,
      text: `alice.test corrected "Corrected for one hundred fifty": ${NOTE}`,
      at: event.at,
      read: false,
    });
  });

  it('a second run finds nothing to do and changes nothing', async () => {
    await correctedStory('Dispatched twice', reproducers('twice', 3));
    await dispatchNotifications(app.ctx());
    const before = await app.state();
    app.counter().reset();
    expect(await dispatchNotifications(app.ctx())).toEqual({ events: 0, notifications_created: 0, already_present: 0 });
    expect(app.counter().snapshot()).toEqual({ Query: 1 });
    expect(await app.state()).toEqual(before);
  });

  it('two dispatchers in parallel over a correction to 150 reproducers deliver exactly 150 notifications', async () => {
    const accounts = reproducers('parallel', 150);
    const event = await correctedStory('Two dispatchers at once', accounts);
    const results = await Promise.all([dispatchNotifications(app.ctx()), dispatchNotifications(outside())]);
    const created = results.reduce((sum, result) => sum + result.notifications_created, 0);
    const present = results.reduce((sum, result) => sum + result.already_present, 0);
    console.log('two parallel dispatchers', results);
    expect(created).toBe(150);
    expect(present).toBe(results.reduce((sum, result) => sum + result.events, 0) * 150 - 150);
    const delivered = await storedNotifications(app, { story: String(event.slug) });
    expect(delivered).toHaveLength(150);
    expect(new Set(delivered.map((item) => item.PK)).size).toBe(150);
    expect(await outbox()).toEqual([]);
  });

  it('a redelivered event creates no duplicate and a notification already read stays read', async () => {
    const accounts = reproducers('redelivered', 150);
    const event = await correctedStory('Redelivered correction', accounts);
    await dispatchNotifications(app.ctx());
    const reader = { account: accounts[7] as string, handle: 'reader.test' };
    const id = correctionNotification(event as unknown as CorrectionEvent, reader.account).SK;
    expect(await markNotificationsRead(app.ctx(), reader, { ids: [id] })).toEqual({ read: [id], unknown: [] });
    const before = await app.state();
    // The same event arrives again (a stream redelivery, or a retried edit's event).
    await writeAtomically(outside().store, [createItem(event)]);
    expect(await dispatchNotifications(app.ctx())).toEqual({ events: 1, notifications_created: 0, already_present: 150 });
    expect(await app.state()).toEqual(before);
    const mine = (await storedNotifications(app, { story: String(event.slug) })).filter((item) => item.PK === `INBOX#${reader.account}`);
    expect(mine).toEqual([expect.objectContaining({ SK: id, read: true })]);
  });

  it('a run that stopped halfway is finished by the next one without a second notification', async () => {
    const accounts = reproducers('halfway', 10);
    const event = directEvent('2026-10-14-stopped-halfway', accounts);
    await writeAtomically(outside().store, [
      createItem(correctionOutboxItem(event)),
      ...accounts.slice(0, 4).map((account) => createItem(correctionNotification(event, account))),
    ]);
    expect(await dispatchNotifications(app.ctx())).toEqual({ events: 1, notifications_created: 6, already_present: 4 });
    expect(await storedNotifications(app, { story: event.slug })).toHaveLength(10);
  });

  it('the author is not told about their own correction', async () => {
    const event = directEvent('2026-10-14-author-on-the-list', [alice.account, bob.account]);
    await writeAtomically(outside().store, [createItem(correctionOutboxItem(event))]);
    expect(await dispatchNotifications(app.ctx())).toEqual({ events: 1, notifications_created: 1, already_present: 0 });
    expect((await storedNotifications(app, { story: event.slug })).map((item) => item.PK)).toEqual([`INBOX#${bob.account}`]);
  });

  it('two corrections of one story are two notifications for each reproducer', async () => {
    const slug = '2026-10-14-corrected-twice';
    await writeAtomically(outside().store, [
      createItem(correctionOutboxItem(directEvent(slug, [bob.account], 2))),
      createItem(correctionOutboxItem({ ...directEvent(slug, [bob.account], 3), at: '2026-11-03T10:00:00.000Z' })),
    ]);
    expect(await dispatchNotifications(app.ctx())).toEqual({ events: 2, notifications_created: 2, already_present: 0 });
    expect(await storedNotifications(app, { story: slug })).toHaveLength(2);
  });
});

describe('the notification dispatcher works in bounded runs', () => {
  it('limit bounds the events handled per run; the rest wait for the next run', async () => {
    const slugs = ['2026-10-14-bounded-a', '2026-10-14-bounded-b', '2026-10-14-bounded-c'];
    await writeAtomically(
      outside().store,
      slugs.map((slug) => createItem(correctionOutboxItem(directEvent(slug, [bob.account])))),
    );
    expect(await dispatchNotifications(app.ctx(), { limit: 2 })).toEqual({ events: 2, notifications_created: 2, already_present: 0 });
    expect(await dispatchNotifications(app.ctx(), { limit: 2 })).toEqual({ events: 1, notifications_created: 1, already_present: 0 });
    expect(await outbox()).toEqual([]);
  });

  it('leaves outbox events of other kinds alone', async () => {
    const other = { PK: 'OUTBOX', SK: 'announce#2026-10-14-someone-elses', kind: 'announce' };
    await writeAtomically(outside().store, [createItem(other)]);
    expect(await dispatchNotifications(app.ctx())).toEqual({ events: 0, notifications_created: 0, already_present: 0 });
    expect(await outbox()).toEqual([other]);
    await writeAtomically(outside().store, [{ Delete: { Key: { PK: other.PK, SK: other.SK } } }]);
  });

  it.each([0, 101, 1.5])('a limit of %s is validation_failed and nothing is read or written', async (limit) => {
    app.counter().reset();
    const error = await refusal(dispatchNotifications(app.ctx(), { limit }));
    expect(error.code).toBe('validation_failed');
    expect(app.counter().total()).toBe(0);
  });
});
