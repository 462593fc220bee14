// edit_story under a crash at every store step: a correction, which also tells every reproducer
// (an outbox event in the same transaction). Without an op_id, a retry that finds the correction
// applied is a repeat: it tells nobody more, and says so (notified: 0). And an edit with the
// spam-wave check on (design.md#spam-waves), whose band moves commit with the edit or not at all.
import { editStory } from '../../src/app/edit-story.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { reportReproduction } from '../../src/app/report-reproduction.ts';
import { caller } from '../helpers/app-fixture.ts';
import { storyOfItsOwn } from '../helpers/spam-wave.ts';
import { storyTitled } from '../helpers/stories.ts';
import { crashPoints } from './crash-points.ts';

const alice = caller('alice');
const bob = caller('bob');
const READ_THEN_TRANSACTION = ['TransactGetItems', 'TransactWriteItems'];

crashPoints({
  name: 'edit_story, a correction with a reproducer to tell',
  setup: async ({ ctx, tick }) => {
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Crash correction') });
    tick();
    await reportReproduction(ctx, bob, { slug, result: 'worked' });
    return slug;
  },
  call: (ctx, slug, opId) =>
    editStory(ctx, alice, {
      slug,
      markdown: storyTitled('Crash correction', { extra: 'The port is 8788, not 8787.' }),
      kind: 'correction',
      note: 'The port in step 2 was wrong.',
      op_id: opId,
    }),
  steps: { plain: READ_THEN_TRANSACTION, withOpId: READ_THEN_TRANSACTION },
  asRepeat: (answer) => ({ ...answer, notified: 0 }),
});

crashPoints({
  name: 'edit_story, an edit away from its text with the spam-wave check on',
  config: { duplicateWindowHours: 168 },
  setup: async ({ ctx }) => (await publishStory(ctx, alice, { markdown: storyOfItsOwn('Crash bands', 1, 24) })).slug,
  call: (ctx, slug, opId) => editStory(ctx, alice, { slug, markdown: storyOfItsOwn('Crash bands', 2, 24), kind: 'rephrase', op_id: opId }),
  // The text before the edit (BODY) is read first: it says which bands move.
  steps: { plain: ['GetItem', ...READ_THEN_TRANSACTION], withOpId: ['GetItem', ...READ_THEN_TRANSACTION] },
});
