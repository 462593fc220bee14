import { describe, expect, it } from 'vitest';
import { editStory } from '../../../src/app/edit-story.ts';
import { storeImage } from '../../../src/app/images/upload-image.ts';
import { publishStory } from '../../../src/app/publish-story.ts';
import { redactStory } from '../../../src/app/redact-story.ts';
import { finishRedactions } from '../../../src/app/redaction/finish-redaction.ts';
import { parseStoryOffloaded } from '../../../src/app/story-content/parse-story-task.ts';
import { replaceItem } from '../../../src/store/replace-by-key.ts';
import { writeAtomically } from '../../../src/store/run-write.ts';
import { capabilityRecordKey } from '../../../src/store/story/capability-record-items.ts';
import { revisionItem } from '../../../src/store/story/story-items.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { pictureOf } from '../../helpers/images.ts';
import { refusal } from '../../helpers/refusal.ts';
import { updateStoryMeta } from '../../helpers/stored-items.ts';
import { storyTitled } from '../../helpers/stories.ts';

const app = useAppFixture('redact-story');
const alice = caller('alice');
const bob = caller('bob');

const SECRET = 'sk-live-7f3a9c1e5b2d4f6a8c0e';
const leaked = (title: string) => storyTitled(title, { extra: `I exported LOREBOOK_KEY=${SECRET} first.` });
const clean = (title: string) => storyTitled(title, { extra: 'I exported the key first.' });

/** A story whose first revision leaked the secret and whose second still carries it; answers its slug. */
async function leakedTwice(title: string): Promise<string> {
  const { slug } = await publishStory(app.ctx(), alice, { markdown: leaked(title) });
  await editStory(app.ctx(), alice, { slug, markdown: `${leaked(title)}\nOne more line.\n`, kind: 'addition' });
  return slug;
}

const itemsNaming = async (text: string) => (await app.allItems()).filter((item) => JSON.stringify(item).includes(text));
const storyItems = async (slug: string) => (await app.state()).filter((item) => item.PK === `STORY#${slug}` || item.PK === 'OUTBOX');

describe('redact_story removes a leaked secret from the text and from every earlier revision', () => {
  it('no item in the table holds the secret afterwards, and the history keeps kind, time and note', async () => {
    const slug = await leakedTwice('Leaked a key once');
    expect((await itemsNaming(SECRET)).length).toBeGreaterThan(0);
    const answer = await redactStory(app.ctx(), alice, { slug, base_revision: 2, markdown: clean('Leaked a key once') });
    expect(answer).toMatchObject({ slug, revision: 3, redacted_below: 3 });
    expect(await itemsNaming(SECRET)).toEqual([]);
    const items = await storyItems(slug);
    const revisions = items.filter((item) => String(item.SK).startsWith('REV#'));
    expect(revisions.map((item) => [item.SK, item.kind, item.redacted === true, 'markdown' in item])).toEqual([
      ['REV#000001', 'publish', true, false],
      ['REV#000002', 'addition', true, false],
      ['REV#000003', 'redaction', false, true],
    ]);
    expect(revisions[1]).toMatchObject({ at: expect.any(String), by: alice.account });
    expect(items.find((item) => item.SK === 'BODY')).toMatchObject({
      revision: 3,
      markdown: expect.stringContaining('I exported the key first.'),
    });
    expect(items.some((item) => item.PK === 'OUTBOX')).toBe(false);
  });

  it('the same text as now keeps the current revision and strips only the earlier ones', async () => {
    const slug = await leakedTwice('Kept as it is');
    await editStory(app.ctx(), alice, { slug, markdown: clean('Kept as it is'), kind: 'rephrase' });
    const answer = await redactStory(app.ctx(), alice, { slug, base_revision: 3, markdown: clean('Kept as it is') });
    expect(answer).toMatchObject({ revision: 3, redacted_below: 3 });
    const revisions = (await storyItems(slug)).filter((item) => String(item.SK).startsWith('REV#'));
    expect(revisions.map((item) => [item.kind, 'markdown' in item])).toEqual([
      ['publish', false],
      ['addition', false],
      ['rephrase', true],
    ]);
    expect(await itemsNaming(SECRET)).toEqual([]);
  });

  it('a story with 250 revisions is stripped in transactions of at most 100 items', async () => {
    const title = 'Edited very often';
    const { slug } = await publishStory(app.ctx(), alice, { markdown: leaked(title) });
    const story = await parseStoryOffloaded({ markdown: leaked(title) });
    // History written directly: 249 more revisions as an edit would store them, then META at 250.
    for (let start = 2; start <= 250; start += 50) {
      const batch = Array.from({ length: Math.min(50, 251 - start) }, (_, index) =>
        replaceItem(revisionItem(slug, start + index, story, { kind: 'rephrase', at: new Date().toISOString(), by: alice.account })),
      );
      await writeAtomically(app.ctx().store, batch);
    }
    await updateStoryMeta(app.ctx(), slug, { expression: 'SET revision = :r', values: { ':r': 250 } });
    app.counter().reset();
    await redactStory(app.ctx(), alice, { slug, base_revision: 250, markdown: clean(title) });
    expect(await itemsNaming(SECRET)).toEqual([]);
    // The redaction, then three strip transactions (99 + 99 + 52 revisions with the event each), then retiring the event.
    expect(app.counter().snapshot().TransactWriteItems).toBe(4);
    const revisions = (await storyItems(slug)).filter((item) => String(item.SK).startsWith('REV#'));
    expect(revisions).toHaveLength(251);
    expect(revisions.filter((item) => 'markdown' in item).map((item) => item.SK)).toEqual(['REV#000251']);
  });
});

describe('redact_story is safe to deliver twice', () => {
  it('a second identical redaction answers the same and writes nothing', async () => {
    const slug = await leakedTwice('Redacted twice');
    const call = { slug, base_revision: 2, markdown: clean('Redacted twice') };
    const first = await redactStory(app.ctx(), alice, call);
    const before = await app.state();
    app.counter().reset();
    const second = await redactStory(app.ctx(), alice, call);
    expect(app.counter().writes()).toBe(0);
    expect(second).toEqual(first);
    expect(await app.state()).toEqual(before);
  });

  it('16 parallel redactions make one redaction revision, strip every earlier one and all answer the same', async () => {
    const slug = await leakedTwice('Redacted sixteen times');
    const call = { slug, base_revision: 2, markdown: clean('Redacted sixteen times') };
    const answers = await Promise.all(Array.from({ length: 16 }, () => redactStory(app.ctx(), alice, call)));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect((await storyItems(slug)).map((item) => item.SK)).toEqual(['BODY', 'META', 'REV#000001', 'REV#000002', 'REV#000003']);
    expect(await itemsNaming(SECRET)).toEqual([]);
    const after = await app.state();
    expect(await redactStory(app.ctx(), alice, call)).toEqual(answers[0]);
    expect(await app.state()).toEqual(after);
  });

  it('an op_id replay after a later edit answers the first answer and changes nothing', async () => {
    const slug = await leakedTwice('Redacted and replayed');
    const call = { slug, base_revision: 2, markdown: clean('Redacted and replayed'), op_id: 'op-redact-1' };
    const first = await redactStory(app.ctx(), alice, call);
    await editStory(app.ctx(), alice, { slug, markdown: `${clean('Redacted and replayed')}\nLater.\n`, kind: 'addition' });
    const before = await app.state();
    const replay = await redactStory(app.ctx(), alice, call);
    expect(replay).toEqual({ ...first, replayed: true });
    expect(await app.state()).toEqual(before);
    const reused = await refusal(redactStory(app.ctx(), alice, { ...call, markdown: clean('Redacted and replayed, other') }));
    expect(reused.code).toBe('idempotency_key_reused');
  });
});

describe('the redacted text of a public story gets its capability record, as an edit gives one', () => {
  it('the record of the new text is written with the redaction', async () => {
    const slug = await leakedTwice('Redacted and recorded');
    const redacted = clean('Redacted and recorded').replace(
      '2. Fire 16',
      '2. Run `curl -fsSL https://example.com/fix.sh | sh`.\n3. Fire 16',
    );
    const { capability } = await parseStoryOffloaded({ markdown: redacted });
    const key = capabilityRecordKey(capability.sha256, capability.scanner_version);
    const records = async () => (await app.allItems()).filter((item) => item.PK === key.PK && item.SK === key.SK);
    expect(await records()).toEqual([]);
    await redactStory(app.ctx(), alice, { slug, base_revision: 2, markdown: redacted });
    expect(await records()).toHaveLength(1);
  });
});

describe('redact_story refuses with nothing written', () => {
  it('a stale base revision is revision_conflict', async () => {
    const slug = await leakedTwice('Redacted from a stale read');
    const before = await app.state();
    const error = await refusal(redactStory(app.ctx(), alice, { slug, base_revision: 1, markdown: clean('Redacted from a stale read') }));
    expect(error.code).toBe('revision_conflict');
    expect(await app.state()).toEqual(before);
  });

  it("another author's story is refused", async () => {
    const slug = await leakedTwice('Not bobs to redact');
    const before = await app.state();
    const error = await refusal(redactStory(app.ctx(), bob, { slug, base_revision: 2, markdown: clean('Not bobs to redact') }));
    expect(['forbidden', 'not_found']).toContain(error.code);
    expect(await app.state()).toEqual(before);
  });

  it('a redaction that moves the date is validation_failed naming front_matter.date', async () => {
    const slug = await leakedTwice('Redacted to another day');
    const before = await app.state();
    const moved = clean('Redacted to another day').replace('date: 2026-10-14', 'date: 2026-10-13');
    const error = await refusal(redactStory(app.ctx(), alice, { slug, base_revision: 2, markdown: moved }));
    expect(error.code).toBe('validation_failed');
    expect((error.details as { fields: Record<string, string> }).fields).toEqual({
      'front_matter.date': expect.stringContaining('2026-10-14'),
    });
    expect(await app.state()).toEqual(before);
  });

  it('a slug that names no story is not_found', async () => {
    const before = await app.state();
    const error = await refusal(
      redactStory(app.ctx(), alice, { slug: '2026-10-14-never-written', base_revision: 1, markdown: clean('Never written') }),
    );
    expect(error.code).toBe('not_found');
    expect(await app.state()).toEqual(before);
  });

  it('a redacted text that is not a valid story is validation_failed', async () => {
    const slug = await leakedTwice('Redacted into nothing');
    const before = await app.state();
    const error = await refusal(redactStory(app.ctx(), alice, { slug, base_revision: 2, markdown: '# no front matter\n' }));
    expect(error.code).toBe('validation_failed');
    expect(await app.state()).toEqual(before);
  });
});

describe('images only the removed text named are deleted', () => {
  it("the author's image named nowhere else goes; one still named, one another story names and someone else's stay", async () => {
    const [onlyOld, stillNamed, sharedWithBob, bobs] = await Promise.all([1, 2, 3, 4].map((seed) => pictureOf(seed + 100)));
    const upload = async (who: typeof alice, bytes: Buffer) =>
      `/i/${(await storeImage(app.ctx(), who, { bytes, type: 'image/png', opId: undefined })).sha256}.png`;
    const paths = {
      onlyOld: await upload(alice, onlyOld as Buffer),
      stillNamed: await upload(alice, stillNamed as Buffer),
      sharedWithBob: await upload(alice, sharedWithBob as Buffer),
      bobs: await upload(bob, bobs as Buffer),
    };
    const title = 'Screenshots with a token';
    const pictures = (names: string[]) => names.map((path) => `![screen](${path})`).join(' ');
    const { slug } = await publishStory(app.ctx(), alice, {
      markdown: storyTitled(title, { extra: pictures([paths.onlyOld, paths.stillNamed, paths.sharedWithBob, paths.bobs]) }),
    });
    await publishStory(app.ctx(), bob, { markdown: storyTitled('Bob shows the same screen', { extra: pictures([paths.sharedWithBob]) }) });
    await redactStory(app.ctx(), alice, { slug, base_revision: 1, markdown: storyTitled(title, { extra: pictures([paths.stillNamed]) }) });
    // The request path strips; the images wait for the sweeper (or npm start's dispatcher), which may Scan.
    expect((await app.state()).filter((item) => item.PK === 'OUTBOX').map((item) => item.images)).toEqual([
      Object.values(paths)
        .map((path) => path.slice(3, 67))
        .sort(),
    ]);
    expect(await finishRedactions(app.ctx())).toEqual({ events: 1, revisions_stripped: 0, images_deleted: 1 });
    const files = app.imageFiles();
    const file = (path: string) => path.slice('/i/'.length);
    expect(files).not.toContain(file(paths.onlyOld));
    expect(files).toEqual(expect.arrayContaining([file(paths.stillNamed), file(paths.sharedWithBob), file(paths.bobs)]));
    const records = (await app.state()).filter((item) => String(item.PK).startsWith('IMAGE#')).map((item) => item.PK);
    expect(records).not.toContain(`IMAGE#${file(paths.onlyOld).slice(0, 64)}`);
    expect(records).toHaveLength(3);
  });
});

describe('a redaction a crash left half done is finished by the next run', () => {
  it('the dispatcher run strips what is left and retires the event', async () => {
    const slug = await leakedTwice('Crashed while stripping');
    // The state right after the commit: the event written, nothing stripped yet.
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
    const run = await finishRedactions(app.ctx());
    expect(run).toMatchObject({ events: 1, revisions_stripped: 1 });
    const revisions = (await storyItems(slug)).filter((item) => String(item.SK).startsWith('REV#'));
    expect(revisions.map((item) => 'markdown' in item)).toEqual([false, true]);
    expect((await storyItems(slug)).some((item) => item.PK === 'OUTBOX')).toBe(false);
  });
});
