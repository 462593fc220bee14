// redact_story under a crash at every store step — the snapshot, the redaction's transaction, the
// outbox read, each strip batch, the event's re-read and its retirement — then the retry: the end
// state is the state of one clean redaction (every earlier revision stripped, the event retired).
import { editStory } from '../../src/app/edit-story.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { redactStory } from '../../src/app/redact-story.ts';
import { caller } from '../helpers/app-fixture.ts';
import { storyTitled } from '../helpers/stories.ts';
import { crashPoints } from './crash-points.ts';

const alice = caller('alice');
const title = 'Crash redact';

crashPoints({
  name: 'redact_story, a new text over two leaked revisions',
  setup: async ({ ctx, tick }) => {
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled(title, { extra: 'key=leaked1' }) });
    tick();
    await editStory(ctx, alice, { slug, markdown: storyTitled(title, { extra: 'key=leaked2' }), kind: 'rephrase' });
    return slug;
  },
  call: (ctx, slug, opId) =>
    redactStory(ctx, alice, { slug, base_revision: 2, markdown: storyTitled(title, { extra: 'key=gone' }), op_id: opId }),
  steps: {
    plain: ['TransactGetItems', 'TransactWriteItems', 'Query', 'Query', 'TransactWriteItems', 'Query', 'GetItem', 'DeleteItem'],
    withOpId: ['TransactGetItems', 'TransactWriteItems', 'Query', 'Query', 'TransactWriteItems', 'Query', 'GetItem', 'DeleteItem'],
  },
});

crashPoints({
  name: 'redact_story, the same text as now (strip only)',
  setup: async ({ ctx, tick }) => {
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled(title, { extra: 'key=leaked1' }) });
    tick();
    await editStory(ctx, alice, { slug, markdown: storyTitled(title, { extra: 'key=gone' }), kind: 'rephrase' });
    return slug;
  },
  call: (ctx, slug, opId) =>
    redactStory(ctx, alice, { slug, base_revision: 2, markdown: storyTitled(title, { extra: 'key=gone' }), op_id: opId }),
  steps: {
    plain: ['TransactGetItems', 'TransactWriteItems', 'Query', 'Query', 'TransactWriteItems', 'Query', 'GetItem', 'DeleteItem'],
    withOpId: ['TransactGetItems', 'TransactWriteItems', 'Query', 'Query', 'TransactWriteItems', 'Query', 'GetItem', 'DeleteItem'],
  },
});
