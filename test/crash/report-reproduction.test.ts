// report_reproduction under a crash at every store step: a first report and a changed one.

import { publishStory } from '../../src/app/publish-story.ts';
import { reportReproduction } from '../../src/app/report-reproduction.ts';
import { caller } from '../helpers/app-fixture.ts';
import { storyTitled } from '../helpers/stories.ts';
import { crashPoints } from './crash-points.ts';

const alice = caller('alice');
const bob = caller('bob');
const ONE_ROUND_TRIP = { plain: ['TransactGetItems', 'TransactWriteItems'], withOpId: ['TransactGetItems', 'TransactWriteItems'] };

crashPoints({
  name: 'report_reproduction, a first report',
  setup: async ({ ctx }) => (await publishStory(ctx, alice, { markdown: storyTitled('Crash first report') })).slug,
  call: (ctx, slug, opId) =>
    reportReproduction(ctx, bob, { slug, result: 'worked', note: 'Ran it on Node 22.', duration_min: 12, op_id: opId }),
  steps: ONE_ROUND_TRIP,
});

crashPoints({
  name: 'report_reproduction, a changed result',
  setup: async ({ ctx, tick }) => {
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Crash changed report') });
    tick();
    await reportReproduction(ctx, bob, { slug, result: 'worked' });
    return slug;
  },
  call: (ctx, slug, opId) => reportReproduction(ctx, bob, { slug, result: 'failed', note: 'It broke on the second run.', op_id: opId }),
  steps: ONE_ROUND_TRIP,
});
