// The operator's restore under a crash at every store step: the lift (META shown again and owed
// its announcement, the review-queue entry deleted, the author's notification, the audit record
// and the op record in one transaction) ends as one clean run. An operator action always carries
// an op id (the CLI mints one per run), so both variants run with one: without `--op-id` the
// retry repeats the crashed run's id as `--op-id` would.
import type { AppContext } from '../../src/app/context/app-context.ts';
import { flagStory } from '../../src/app/flag-story.ts';
import { restoreStory } from '../../src/app/moderation/restore-story.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { createAccount } from '../../src/store/identity/account/items.ts';
import { writeAtomically } from '../../src/store/run-write.ts';
import { caller } from '../helpers/app-fixture.ts';
import { storyTitled } from '../helpers/stories.ts';
import { crashPoints } from './crash-points.ts';

const alice = caller('alice');
const readers = [caller('bob'), caller('carol'), caller('dave')] as const;
const READ_THEN_TRANSACTION = ['TransactGetItems', 'TransactWriteItems'];
const TWO_DAYS_MS = 2 * 24 * 60 * 60 * 1000;

async function heldStory(ctx: AppContext, tick: () => void): Promise<string> {
  const created_at = new Date(ctx.store.now() - TWO_DAYS_MS).toISOString();
  await writeAtomically(
    ctx.store,
    readers.map((reader) => createAccount({ id: reader.account, handle: reader.handle, created_at })),
  );
  const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Crash restored story') });
  for (const reader of readers) {
    tick();
    await flagStory(ctx, reader, { slug, reason: 'spam' });
  }
  return slug;
}

crashPoints({
  name: 'moderate restore, a story held by flags',
  setup: ({ ctx, tick }) => heldStory(ctx, tick),
  call: (ctx, slug, opId) =>
    restoreStory(ctx, { slug, reason: 'Reviewed: a real story.', actor: 'operator:crash', op_id: opId ?? 'op-crash-run' }),
  steps: { plain: READ_THEN_TRANSACTION, withOpId: READ_THEN_TRANSACTION },
});
