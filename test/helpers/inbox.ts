// Notifications as stored, read straight from the table rather than through list_notifications,
// so a test can see what a write delivered without the reader under test.
import type { AppFixture } from './app-fixture.ts';

/** The stored notifications in `account`'s inbox (every inbox when none is named), optionally only those about `story`. */
export async function storedNotifications(
  fixture: AppFixture,
  about: { account?: string; story?: string } = {},
): Promise<Record<string, unknown>[]> {
  return (await fixture.state()).filter(
    (item) =>
      (about.account === undefined ? String(item.PK).startsWith('INBOX#') : item.PK === `INBOX#${about.account}`) &&
      (about.story === undefined || item.story === about.story),
  );
}
