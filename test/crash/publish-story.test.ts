// publish_story under a crash at every store step: a first publish, and a republish of changed content.
import { publishStory } from '../../src/app/publish-story.ts';
import { caller } from '../helpers/app-fixture.ts';
import { storyTitled } from '../helpers/stories.ts';
import { crashPoints } from './crash-points.ts';

const alice = caller('alice');
const READ_THEN_TRANSACTION = ['TransactGetItems', 'TransactWriteItems'];

crashPoints({
  name: 'publish_story, a first publish',
  setup: async () => undefined,
  call: (ctx, _given, opId) => publishStory(ctx, alice, { markdown: storyTitled('Crash first publish'), op_id: opId }),
  steps: { plain: READ_THEN_TRANSACTION, withOpId: READ_THEN_TRANSACTION },
});

crashPoints({
  name: 'publish_story, a republish with changed content',
  setup: async ({ ctx }) => {
    await publishStory(ctx, alice, { markdown: storyTitled('Crash republish') });
  },
  call: (ctx, _given, opId) =>
    publishStory(ctx, alice, { markdown: storyTitled('Crash republish', { extra: 'Second take.' }), op_id: opId }),
  steps: { plain: READ_THEN_TRANSACTION, withOpId: READ_THEN_TRANSACTION },
});
