// Different writes to one story, sent in both orders, end in the same state: no lost update,
// no double count (docs/design.md#write-rules). Timestamps differ between runs, so the comparison is of what the
// writes decide: revision, content, counts, reproducers, reports.
import { describe, expect, it } from 'vitest';
import { editStory } from '../../../src/app/edit-story.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { reportCheck } from '../../../src/app/report-check.ts';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import { type AppFixture, caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { afterNextRead } from '../../helpers/interleave.ts';
import { storyTitled } from '../../helpers/stories.ts';

// One table per arrival order, so both runs publish the very same story under the same slug.
const tables = [useAppFixture('arrival-order-xy'), useAppFixture('arrival-order-yx')] as const;
const alice = caller('alice');
const bob = caller('bob');
const carol = caller('carol');

type Write = (app: AppFixture, slug: string, title: string) => Promise<unknown>;

const edit: Write = (app, slug, title) =>
  editStory(app.ctx(), alice, { slug, markdown: storyTitled(title, { extra: 'Edited.' }), kind: 'addition' });
const bobReports: Write = (app, slug) => reportReproduction(app.ctx(), bob, { slug, result: 'worked', note: 'fine' });
const carolReports: Write = (app, slug) => reportReproduction(app.ctx(), carol, { slug, result: 'failed' });
const bobChecks: Write = (app, slug) => reportCheck(app.ctx(), bob, { slug, result: 'has_problem' });

/** What the writes decided, without the times they happened at. */
async function decided(app: AppFixture, slug: string): Promise<Record<string, unknown>[]> {
  const items = (await app.state()).filter((item) => item.PK === `STORY#${slug}`);
  return items.map(({ at: _at, updated_at: _u, published_at: _p, GSI1SK: _g1, GSI2SK: _g2, GSI3SK: _g3, ...rest }) => rest);
}

async function bothOrders(name: string, first: Write, second: Write, interleaved: boolean): Promise<void> {
  const outcomes: Record<string, unknown>[][] = [];
  const orders = [
    [first, second],
    [second, first],
  ] as const;
  for (const [index, [x, y]] of orders.entries()) {
    const app = tables[index] as AppFixture;
    const title = name;
    const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled(title) });
    if (interleaved) {
      // y lands between x's read and x's write: x's conditions must make it re-plan.
      afterNextRead(app.ctx(), () => y(app, slug, title));
      await x(app, slug, title);
    } else {
      await x(app, slug, title);
      await y(app, slug, title);
    }
    outcomes.push(await decided(app, slug));
  }
  expect(outcomes[1]).toEqual(outcomes[0]);
  expect(outcomes[0]?.length).toBeGreaterThan(3);
}

describe('writes to one story end in the same state in either order', () => {
  for (const interleaved of [false, true]) {
    const how = interleaved ? 'racing between read and write' : 'one after the other';
    it(`a reproduction report and an edit, ${how}`, async () => {
      await bothOrders(`Report and edit ${how}`, bobReports, edit, interleaved);
    });

    it(`two reproducers with different results, ${how}`, async () => {
      await bothOrders(`Two reproducers ${how}`, bobReports, carolReports, interleaved);
    });

    it(`a check and a reproduction report by one account, ${how}`, async () => {
      await bothOrders(`Check and report ${how}`, bobChecks, bobReports, interleaved);
    });
  }
});
