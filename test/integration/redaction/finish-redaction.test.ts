// The steps after a redaction's commit (docs/design.md#redaction-export, src/app/redaction/finish-redaction.ts):
// a run scoped to one story touches no other story's event, and of two runs at once the one
// overtaken mid-strip finds the event retired and counts nothing, so each revision is stripped once.
import { describe, expect, it } from 'vitest';
import type { AppContext } from '../../../src/app/context/app-context.ts';
import { editStory } from '../../../src/app/edit-story.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { finishRedactions, type RedactionRun } from '../../../src/app/redaction/finish-redaction.ts';
import { replaceItem } from '../../../src/store/replace-by-key.ts';
import { writeAtomically } from '../../../src/store/run-write.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { operationName } from '../../helpers/round-trips.ts';
import { updateStoryMeta } from '../../helpers/stored-items.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('finish-redaction');
const alice = caller('alice');
const SECRET = 'sk-live-4b8d2f6a0c1e3a5b7d9f';

/**
 * A story of two revisions whose redaction committed and then crashed before stripping: the event
 * is there, revision 1 still holds its text.
 */
async function crashedRedaction(title: string): Promise<string> {
  const markdown = storyTitled(title, { extra: `I exported LOREBOOK_KEY=${SECRET} first.` });
  const { slug } = await publishStory(app.ctx(), alice, { markdown });
  await editStory(app.ctx(), alice, { slug, markdown: storyTitled(title, { extra: 'I exported the key first.' }), kind: 'rephrase' });
  await updateStoryMeta(app.ctx(), slug, { expression: 'SET redacted_below = :b', values: { ':b': 2 } });
  await writeAtomically(app.ctx().store, [
    replaceItem({
      PK: 'OUTBOX',
      SK: `redaction#${slug}#000002`,
      kind: 'redaction',
      slug,
      below: 2,
      author: alice.account,
      at: '2026-12-01T00:00:00.000Z',
    }),
  ]);
  return slug;
}

const holdsText = async (slug: string) =>
  (await app.allItems())
    .filter((item) => item.PK === `STORY#${slug}` && String(item.SK).startsWith('REV#'))
    .map((item) => 'markdown' in item);
const eventOf = async (slug: string) =>
  (await app.allItems()).find((item) => item.PK === 'OUTBOX' && String(item.SK).startsWith(`redaction#${slug}#`));

/** Runs `competing` after the app's `nth` read of `operation` returned, before it goes on. */
function afterRead(ctx: AppContext, operation: string, nth: number, competing: () => Promise<unknown>): void {
  const stack = ctx.store.client.middlewareStack;
  const name = `lorebookAfterRead${operation}${nth}`;
  let seen = 0;
  stack.add(
    (next, context) => async (args) => {
      const output = await next(args);
      if (operationName(String(context.commandName)) === operation && ++seen === nth) {
        stack.remove(name);
        await competing();
      }
      return output;
    },
    { step: 'initialize', name },
  );
}

describe('a redaction run scoped to one story', () => {
  it("finishes that story's event and leaves another story's event for the next run", async () => {
    const first = await crashedRedaction('Scoped run, first story');
    const second = await crashedRedaction('Scoped run, second story');
    expect(await finishRedactions(app.ctx(), { slug: first })).toEqual({ events: 1, revisions_stripped: 1, images_deleted: 0 });
    expect(await holdsText(first)).toEqual([false, true]);
    expect(await eventOf(first)).toBeUndefined();
    expect(await holdsText(second)).toEqual([true, true]);
    expect(await eventOf(second)).toBeDefined();
    expect(await finishRedactions(app.ctx())).toEqual({ events: 1, revisions_stripped: 1, images_deleted: 0 });
    expect(await holdsText(second)).toEqual([false, true]);
  });
});

describe('two redaction runs at once', () => {
  it('the run overtaken mid-strip finds the event retired and counts nothing; each revision is stripped once', async () => {
    const slug = await crashedRedaction('Two runs strip at once');
    let competing: RedactionRun | undefined;
    // After the overtaken run listed the event and read the revisions to strip: the other run does it all.
    afterRead(app.ctx(), 'Query', 2, async () => {
      competing = await finishRedactions(app.ctx());
    });
    const overtaken = await finishRedactions(app.ctx());
    expect(competing).toEqual({ events: 1, revisions_stripped: 1, images_deleted: 0 });
    expect(overtaken).toEqual({ events: 0, revisions_stripped: 0, images_deleted: 0 });
    expect(await holdsText(slug)).toEqual([false, true]);
    expect(await eventOf(slug)).toBeUndefined();
  });
});

describe('a strip that store trouble stopped', () => {
  it('is thrown, not taken for a competing batch; the event stays and the next run finishes it', async () => {
    const slug = await crashedRedaction('Store trouble while stripping');
    // FAULT INJECTION (a named mock): the strip's transaction is lost on the way, as a dropped connection loses it.
    const stack = app.ctx().store.client.middlewareStack;
    stack.add(
      (next, context) => async (args) => {
        if (operationName(String(context.commandName)) !== 'TransactWriteItems') return next(args);
        stack.remove('lorebookLoseStrip');
        throw Object.assign(new Error('socket hang up (injected)'), { name: 'TimeoutError', code: 'ECONNRESET', $metadata: {} });
      },
      { step: 'initialize', name: 'lorebookLoseStrip' },
    );
    await expect(finishRedactions(app.ctx(), { slug })).rejects.toMatchObject({ code: 'store_unavailable' });
    expect(await holdsText(slug)).toEqual([true, true]);
    expect(await eventOf(slug)).toBeDefined();
    expect(await finishRedactions(app.ctx(), { slug })).toEqual({ events: 1, revisions_stripped: 1, images_deleted: 0 });
  });
});

/**
 * FAULT INJECTION (a named mock): the next `times` strip transactions of `slug` are refused as a
 * competing transaction refuses them (TransactionConflict), before they reach DynamoDB Local:
 * DynamoDB Local cannot be made to hold a competing transaction open on cue.
 */
function refuseStrips(ctx: AppContext, slug: string, times: number): void {
  const stack = ctx.store.client.middlewareStack;
  const name = `lorebookRefuseStrips${times}`;
  let left = times;
  stack.add(
    (next, context) => async (args) => {
      if (operationName(String(context.commandName)) !== 'TransactWriteItems' || !JSON.stringify(args.input).includes(slug))
        return next(args);
      left -= 1;
      if (left === 0) stack.remove(name);
      throw Object.assign(new Error('Transaction is ongoing for the item (injected)'), { name: 'TransactionConflictException' });
    },
    { step: 'initialize', name },
  );
}

describe('a strip batch refused by competing batches', () => {
  it('is read and tried again: after 4 refusals the fifth try strips and the event is retired', async () => {
    const slug = await crashedRedaction('Strip refused four times');
    refuseStrips(app.ctx(), slug, 4);
    expect(await finishRedactions(app.ctx(), { slug })).toEqual({ events: 1, revisions_stripped: 1, images_deleted: 0 });
    expect(await holdsText(slug)).toEqual([false, true]);
    expect(await eventOf(slug)).toBeUndefined();
  });

  it('after 5 refusals the run gives up with the conflict; the event stays and the next run finishes it', async () => {
    const slug = await crashedRedaction('Strip refused five times');
    refuseStrips(app.ctx(), slug, 5);
    await expect(finishRedactions(app.ctx(), { slug })).rejects.toMatchObject({ name: 'WriteCancelled' });
    expect(await holdsText(slug)).toEqual([true, true]);
    expect(await eventOf(slug)).toBeDefined();
    expect(await finishRedactions(app.ctx(), { slug })).toEqual({ events: 1, revisions_stripped: 1, images_deleted: 0 });
  });
});
