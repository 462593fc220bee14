import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import type { Caller } from '../../../src/app/context/app-context.ts';
import { markNotificationsRead } from '../../../src/app/mark-notifications-read.ts';
import { encodeCursor, listNotifications } from '../../../src/app/queries/list-notifications.ts';
import { inboxPartition } from '../../../src/store/keys.ts';
import { epochSeconds } from '../../../src/store/store.ts';
import { notificationItem } from '../../../src/store/story/notification-items.ts';
import { type AppFixture, caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { storedNotifications } from '../../helpers/inbox.ts';
import { afterNextRead } from '../../helpers/interleave.ts';
import { useOutside } from '../../helpers/outside.ts';
import { putItems } from '../../helpers/put-items.ts';
import { refusal } from '../../helpers/refusal.ts';

const app = useAppFixture('notifications');
// Inboxes of thousands of notifications and a moved clock get a table of their own.
const large = useAppFixture('notifications-large');

let readerSequence = 0;
/** A fresh inbox per test, so tests never see each other's notifications. */
const reader = (): Caller => caller(`reader${++readerSequence}`);

// Notifications arrive from other processes (report_reproduction, the dispatcher).
const outside = useOutside(app);

const BASE = Date.UTC(2026, 10, 1);
const atSecond = (second: number): string => new Date(BASE + second * 1000).toISOString();

/** `count` notifications for `recipient`, one per second from `from`; returns their ids oldest first. */
async function deliver(
  recipient: Caller,
  count: number,
  options: { from?: number; extra?: Record<string, unknown>; fixture?: AppFixture } = {},
): Promise<string[]> {
  const items = Array.from({ length: count }, (_, index) => ({
    ...notificationItem({
      recipient: recipient.account,
      kind: 'reproduction',
      story: '2026-10-14-a-story',
      story_title: 'A story',
      actor: 'acct-repro',
      actor_handle: 'repro.test',
      text: `repro.test reproduced "A story": worked (${index})`,
      at: atSecond((options.from ?? 0) + index),
      discriminator: 'worked',
    }),
    ...options.extra,
  }));
  await putItems(outside(options.fixture).store, items);
  return items.map((item) => item.SK);
}

const inbox = (recipient: Caller): Promise<Record<string, unknown>[]> => storedNotifications(app, { account: recipient.account });

const readIds = async (recipient: Caller): Promise<string[]> =>
  (await inbox(recipient)).filter((item) => item.read === true).map((item) => String(item.SK));

const newestFirst = (ids: readonly string[]): string[] => [...ids].reverse();

describe('list_notifications pages through the caller’s inbox, newest first', () => {
  it('pages with a cursor, never repeating or skipping one, in one query per page', async () => {
    const me = reader();
    const ids = await deliver(me, 7);
    app.counter().reset();
    const first = await listNotifications(app.ctx(), me, { limit: 3 });
    console.log('list_notifications page round trips', app.counter().snapshot());
    expect(app.counter().snapshot()).toEqual({ Query: 1 });
    expect(first.notifications.map((n) => n.id)).toEqual(newestFirst(ids).slice(0, 3));
    expect(first.notifications[0]).toEqual({
      id: ids[6],
      kind: 'reproduction',
      story: '2026-10-14-a-story',
      story_title: 'A story',
      actor_handle: 'repro.test',
      text: 'repro.test reproduced "A story": worked (6)',
      at: atSecond(6),
      read: false,
    });
    const second = await listNotifications(app.ctx(), me, { limit: 3, cursor: first.cursor });
    const third = await listNotifications(app.ctx(), me, { limit: 3, cursor: second.cursor });
    expect([...second.notifications, ...third.notifications].map((n) => n.id)).toEqual(newestFirst(ids).slice(3));
    expect(third.cursor).toBeUndefined();
  });

  it('a full last page still gives a cursor, and following it answers an empty page without one', async () => {
    const me = reader();
    await deliver(me, 4);
    const page = await listNotifications(app.ctx(), me, { limit: 4 });
    expect(page.notifications).toHaveLength(4);
    expect(await listNotifications(app.ctx(), me, { limit: 4, cursor: page.cursor })).toEqual({ notifications: [] });
  });

  it('defaults to 20 per page and an empty inbox answers an empty page', async () => {
    const me = reader();
    await deliver(me, 21);
    const page = await listNotifications(app.ctx(), me, {});
    expect(page.notifications).toHaveLength(20);
    expect(page.cursor).toBeDefined();
    expect(await listNotifications(app.ctx(), reader(), undefined)).toEqual({ notifications: [] });
  });

  it('unread_only fills its pages past read notifications and lists every unread one once', async () => {
    const me = reader();
    const ids = await deliver(me, 30);
    const read = ids.filter((_id, index) => index % 3 !== 0);
    await markNotificationsRead(app.ctx(), me, { ids: read });
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listNotifications(app.ctx(), me, { limit: 4, unread_only: true, ...(cursor === undefined ? {} : { cursor }) });
      expect(page.notifications.every((n) => !n.read)).toBe(true);
      if (page.cursor !== undefined) expect(page.notifications).toHaveLength(4);
      seen.push(...page.notifications.map((n) => n.id));
      cursor = page.cursor;
    } while (cursor !== undefined);
    expect(seen).toEqual(newestFirst(ids.filter((_id, index) => index % 3 === 0)));
  });

  it('unread_only looks past hundreds of read notifications over a few queries', async () => {
    const me = reader();
    const [unread] = await deliver(me, 1, { fixture: large });
    await deliver(me, 450, { from: 1, extra: { read: true }, fixture: large });
    large.counter().reset();
    const page = await listNotifications(large.ctx(), me, { limit: 5, unread_only: true });
    console.log('unread_only past 450 read round trips', large.counter().snapshot());
    expect(page).toEqual({ notifications: [expect.objectContaining({ id: unread, read: false })] });
    expect(large.counter().snapshot()).toEqual({ Query: 3 });
  });

  it('unread_only answers a short page with a cursor rather than scanning without bound', async () => {
    const me = reader();
    const [unread] = await deliver(me, 1, { fixture: large });
    await deliver(me, 1050, { from: 1, extra: { read: true }, fixture: large });
    large.counter().reset();
    const first = await listNotifications(large.ctx(), me, { limit: 5, unread_only: true });
    expect(large.counter().snapshot()).toEqual({ Query: 5 });
    expect(first.notifications).toEqual([]);
    expect(first.cursor).toBeDefined();
    const second = await listNotifications(large.ctx(), me, { limit: 5, unread_only: true, cursor: first.cursor });
    expect(second).toEqual({ notifications: [expect.objectContaining({ id: unread })] });
  });

  it('shows only the caller’s own inbox', async () => {
    const me = reader();
    await deliver(me, 2);
    expect(await listNotifications(app.ctx(), reader(), {})).toEqual({ notifications: [] });
  });

  it('leaves out notifications past their TTL that DynamoDB has not deleted yet', async () => {
    const me = reader();
    const now = epochSeconds(large.ctx().store.now());
    const kept = await deliver(me, 2, { fixture: large, extra: { expires_at: now + 3600 } });
    const lingering = await deliver(me, 2, { from: 10, fixture: large, extra: { expires_at: now + 60 } });
    large.advance(10 * 60 * 1000);
    const page = await listNotifications(large.ctx(), me, {});
    expect(page.notifications.map((n) => n.id)).toEqual(newestFirst(kept));
    expect(lingering).toHaveLength(2);
  });

  it.each([
    ['a cursor that is not base64url', { cursor: '***' }, ['cursor']],
    ['a cursor that decodes to something else', { cursor: encodeCursor('STORY#x') }, ['cursor']],
    [
      'a cursor with characters base64url decoding would forgive',
      { cursor: `${encodeCursor('N#2026-11-01T00:00:00.000Z#0123456789abcdef')}=` },
      ['cursor'],
    ],
    ['a limit of 0', { limit: 0 }, ['limit']],
    ['a limit of 101', { limit: 101 }, ['limit']],
    ['an unknown field', { all: true }, ['(input)']],
  ])('%s is validation_failed naming the field', async (_name, input, fields) => {
    const error = await refusal(listNotifications(app.ctx(), reader(), input));
    expect(error.code).toBe('validation_failed');
    expect(Object.keys((error.details as { fields: Record<string, string> }).fields)).toEqual(fields);
  });
});

describe('mark_notifications_read by ids is safe to deliver twice', () => {
  it('a second identical call answers the same and writes nothing', async () => {
    const me = reader();
    const ids = await deliver(me, 3);
    app.counter().reset();
    const first = await markNotificationsRead(app.ctx(), me, { ids: ids.slice(0, 2) });
    console.log('mark ids round trips', app.counter().snapshot());
    expect(app.counter().snapshot()).toEqual({ TransactGetItems: 1, TransactWriteItems: 1 });
    expect(first).toEqual({ read: newestFirst(ids.slice(0, 2)), unknown: [] });
    const before = await app.state();
    app.counter().reset();
    const second = await markNotificationsRead(app.ctx(), me, { ids: [ids[1], ids[0]] });
    expect(app.counter().writes()).toBe(0);
    expect(second).toEqual(first);
    expect(await app.state()).toEqual(before);
    expect(await readIds(me)).toEqual(ids.slice(0, 2));
  });

  it('16 parallel calls all answer the same and leave the state of one call', async () => {
    const me = reader();
    const ids = await deliver(me, 5);
    const answers = await Promise.all(Array.from({ length: 16 }, () => markNotificationsRead(app.ctx(), me, { ids: ids.slice(1, 4) })));
    for (const answer of answers) expect(answer).toEqual({ read: newestFirst(ids.slice(1, 4)), unknown: [] });
    expect(await readIds(me)).toEqual(ids.slice(1, 4));
    expect((await inbox(me)).map((item) => item.read)).toEqual([false, true, true, true, false]);
  });

  it('unknown ids and other people’s notifications are reported as unknown, not marked', async () => {
    const me = reader();
    const other = reader();
    const mine = await deliver(me, 1);
    const theirs = await deliver(other, 1, { from: 50 });
    const missing = 'N#2026-11-01T00:00:00.000Z#0000000000000000';
    const answer = await markNotificationsRead(app.ctx(), me, { ids: [missing, ...mine, ...theirs] });
    expect(answer).toEqual({ read: mine, unknown: [...theirs, missing].sort().reverse() });
    expect(await readIds(other)).toEqual([]);
  });

  it('an op_id replay after a different change returns the first answer and changes nothing', async () => {
    const me = reader();
    const ids = await deliver(me, 3);
    const first = await markNotificationsRead(app.ctx(), me, { ids: [ids[0]], op_id: 'op-mark-1' });
    await markNotificationsRead(app.ctx(), me, { ids: [ids[2]] });
    const before = await app.state();
    app.counter().reset();
    const replay = await markNotificationsRead(app.ctx(), me, { ids: [ids[0]], op_id: 'op-mark-1' });
    console.log('mark ids replay round trips', app.counter().snapshot());
    expect(replay).toEqual({ ...first, replayed: true });
    expect(await app.state()).toEqual(before);
    expect(app.counter().reads()).toBe(1);
    expect(app.counter().writes()).toBe(0);
  });

  it('16 parallel deliveries of one op_id commit one change and the rest replay it', async () => {
    const me = reader();
    const ids = await deliver(me, 2);
    const answers = await Promise.all(Array.from({ length: 16 }, () => markNotificationsRead(app.ctx(), me, { ids, op_id: 'op-mark-16' })));
    for (const { replayed: _flag, ...answer } of answers) expect(answer).toEqual({ read: newestFirst(ids), unknown: [] });
    expect(answers.filter((answer) => answer.replayed !== true)).toHaveLength(1);
  });

  it('an op_id reused with other arguments is idempotency_key_reused and writes nothing', async () => {
    const me = reader();
    const ids = await deliver(me, 2);
    await markNotificationsRead(app.ctx(), me, { ids: [ids[0]], op_id: 'op-mark-reused' });
    const before = await app.allItems();
    const error = await refusal(markNotificationsRead(app.ctx(), me, { ids: [ids[1]], op_id: 'op-mark-reused' }));
    expect(error.code).toBe('idempotency_key_reused');
    expect(await app.allItems()).toEqual(before);
  });

  it('one op_id used by two readers is two independent ops', async () => {
    const [one, two] = [reader(), reader()];
    const [oneIds, twoIds] = [await deliver(one, 1), await deliver(two, 1, { from: 5 })];
    expect(await markNotificationsRead(app.ctx(), one, { ids: oneIds, op_id: 'op-mark-shared' })).toEqual({ read: oneIds, unknown: [] });
    expect(await markNotificationsRead(app.ctx(), two, { ids: twoIds, op_id: 'op-mark-shared' })).toEqual({ read: twoIds, unknown: [] });
    expect(await readIds(one)).toEqual(oneIds);
    expect(await readIds(two)).toEqual(twoIds);
  });

  it('a mark that lost the race to another device re-reads instead of writing over the winner', async () => {
    const me = reader();
    const ids = await deliver(me, 2);
    afterNextRead(app.ctx(), () => markNotificationsRead(outside(), me, { ids }), 'TransactGetItems');
    app.counter().reset();
    const answer = await markNotificationsRead(app.ctx(), me, { ids });
    console.log('mark ids after a lost race round trips', app.counter().snapshot());
    expect(answer).toEqual({ read: newestFirst(ids), unknown: [] });
    expect(app.counter().snapshot()).toEqual({ TransactGetItems: 2, TransactWriteItems: 1 });
  });
});

describe('mark_notifications_read up_to marks every unread notification at or before an id', () => {
  it('marks the older unread ones, leaves newer ones, and a second call writes nothing', async () => {
    const me = reader();
    const ids = await deliver(me, 6);
    await markNotificationsRead(app.ctx(), me, { ids: [ids[1] as string] });
    app.counter().reset();
    const first = await markNotificationsRead(app.ctx(), me, { up_to: ids[3] });
    console.log('mark up_to round trips', app.counter().snapshot());
    expect(app.counter().snapshot()).toEqual({ Query: 1, TransactWriteItems: 1 });
    expect(first).toEqual({ up_to: ids[3], more: false });
    expect(await readIds(me)).toEqual(ids.slice(0, 4));
    const before = await app.state();
    app.counter().reset();
    expect(await markNotificationsRead(app.ctx(), me, { up_to: ids[3] })).toEqual(first);
    expect(app.counter().writes()).toBe(0);
    expect(await app.state()).toEqual(before);
  });

  it('marks at most 99 per call, newest first, and says when more remain', async () => {
    const me = reader();
    const ids = await deliver(me, 120);
    const upTo = ids[109] as string;
    expect(await markNotificationsRead(app.ctx(), me, { up_to: upTo })).toEqual({ up_to: upTo, more: true, next_up_to: ids[10] });
    expect(await readIds(me)).toEqual(ids.slice(11, 110));
    expect(await markNotificationsRead(app.ctx(), me, { up_to: ids[10] })).toEqual({ up_to: ids[10], more: false });
    expect(await readIds(me)).toEqual(ids.slice(0, 110));
  });

  it('a long run of read notifications answers where to continue instead of searching without bound', async () => {
    const me = reader();
    const [unread] = await deliver(me, 1, { fixture: large });
    const read = await deliver(me, 3100, { from: 1, extra: { read: true }, fixture: large });
    const newest = read[read.length - 1] as string;
    large.counter().reset();
    const first = await markNotificationsRead(large.ctx(), me, { up_to: newest });
    console.log('mark up_to past 3100 read round trips', large.counter().snapshot());
    expect(large.counter().snapshot()).toEqual({ Query: 3 });
    expect(first).toEqual({ up_to: newest, more: true, next_up_to: read[read.length - 3000] });
    const nextUpTo = read[read.length - 3000];
    const second = await markNotificationsRead(large.ctx(), me, { up_to: nextUpTo });
    expect(second).toEqual({ up_to: nextUpTo, more: false });
    const stored = await outside(large).store.client.send(
      new GetCommand({ TableName: large.ctx().store.tableName, Key: { PK: inboxPartition(me.account), SK: unread }, ConsistentRead: true }),
    );
    expect(stored.Item?.read).toBe(true);
  }, 240_000);

  it('16 parallel calls all answer the same and leave the state of one call', async () => {
    const me = reader();
    const ids = await deliver(me, 8);
    const answers = await Promise.all(Array.from({ length: 16 }, () => markNotificationsRead(app.ctx(), me, { up_to: ids[5] })));
    for (const answer of answers) expect(answer).toEqual({ up_to: ids[5], more: false });
    expect(await readIds(me)).toEqual(ids.slice(0, 6));
  });

  it('an op_id replay after a different change costs one read and no write', async () => {
    const me = reader();
    const ids = await deliver(me, 4);
    app.counter().reset();
    const first = await markNotificationsRead(app.ctx(), me, { up_to: ids[1], op_id: 'op-up-to-1' });
    console.log('mark up_to with op_id round trips', app.counter().snapshot());
    expect(app.counter().snapshot()).toEqual({ TransactGetItems: 1, Query: 1, TransactWriteItems: 1 });
    await markNotificationsRead(app.ctx(), me, { up_to: ids[3] });
    const before = await app.state();
    app.counter().reset();
    const replay = await markNotificationsRead(app.ctx(), me, { up_to: ids[1], op_id: 'op-up-to-1' });
    console.log('mark up_to replay round trips', app.counter().snapshot());
    expect(replay).toEqual({ ...first, replayed: true });
    expect(app.counter().snapshot()).toEqual({ TransactGetItems: 1 });
    expect(await app.state()).toEqual(before);
  });

  it('a mark that lost the race re-queries and answers from what is stored', async () => {
    const me = reader();
    const ids = await deliver(me, 3);
    afterNextRead(app.ctx(), () => markNotificationsRead(outside(), me, { ids: [ids[0] as string] }), 'Query');
    app.counter().reset();
    expect(await markNotificationsRead(app.ctx(), me, { up_to: ids[2] })).toEqual({ up_to: ids[2], more: false });
    console.log('mark up_to after a lost race round trips', app.counter().snapshot());
    expect(app.counter().snapshot()).toEqual({ Query: 2, TransactWriteItems: 2 });
    expect(await readIds(me)).toEqual(ids);
  });

  it('never touches another reader’s inbox', async () => {
    const [me, other] = [reader(), reader()];
    const mine = await deliver(me, 2);
    await deliver(other, 2);
    await markNotificationsRead(app.ctx(), me, { up_to: 'N#9999-12-31T23:59:59.999Z#ffffffffffffffff' });
    expect(await readIds(me)).toEqual(mine);
    expect(await readIds(other)).toEqual([]);
  });
});

describe('mark_notifications_read refuses what it cannot name, and writes nothing', () => {
  const id = 'N#2026-11-01T00:00:00.000Z#0123456789abcdef';
  it.each([
    ['neither ids nor up_to', {}, ['ids', 'up_to']],
    ['both ids and up_to', { ids: [id], up_to: id }, ['ids', 'up_to']],
    ['an empty ids list', { ids: [] }, ['ids']],
    ['100 ids', { ids: Array.from({ length: 100 }, (_v, i) => `N#2026-11-01T00:00:00.000Z#${String(i).padStart(16, '0')}`) }, ['ids']],
    ['a malformed id', { ids: [id, 'INBOX#acct-x'] }, ['ids.1']],
    ['a malformed up_to', { up_to: 'everything' }, ['up_to']],
    ['"all"', { all: true }, ['(input)']],
    ['a malformed op_id', { ids: [id], op_id: 'has spaces' }, ['op_id']],
  ])('%s is validation_failed naming the fields', async (_name, input, fields) => {
    const me = reader();
    await deliver(me, 1);
    const before = await app.allItems();
    const error = await refusal(markNotificationsRead(app.ctx(), me, input));
    expect(error.code).toBe('validation_failed');
    expect(Object.keys((error.details as { fields: Record<string, string> }).fields)).toEqual(fields);
    expect(await app.allItems()).toEqual(before);
  });
});
