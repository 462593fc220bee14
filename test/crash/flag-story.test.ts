// flag_story and unflag_story under a crash at every store step: the flag that holds a story (the
// count, the hold and the author's notification in one transaction), a changed reason, and a
// withdrawal of a counted flag.
import type { AppContext } from '../../src/app/context/app-context.ts';
import { flagStory } from '../../src/app/flag-story.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { unflagStory } from '../../src/app/unflag-story.ts';
import { createAccount } from '../../src/store/identity/account/items.ts';
import { writeAtomically } from '../../src/store/run-write.ts';
import { caller } from '../helpers/app-fixture.ts';
import { storyTitled } from '../helpers/stories.ts';
import { crashPoints } from './crash-points.ts';

const alice = caller('alice');
const readers = [caller('bob'), caller('carol'), caller('dave')] as const;
const [bob, carol, dave] = readers;
const READ_THEN_TRANSACTION = ['TransactGetItems', 'TransactWriteItems'];
const TWO_DAYS_MS = 2 * 24 * 60 * 60 * 1000;

/** Readers whose accounts are two days old: their flags count. */
async function establishedReaders(ctx: AppContext): Promise<void> {
  const created_at = new Date(ctx.store.now() - TWO_DAYS_MS).toISOString();
  await writeAtomically(
    ctx.store,
    readers.map((reader) => createAccount({ id: reader.account, handle: reader.handle, created_at })),
  );
}

crashPoints({
  name: 'flag_story, the flag that holds the story',
  setup: async ({ ctx, tick }) => {
    await establishedReaders(ctx);
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Crash held story') });
    tick();
    await flagStory(ctx, bob, { slug, reason: 'spam' });
    tick();
    await flagStory(ctx, carol, { slug, reason: 'unsafe_steps' });
    return slug;
  },
  call: (ctx, slug, opId) => flagStory(ctx, dave, { slug, reason: 'spam', op_id: opId }),
  steps: { plain: READ_THEN_TRANSACTION, withOpId: READ_THEN_TRANSACTION },
});

crashPoints({
  name: 'flag_story, a changed reason',
  setup: async ({ ctx, tick }) => {
    await establishedReaders(ctx);
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Crash changed flag') });
    tick();
    await flagStory(ctx, bob, { slug, reason: 'spam' });
    return slug;
  },
  call: (ctx, slug, opId) => flagStory(ctx, bob, { slug, reason: 'off_topic', note: 'Not a story.', op_id: opId }),
  steps: { plain: READ_THEN_TRANSACTION, withOpId: READ_THEN_TRANSACTION },
});

crashPoints({
  name: 'unflag_story, a counted flag',
  setup: async ({ ctx, tick }) => {
    await establishedReaders(ctx);
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Crash unflag') });
    tick();
    await flagStory(ctx, bob, { slug, reason: 'spam' });
    return slug;
  },
  call: (ctx, slug, opId) => unflagStory(ctx, bob, { slug, op_id: opId }),
  steps: { plain: READ_THEN_TRANSACTION, withOpId: READ_THEN_TRANSACTION },
});
