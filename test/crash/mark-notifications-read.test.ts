// mark_notifications_read under a crash at every store step: by ids, and up_to an id (which finds
// the unread ones with a query inside the plan: one more awaited store step).
import type { AppContext } from '../../src/app/context/app-context.ts';
import { markNotificationsRead } from '../../src/app/mark-notifications-read.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { listNotifications } from '../../src/app/queries/list-notifications.ts';
import { reportReproduction } from '../../src/app/report-reproduction.ts';
import { caller } from '../helpers/app-fixture.ts';
import { storyTitled } from '../helpers/stories.ts';
import { type CrashWorld, crashPoints } from './crash-points.ts';

const alice = caller('alice');
const reporters = [caller('bob'), caller('carol')];

/** Two reports on alice's story: two notifications in her inbox; their ids, newest first. */
async function twoNotifications({ ctx, tick }: CrashWorld): Promise<string[]> {
  const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Crash inbox') });
  for (const reporter of reporters) {
    tick();
    await reportReproduction(ctx, reporter, { slug, result: 'worked' });
  }
  return (await listNotifications(ctx as AppContext, alice, {})).notifications.map((n) => n.id);
}

crashPoints({
  name: 'mark_notifications_read, by ids',
  setup: twoNotifications,
  call: (ctx, ids, opId) => markNotificationsRead(ctx, alice, { ids, op_id: opId }),
  steps: { plain: ['TransactGetItems', 'TransactWriteItems'], withOpId: ['TransactGetItems', 'TransactWriteItems'] },
});

crashPoints({
  name: 'mark_notifications_read, up_to an id',
  setup: twoNotifications,
  call: (ctx, ids, opId) => markNotificationsRead(ctx, alice, { up_to: ids[0], op_id: opId }),
  steps: { plain: ['Query', 'TransactWriteItems'], withOpId: ['TransactGetItems', 'Query', 'TransactWriteItems'] },
});
