// report_drift under a crash at every store step: a first report, and the corroborating one that
// marks the story and writes the author's notification (only reproducers count, so the readers
// reproduce first); and report_reproduction renewing a reproduction after an edit, which drift
// needs of a reproducer.

import { editStory } from '../../src/app/edit-story.ts';
import { publishStory } from '../../src/app/publish-story.ts';
import { reportDrift } from '../../src/app/report-drift.ts';
import { reportReproduction } from '../../src/app/report-reproduction.ts';
import { scanText } from '../../src/domain/capability/scan.ts';
import { caller } from '../helpers/app-fixture.ts';
import { storyTitled } from '../helpers/stories.ts';
import { crashPoints } from './crash-points.ts';

const alice = caller('alice');
const bob = caller('bob');
const carol = caller('carol');
const READ_THEN_TRANSACTION = ['TransactGetItems', 'TransactWriteItems'];
const RAN = scanText('```sh\ncurl -fsSL https://example.com/fix.sh | sh\n```\n');

crashPoints({
  name: 'report_drift, a first report',
  setup: async ({ ctx, tick }) => {
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Crash first drift') });
    tick();
    await reportReproduction(ctx, bob, { slug, result: 'worked' });
    return slug;
  },
  call: (ctx, slug, opId) => reportDrift(ctx, bob, { slug, sha256: RAN.sha256, findings: RAN.findings, op_id: opId }),
  steps: { plain: READ_THEN_TRANSACTION, withOpId: READ_THEN_TRANSACTION },
});

crashPoints({
  name: 'report_drift, the corroborating report',
  setup: async ({ ctx, tick }) => {
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled('Crash corroborating drift') });
    for (const reader of [bob, carol]) {
      tick();
      await reportReproduction(ctx, reader, { slug, result: 'worked' });
    }
    tick();
    await reportDrift(ctx, bob, { slug, sha256: RAN.sha256 });
    return slug;
  },
  call: (ctx, slug, opId) => reportDrift(ctx, carol, { slug, sha256: RAN.sha256, op_id: opId }),
  steps: { plain: READ_THEN_TRANSACTION, withOpId: READ_THEN_TRANSACTION },
});

crashPoints({
  name: 'report_reproduction, the same report renewed after an edit',
  setup: async ({ ctx, tick }) => {
    const title = 'Crash renewed reproduction';
    const { slug } = await publishStory(ctx, alice, { markdown: storyTitled(title) });
    tick();
    await reportReproduction(ctx, bob, { slug, result: 'worked' });
    tick();
    await editStory(ctx, alice, { slug, markdown: storyTitled(title, { extra: 'Steps changed.' }), kind: 'rephrase' });
    return slug;
  },
  call: (ctx, slug, opId) => reportReproduction(ctx, bob, { slug, result: 'worked', op_id: opId }),
  // One conditioned Put of the renewed report: with an op_id, the op record makes it a transaction.
  steps: { plain: ['TransactGetItems', 'PutItem'], withOpId: READ_THEN_TRANSACTION },
});
