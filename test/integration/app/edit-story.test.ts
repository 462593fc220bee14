import { describe, expect, it } from 'vitest';
import { editStory } from '../../../src/app/edit-story.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { reportReproduction } from '../../../src/app/report-reproduction.ts';
import { setVisibility } from '../../../src/app/set-visibility.ts';
import type { LorebookError } from '../../../src/domain/errors.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { afterNextRead } from '../../helpers/interleave.ts';
import { refusal } from '../../helpers/refusal.ts';
import { updateStoryMeta } from '../../helpers/stored-items.ts';
import { storyTitled } from '../../helpers/stories.ts';
import { storySetup } from '../../helpers/story-setup.ts';

const app = useAppFixture('edit-story');
const alice = caller('alice');
const bob = caller('bob');
const { published } = storySetup(app, alice);

const storyItems = async (slug: string) => (await app.state()).filter((item) => item.PK === `STORY#${slug}` || item.PK === 'OUTBOX');

describe('edit_story is safe to deliver twice', () => {
  it('a second identical edit answers the same and writes nothing', async () => {
    const slug = await published('Edited twice');
    const edit = { slug, markdown: storyTitled('Edited twice', { extra: 'Clearer.' }), kind: 'rephrase' as const };
    const first = await editStory(app.ctx(), alice, edit);
    const before = await app.state();
    app.counter().reset();
    const second = await editStory(app.ctx(), alice, edit);
    expect(app.counter().writes()).toBe(0);
    expect(second).toEqual(first);
    expect(first.revision).toBe(2);
    expect(await app.state()).toEqual(before);
  });

  it('16 parallel identical edits make exactly one new revision and all answer the same', async () => {
    const slug = await published('Edited sixteen times');
    const edit = { slug, markdown: storyTitled('Edited sixteen times', { extra: 'Added.' }), kind: 'addition' as const };
    const answers = await Promise.all(Array.from({ length: 16 }, () => editStory(app.ctx(), alice, edit)));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect((await storyItems(slug)).map((item) => item.SK)).toEqual(['BODY', 'META', 'REV#000001', 'REV#000002']);
  });

  it('an op_id replay after a different edit returns the first answer and changes nothing', async () => {
    const slug = await published('Edit replayed');
    const edit = { slug, markdown: storyTitled('Edit replayed', { extra: 'One.' }), kind: 'rephrase' as const, op_id: 'op-edit-1' };
    const first = await editStory(app.ctx(), alice, edit);
    await editStory(app.ctx(), alice, { slug, markdown: storyTitled('Edit replayed', { extra: 'Two.' }), kind: 'rephrase' });
    const before = await app.state();
    app.counter().reset();
    const replay = await editStory(app.ctx(), alice, edit);
    console.log('edit replay round trips', app.counter().snapshot());
    expect(replay).toEqual({ ...first, replayed: true });
    expect(app.counter().reads()).toBe(1);
    expect(app.counter().writes()).toBe(0);
    expect(await app.state()).toEqual(before);
  });

  it('the same op_id with a different edit is idempotency_key_reused and writes nothing', async () => {
    const slug = await published('Edit op reused');
    await editStory(app.ctx(), alice, {
      slug,
      markdown: storyTitled('Edit op reused', { extra: 'A.' }),
      kind: 'rephrase',
      op_id: 'op-reused',
    });
    const before = await app.allItems();
    const error = await refusal(
      editStory(app.ctx(), alice, { slug, markdown: storyTitled('Edit op reused', { extra: 'B.' }), kind: 'rephrase', op_id: 'op-reused' }),
    );
    expect(error.code).toBe('idempotency_key_reused');
    expect(await app.allItems()).toEqual(before);
  });

  it('an identical edit with an op_id records the op and changes no story item', async () => {
    const slug = await published('Identical with op');
    const before = await app.state();
    const answer = await editStory(app.ctx(), alice, {
      slug,
      markdown: storyTitled('Identical with op'),
      kind: 'rephrase',
      op_id: 'op-noop',
    });
    expect(answer.revision).toBe(1);
    expect(await app.state()).toEqual(before);
    expect((await app.allItems()).some((item) => item.PK === 'OP#acct-alice' && item.SK === 'op-noop')).toBe(true);
  });
});

describe('edit_story never re-applies on top of a newer revision', () => {
  it('two different edits from the same base: whichever lands second gets revision_conflict, in both orders', async () => {
    for (const order of [
      ['A', 'B'],
      ['B', 'A'],
    ] as const) {
      const title = `Two edits ${order.join('')}`;
      const slug = await published(title);
      const edits = {
        A: { slug, markdown: storyTitled(title, { extra: 'Edit A.' }), kind: 'rephrase' as const, base_revision: 1 },
        B: { slug, markdown: storyTitled(title, { extra: 'Edit B.' }), kind: 'rephrase' as const, base_revision: 1 },
      };
      const winner = await editStory(app.ctx(), alice, edits[order[0]]);
      const error = await refusal(editStory(app.ctx(), alice, edits[order[1]]));
      expect(error.code).toBe('revision_conflict');
      expect(error.details).toMatchObject({ current_revision: 2, base_revision: 1 });
      expect(winner.revision).toBe(2);
      expect((await storyItems(slug)).map((item) => item.SK)).toEqual(['BODY', 'META', 'REV#000001', 'REV#000002']);
    }
  });

  it('two different edits from the same base in parallel: exactly one lands, the other is revision_conflict', async () => {
    const title = 'Parallel different edits';
    const slug = await published(title);
    const results = await Promise.allSettled(
      // The base is named: without it each edit takes the revision it first reads, and one whose
      // parse finishes after the other's commit (parsing runs on a worker) reads revision 2.
      ['X', 'Y'].map((tag) =>
        editStory(app.ctx(), alice, { slug, markdown: storyTitled(title, { extra: `Edit ${tag}.` }), kind: 'rephrase', base_revision: 1 }),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect((rejected.reason as LorebookError).code).toBe('revision_conflict');
  });

  it("a hide landing between an edit's read and its write is kept: the story stays out of the feed", async () => {
    const title = 'Hidden while being edited';
    const slug = await published(title, { visibility: 'private' });
    afterNextRead(app.ctx(), () => setVisibility(app.ctx(), alice, { slug, hidden: true }));
    const answer = await editStory(app.ctx(), alice, { slug, markdown: storyTitled(title, { extra: 'Now public.' }), kind: 'addition' });
    expect(answer).toMatchObject({ revision: 2, visibility: 'public', hidden: true });
    const meta = (await storyItems(slug)).find((item) => item.SK === 'META');
    expect(meta).toMatchObject({ hidden: true, visibility: 'public' });
    expect(meta).not.toHaveProperty('GSI1PK');
    expect(meta).not.toHaveProperty('GSI3PK');
  });

  it('an identical edit with an op_id does not record "unchanged" when another edit lands before its op commits', async () => {
    const title = 'No-op raced by an edit';
    const slug = await published(title);
    afterNextRead(app.ctx(), () =>
      editStory(app.ctx(), alice, { slug, markdown: storyTitled(title, { extra: 'Raced in.' }), kind: 'rephrase' }),
    );
    const error = await refusal(
      editStory(app.ctx(), alice, { slug, markdown: storyTitled(title), kind: 'rephrase', op_id: 'op-noop-raced' }),
    );
    expect(error.code).toBe('revision_conflict');
    expect((await app.allItems()).some((item) => item.PK === 'OP#acct-alice' && item.SK === 'op-noop-raced')).toBe(false);
  });

  it('an edit that arrives after the same content landed converges instead of conflicting', async () => {
    const title = 'Converging edit';
    const slug = await published(title);
    const markdown = storyTitled(title, { extra: 'Same change.' });
    await editStory(app.ctx(), alice, { slug, markdown, kind: 'rephrase', base_revision: 1 });
    const late = await editStory(app.ctx(), alice, { slug, markdown, kind: 'rephrase', base_revision: 1 });
    expect(late.revision).toBe(2);
  });
});

describe('edit_story refuses bad input and writes nothing', () => {
  it('an edit by someone other than the author is forbidden on a public story', async () => {
    const slug = await published('Not yours to edit');
    const before = await app.allItems();
    const error = await refusal(
      editStory(app.ctx(), bob, { slug, markdown: storyTitled('Not yours to edit', { extra: 'X.' }), kind: 'rephrase' }),
    );
    expect(error.code).toBe('forbidden');
    expect(await app.allItems()).toEqual(before);
  });

  it("an edit of someone else's private story is not_found", async () => {
    const slug = await published('Private and not yours', { visibility: 'private' });
    const before = await app.allItems();
    const error = await refusal(
      editStory(app.ctx(), bob, {
        slug,
        markdown: storyTitled('Private and not yours', { visibility: 'private', extra: 'X.' }),
        kind: 'rephrase',
      }),
    );
    expect(error.code).toBe('not_found');
    expect(await app.allItems()).toEqual(before);
  });

  it.each([
    ['a correction without a note', { kind: 'correction' }, 'validation_failed'],
    ['a correction whose note is only white space', { kind: 'correction', note: '   ' }, 'validation_failed'],
    ['an unknown kind', { kind: 'rewrite' }, 'validation_failed'],
    ['a changed date', { markdownDate: '2026-10-15' }, 'validation_failed'],
    ['markdown over 64 KiB', { bigMarkdown: true }, 'payload_too_large'],
  ])('%s', async (name, variant, code) => {
    const title = `Bad edit ${name}`;
    const slug = await published(title);
    let markdown = storyTitled(title, { extra: 'Changed.' });
    if ('markdownDate' in variant) markdown = markdown.replace('date: 2026-10-14', `date: ${variant.markdownDate}`);
    if ('bigMarkdown' in variant) markdown += 'x'.repeat(70 * 1024);
    const before = await app.allItems();
    const error = await refusal(
      editStory(app.ctx(), alice, {
        slug,
        markdown,
        kind: 'kind' in variant ? variant.kind : 'rephrase',
        ...('note' in variant ? { note: variant.note } : {}),
      }),
    );
    expect(error.code).toBe(code);
    expect(await app.allItems()).toEqual(before);
  });
});

describe('edit_story keeps the feed, the announce queue and the notifications in step with the content', () => {
  const { storyMeta } = storySetup(app, alice);
  const feedAndQueue = (meta: Record<string, unknown>) => ({
    feed: meta.GSI1PK !== undefined,
    queued: meta.GSI3PK !== undefined,
  });

  it('making a public story private takes it out of the feed and off the announce queue', async () => {
    const title = 'Public then private';
    const slug = await published(title);
    expect(feedAndQueue(await storyMeta(slug))).toEqual({ feed: true, queued: true });
    await editStory(app.ctx(), alice, { slug, markdown: storyTitled(title, { visibility: 'private' }), kind: 'rephrase' });
    expect(feedAndQueue(await storyMeta(slug))).toEqual({ feed: false, queued: false });
  });

  it('making a private story public lists it, adds its feed month, and owes it an announcement', async () => {
    const title = 'Private then public';
    const slug = await published(title, { visibility: 'private' });
    expect(feedAndQueue(await storyMeta(slug))).toEqual({ feed: false, queued: false });
    await editStory(app.ctx(), alice, { slug, markdown: storyTitled(title, { extra: 'Now public.' }), kind: 'addition' });
    const meta = await storyMeta(slug);
    expect(feedAndQueue(meta)).toEqual({ feed: true, queued: true });
    const months = (await app.state()).find((item) => item.PK === 'FEED' && item.SK === 'MONTHS');
    expect(months?.months).toContain(String(meta.published_at).slice(0, 7));
  });

  it('a story already announced keeps its post when it becomes public once more; it stays queued only for its document of the new revision (design.md#standard-site)', async () => {
    const title = 'Announced, private, public';
    const slug = await published(title);
    const uri = 'at://did:plc:x/app.bsky.feed.post/3abc';
    await updateStoryMeta(app.ctx(), slug, {
      expression: 'SET bsky_uri = :uri, doc_revision = :one REMOVE GSI3PK, GSI3SK',
      values: { ':uri': uri, ':one': 1 },
    });
    await editStory(app.ctx(), alice, { slug, markdown: storyTitled(title, { visibility: 'private' }), kind: 'rephrase' });
    await editStory(app.ctx(), alice, { slug, markdown: storyTitled(title), kind: 'rephrase' });
    const meta = await storyMeta(slug);
    expect(feedAndQueue(meta)).toEqual({ feed: true, queued: true });
    expect(meta).toMatchObject({ bsky_uri: uri, revision: 3, doc_revision: 1 });
  });

  it('an edit of a listed, posted story queues it due now for its document; one already queued keeps its place; one never posted is not queued for it', async () => {
    const title = 'Edited after its post';
    const slug = await published(title);
    await updateStoryMeta(app.ctx(), slug, {
      expression: 'SET bsky_uri = :uri, doc_revision = :one REMOVE GSI3PK, GSI3SK',
      values: { ':uri': 'at://did:plc:x/app.bsky.feed.post/3edit', ':one': 1 },
    });
    await editStory(app.ctx(), alice, { slug, markdown: storyTitled(title, { extra: 'Edited.' }), kind: 'rephrase' });
    const edited = await storyMeta(slug);
    expect(edited).toMatchObject({ GSI3PK: 'ANNOUNCE', GSI3SK: `${String(edited.updated_at)}#${slug}` });

    // Already queued (a retry waiting for its time): the entry keeps its place.
    await updateStoryMeta(app.ctx(), slug, { expression: 'SET GSI3SK = :later', values: { ':later': `2099-01-01T00:00:00.000Z#${slug}` } });
    await editStory(app.ctx(), alice, { slug, markdown: storyTitled(title, { extra: 'Edited again.' }), kind: 'rephrase' });
    expect(await storyMeta(slug)).toMatchObject({ GSI3PK: 'ANNOUNCE', GSI3SK: `2099-01-01T00:00:00.000Z#${slug}` });

    // Never reached Bluesky (a failed announcement, off the queue): an edit does not retry it.
    const failed = await published('Failed then edited');
    await updateStoryMeta(app.ctx(), failed, { expression: 'SET last_error = :e REMOVE GSI3PK, GSI3SK', values: { ':e': 'refused' } });
    await editStory(app.ctx(), alice, {
      slug: failed,
      markdown: storyTitled('Failed then edited', { extra: 'Edited.' }),
      kind: 'rephrase',
    });
    expect(feedAndQueue(await storyMeta(failed))).toEqual({ feed: true, queued: false });
  });

  it('a republish that drops an optional field removes it instead of keeping the old value', async () => {
    const title = 'Agent field dropped';
    const withAgent = storyTitled(title).replace('status: n/a\n', 'status: n/a\nagent: claude-code\n');
    const slug = (await publishStory(app.ctx(), alice, { markdown: withAgent })).slug;
    expect(await storyMeta(slug)).toHaveProperty('agent', 'claude-code');
    await editStory(app.ctx(), alice, { slug, markdown: storyTitled(title), kind: 'rephrase' });
    expect(await storyMeta(slug)).not.toHaveProperty('agent');
  });

  it('a correction tells exactly the reproducers; a rephrase tells nobody', async () => {
    const title = 'Corrected for its reproducers';
    const slug = await published(title);
    await reportReproduction(app.ctx(), bob, { slug, result: 'worked' });
    await editStory(app.ctx(), alice, { slug, markdown: storyTitled(title, { extra: 'Reworded.' }), kind: 'rephrase' });
    const outbox = async () => (await app.state()).filter((item) => item.PK === 'OUTBOX' && String(item.SK).includes(slug));
    expect(await outbox()).toEqual([]);
    await editStory(app.ctx(), alice, {
      slug,
      markdown: storyTitled(title, { extra: 'Fixed step 2.' }),
      kind: 'correction',
      note: 'Step 2 was wrong.',
    });
    const events = await outbox();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ kind: 'correction', revision: 3, note: 'Step 2 was wrong.', recipients: [bob.account] });
  });

  it('a correction of a story nobody reproduced records no event', async () => {
    const title = 'Corrected before anyone tried';
    const slug = await published(title);
    await editStory(app.ctx(), alice, { slug, markdown: storyTitled(title, { extra: 'Fixed.' }), kind: 'correction', note: 'Fixed.' });
    expect((await app.state()).filter((item) => item.PK === 'OUTBOX' && String(item.SK).includes(slug))).toEqual([]);
  });
});

describe('edit_story answers how many reproducers it tells (notified)', () => {
  const carol = caller('carol');
  const reproduced = async (title: string): Promise<string> => {
    const slug = await published(title);
    await reportReproduction(app.ctx(), bob, { slug, result: 'worked' });
    await reportReproduction(app.ctx(), carol, { slug, result: 'failed' });
    return slug;
  };
  const correction = (slug: string, title: string, extra = 'Fixed step 2.') => ({
    slug,
    markdown: storyTitled(title, { extra }),
    kind: 'correction' as const,
    note: 'Step 2 was wrong.',
  });
  const events = async (slug: string) => (await app.state()).filter((item) => item.PK === 'OUTBOX' && item.slug === slug);

  it('a correction answers the number of reproducers; a rephrase, an addition and a correction nobody reproduced answer 0', async () => {
    const title = 'Counted for its reproducers';
    const slug = await reproduced(title);
    expect(
      (await editStory(app.ctx(), alice, { slug, markdown: storyTitled(title, { extra: 'Reworded.' }), kind: 'rephrase' })).notified,
    ).toBe(0);
    expect((await editStory(app.ctx(), alice, { slug, markdown: storyTitled(title, { extra: 'More.' }), kind: 'addition' })).notified).toBe(
      0,
    );
    expect(await editStory(app.ctx(), alice, correction(slug, title))).toMatchObject({ revision: 4, notified: 2 });
    const lonely = await published('Corrected with nobody to tell');
    expect((await editStory(app.ctx(), alice, correction(lonely, 'Corrected with nobody to tell'))).notified).toBe(0);
  });

  it('the same correction twice in a row: the first answers notified 2, the repeat tells nobody, answers 0 and writes nothing', async () => {
    const title = 'Correction sent twice';
    const slug = await reproduced(title);
    const first = await editStory(app.ctx(), alice, correction(slug, title));
    const before = await app.state();
    const second = await editStory(app.ctx(), alice, correction(slug, title));
    expect(first.notified).toBe(2);
    expect(second).toEqual({ ...first, notified: 0 });
    expect(await app.state()).toEqual(before);
    expect(await events(slug)).toHaveLength(1);
  });

  it('16 parallel identical corrections record one event: one answer says notified 2, the other 15 say 0', async () => {
    const title = 'Correction sent sixteen times';
    const slug = await reproduced(title);
    const answers = await Promise.all(Array.from({ length: 16 }, () => editStory(app.ctx(), alice, correction(slug, title))));
    expect(answers.map((answer) => answer.notified).sort()).toEqual([...Array.from({ length: 15 }, () => 0), 2]);
    for (const answer of answers) expect({ ...answer, notified: 0 }).toEqual({ ...answers[0], notified: 0 });
    expect(await events(slug)).toHaveLength(1);
    expect((await storyItems(slug)).filter((item) => String(item.SK).startsWith('REV#'))).toHaveLength(2);
  });

  it('an op_id replay of a correction after a different edit answers the first answer verbatim, notified 2 included', async () => {
    const title = 'Correction replayed';
    const slug = await reproduced(title);
    const first = await editStory(app.ctx(), alice, { ...correction(slug, title), op_id: 'op-correction-1' });
    await editStory(app.ctx(), alice, { slug, markdown: storyTitled(title, { extra: 'Reworded later.' }), kind: 'rephrase' });
    const before = await app.allItems();
    const replay = await editStory(app.ctx(), alice, { ...correction(slug, title), op_id: 'op-correction-1' });
    expect(first.notified).toBe(2);
    expect(replay).toEqual({ ...first, replayed: true });
    expect(await app.allItems()).toEqual(before);
  });
});
