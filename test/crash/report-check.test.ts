// report_check under a crash at every store step: a first check, and a changed one.
import { publishStory } from '../../src/app/publish-story.ts';
import { reportCheck } from '../../src/app/report-check.ts';
import { caller } from '../helpers/app-fixture.ts';
import { storyTitled } from '../helpers/stories.ts';
import { crashPoints } from './crash-points.ts';

const alice = caller('alice');
const bob = caller('bob');
const READ_THEN_TRANSACTION = ['TransactGetItems', 'TransactWriteItems'];

crashPoints({
  name: 'report_check, a first check',
  setup: async ({ ctx }) => (await publishStory(ctx, alice, { markdown: storyTitled('Crash first check') })).slug,
  call: (ctx, slug, opId) => reportCheck(ctx, bob, { slug, result: 'has_problem', op_id: opId }),
  steps: { plain: READ_THEN_TRANSACTION, withOpId: READ_THEN_TRANSACTION },
});

crashPoints({
  name: 'report_check, a changed result',
  setup: async ({ ctx, tick }) => {
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Crash changed check') });
    tick();
    await reportCheck(ctx, bob, { slug, result: 'has_problem' });
    return slug;
  },
  call: (ctx, slug, opId) => reportCheck(ctx, bob, { slug, result: 'no_problem', op_id: opId }),
  steps: { plain: READ_THEN_TRANSACTION, withOpId: READ_THEN_TRANSACTION },
});
