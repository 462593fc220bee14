// The outbox's age (docs/metrics.md): how long the announce queue's earliest entry has been due
// without being settled. It grows when announcing is stuck (a refused app password, a long
// outage, no sweeper); an entry waiting for a retry time still ahead is not late, so it reads 0.
import type { AppContext } from '../app/context/app-context.ts';
import { firstAnnouncementDue } from '../store/story/announce/queue.ts';

export async function outboxAgeSeconds(ctx: AppContext): Promise<number> {
  const due = await firstAnnouncementDue(ctx.store);
  return due === undefined ? 0 : Math.max(0, Math.floor((ctx.store.now() - Date.parse(due)) / 1000));
}
