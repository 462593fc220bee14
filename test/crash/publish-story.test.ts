// publish_story under a crash at every store step: a first publish, and a republish of changed content.
import { publishStory } from '../../src/app/publish-story.ts';
import { isLorebookError } from '../../src/domain/errors.ts';
import { caller } from '../helpers/app-fixture.ts';
import { storyTitled } from '../helpers/stories.ts';
import { crashPoints } from './crash-points.ts';

const alice = caller('alice');
const READ_THEN_TRANSACTION = ['TransactGetItems', 'TransactWriteItems'];
/** A refused near-duplicate: the snapshot read, then its spam-wave day record alone. */
const READ_THEN_PUT = ['TransactGetItems', 'PutItem'];

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

/** The spam-wave check on (design.md#spam-waves), as the harness otherwise turns it off. */
const SPAM_WAVE_CHECK = { duplicateWindowHours: 7 * 24 };
const bob = caller('bob');

crashPoints({
  name: 'publish_story, a first publish claiming its near-duplicate bands',
  config: SPAM_WAVE_CHECK,
  setup: async () => undefined,
  call: (ctx, _given, opId) => publishStory(ctx, alice, { markdown: storyTitled('Crash publish claims bands'), op_id: opId }),
  steps: { plain: READ_THEN_TRANSACTION, withOpId: READ_THEN_TRANSACTION },
});

crashPoints({
  name: "publish_story, a near-duplicate of another account's story refused with its spam-wave day record",
  config: SPAM_WAVE_CHECK,
  setup: async ({ ctx, tick }) => {
    await publishStory(ctx, alice, { markdown: storyTitled('Crash spam wave original') });
    tick();
  },
  // The refusal is the answer under test: a retry of a refused copy is refused again, naming the
  // same original, with one day record. A refusal writes no op record (design.md#spam-waves).
  writesNoOpRecord: true,
  call: async (ctx, _given, opId) => {
    try {
      return await publishStory(ctx, bob, { markdown: storyTitled('Crash spam wave copy'), op_id: opId });
    } catch (error) {
      if (!isLorebookError(error) || error.code !== 'duplicate_content') throw error;
      return { refused: error.code, details: error.details };
    }
  },
  steps: { plain: READ_THEN_PUT, withOpId: READ_THEN_PUT },
});
