// withdraw_reproduction under a crash at every store step.
import { publishStory } from '../../src/app/publish-story.ts';
import { reportReproduction } from '../../src/app/report-reproduction.ts';
import { withdrawReproduction } from '../../src/app/withdraw-reproduction.ts';
import { caller } from '../helpers/app-fixture.ts';
import { storyTitled } from '../helpers/stories.ts';
import { crashPoints } from './crash-points.ts';

const alice = caller('alice');
const bob = caller('bob');
const READ_THEN_TRANSACTION = ['TransactGetItems', 'TransactWriteItems'];

crashPoints({
  name: 'withdraw_reproduction, a counted report',
  setup: async ({ ctx, tick }) => {
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Crash withdraw') });
    tick();
    await reportReproduction(ctx, bob, { slug, result: 'partial' });
    return slug;
  },
  call: (ctx, slug, opId) => withdrawReproduction(ctx, bob, { slug, op_id: opId }),
  steps: { plain: READ_THEN_TRANSACTION, withOpId: READ_THEN_TRANSACTION },
});
