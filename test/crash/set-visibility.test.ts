// set_visibility under a crash at every store step: hiding, and unhiding (back in the feed and on
// the announce queue).
import { publishStory } from '../../src/app/publish-story.ts';
import { setVisibility } from '../../src/app/set-visibility.ts';
import { caller } from '../helpers/app-fixture.ts';
import { storyTitled } from '../helpers/stories.ts';
import { crashPoints } from './crash-points.ts';

const alice = caller('alice');

crashPoints({
  name: 'set_visibility, hiding a story',
  setup: async ({ ctx }) => (await publishStory(ctx, alice, { markdown: storyTitled('Crash hide') })).slug,
  call: (ctx, slug, opId) => setVisibility(ctx, alice, { slug, hidden: true, op_id: opId }),
  steps: { plain: ['TransactGetItems', 'UpdateItem'], withOpId: ['TransactGetItems', 'TransactWriteItems'] },
});

crashPoints({
  name: 'set_visibility, unhiding a story',
  setup: async ({ ctx, tick }) => {
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Crash unhide') });
    tick();
    await setVisibility(ctx, alice, { slug, hidden: true });
    return slug;
  },
  call: (ctx, slug, opId) => setVisibility(ctx, alice, { slug, hidden: false, op_id: opId }),
  steps: { plain: ['TransactGetItems', 'UpdateItem'], withOpId: ['TransactGetItems', 'TransactWriteItems'] },
});
