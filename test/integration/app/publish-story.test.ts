import { describe, expect, it } from 'vitest';
import { publishStory } from '../../../src/app/publish-story.ts';
import { setVisibility } from '../../../src/app/set-visibility.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { refusal } from '../../helpers/refusal.ts';
import { fixture, storyTitled, successStory } from '../../helpers/stories.ts';

const app = useAppFixture('publish-story');
const alice = caller('alice');
const bob = caller('bob');

describe('publish_story is safe to deliver twice', () => {
  it('a second identical publish answers the same and writes nothing', async () => {
    const markdown = storyTitled('Twice in a row');
    const first = await publishStory(app.ctx(), alice, { markdown });
    const before = await app.state();
    app.counter().reset();
    const second = await publishStory(app.ctx(), alice, { markdown });
    expect(app.counter().writes()).toBe(0);
    expect(second).toEqual(first);
    expect(await app.state()).toEqual(before);
    expect(first).toMatchObject({ slug: '2026-10-14-twice-in-a-row', revision: 1 });
  });

  it('16 parallel first publishes of one story create one story at revision 1 and all answer the same', async () => {
    const markdown = storyTitled('Sixteen at once');
    const answers = await Promise.all(Array.from({ length: 16 }, () => publishStory(app.ctx(), alice, { markdown })));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    const items = (await app.state()).filter((item) => item.PK === 'STORY#2026-10-14-sixteen-at-once');
    expect(items.map((item) => item.SK)).toEqual(['BODY', 'META', 'REV#000001']);
  });

  it('an op_id replay after a different change returns the first answer and changes nothing', async () => {
    const markdown = storyTitled('Replayed later');
    const first = await publishStory(app.ctx(), alice, { markdown, op_id: 'op-publish-1' });
    await publishStory(app.ctx(), alice, { markdown: storyTitled('Replayed later', { extra: 'A later edit.' }) });
    const before = await app.state();
    app.counter().reset();
    const replay = await publishStory(app.ctx(), alice, { markdown, op_id: 'op-publish-1' });
    expect(replay).toEqual({ ...first, replayed: true });
    expect(await app.state()).toEqual(before);
    console.log('publish replay round trips', app.counter().snapshot());
    expect(app.counter().reads()).toBe(1);
    expect(app.counter().writes()).toBe(0);
  });

  it('16 parallel deliveries of one op_id commit one change and the rest replay it', async () => {
    const markdown = storyTitled('Same op sixteen times');
    app.counter().reset();
    const answers = await Promise.all(Array.from({ length: 16 }, () => publishStory(app.ctx(), alice, { markdown, op_id: 'op-sixteen' })));
    const withoutFlag = ({ replayed: _flag, ...answer }: (typeof answers)[number]) => answer;
    for (const answer of answers) expect(withoutFlag(answer)).toEqual(withoutFlag(answers[0]!));
    expect(answers.filter((answer) => answer.replayed !== true)).toHaveLength(1);
    // A loser whose transaction was cancelled replays from the op record the cancellation
    // carried (ALL_OLD): one read per delivery, never a second.
    console.log('16 parallel op deliveries round trips', app.counter().snapshot());
    expect(app.counter().reads()).toBe(16);
  });

  it('a first publish costs at most one read round trip and one transaction', async () => {
    app.counter().reset();
    await publishStory(app.ctx(), alice, { markdown: storyTitled('Budgeted first publish'), op_id: 'op-budget' });
    const counts = app.counter().snapshot();
    console.log('first publish round trips', counts);
    expect(counts).toEqual({ TransactGetItems: 1, TransactWriteItems: 1 });
  });
});

describe('publish_story keeps what a republish must not touch', () => {
  it('a republish by the author is a new revision with the same slug and date', async () => {
    const first = await publishStory(app.ctx(), alice, { markdown: storyTitled('Republished story') });
    const second = await publishStory(app.ctx(), alice, { markdown: storyTitled('Republished story', { extra: 'New detail.' }) });
    expect(second.slug).toBe(first.slug);
    expect(second.revision).toBe(2);
    const items = (await app.state()).filter((item) => item.PK === `STORY#${first.slug}`);
    expect(items.map((item) => item.SK)).toEqual(['BODY', 'META', 'REV#000001', 'REV#000002']);
    const meta = items.find((item) => item.SK === 'META');
    expect(meta).toMatchObject({ revision: 2, date: '2026-10-14', published_at: expect.any(String) });
  });

  it('parts and the equivalent markdown are one story: publishing both writes once', async () => {
    const markdown = fixture('fail-open.md');
    const first = await publishStory(app.ctx(), alice, { markdown });
    const parts = {
      title: "Agent can't make headless Chromium find its fonts after four attempts",
      date: '2026-11-02',
      tags: ['chromium', 'fonts', 'ci'],
      type: 'fail',
      status: 'open',
      reproducible: false,
      stack: ['debian', 'node'],
      narrative: 'Screenshots from our CI render every label as boxes. The same page looks fine on a laptop.',
      what_i_tried:
        '1. Installed fonts-dejavu — no change.\n2. Set FONTCONFIG_PATH to /etc/fonts — no change.\n3. Ran fc-cache -f before the tests — boxes became slightly different boxes.\n4. Switched to the new headless mode — same result.',
      what_i_need:
        'Which package or setting makes Debian\'s Chromium use system fonts when run as root in a container?\nA definite "it can\'t" is a useful answer too.',
    };
    const before = await app.state();
    const second = await publishStory(app.ctx(), alice, { parts });
    expect(second).toEqual(first);
    expect(await app.state()).toEqual(before);
  });

  it('a slug owned by another author is slug_taken and nothing is written', async () => {
    const markdown = storyTitled('Owned by alice');
    await publishStory(app.ctx(), alice, { markdown });
    const before = await app.state();
    const error = await refusal(publishStory(app.ctx(), bob, { markdown }));
    expect(error.code).toBe('slug_taken');
    expect(await app.state()).toEqual(before);
  });

  it.each(['private', 'hidden'] as const)(
    "a slug held by another author's %s story is slug_taken saying to change the title, and nothing is written",
    async (kind) => {
      const title = `Held by a ${kind} story`;
      await publishStory(app.ctx(), alice, { markdown: storyTitled(title, kind === 'private' ? { visibility: 'private' } : {}) });
      if (kind === 'hidden') await setVisibility(app.ctx(), alice, { slug: `2026-10-14-held-by-a-${kind}-story`, hidden: true });
      const before = await app.allItems();
      const error = await refusal(publishStory(app.ctx(), bob, { markdown: storyTitled(title) }));
      expect(error).toMatchObject({ code: 'slug_taken', retryable: false, details: { slug: `2026-10-14-held-by-a-${kind}-story` } });
      expect(error.message).toContain('change the title');
      expect(await app.allItems()).toEqual(before);
      // The way forward the message names: another title is another slug.
      expect(await publishStory(app.ctx(), bob, { markdown: storyTitled(`${title} too`) })).toMatchObject({ revision: 1 });
    },
  );

  it('a republish from a stale base_revision is revision_conflict and nothing is written', async () => {
    const markdown = storyTitled('Stale base');
    const first = await publishStory(app.ctx(), alice, { markdown });
    await publishStory(app.ctx(), alice, { markdown: storyTitled('Stale base', { extra: 'Second.' }) });
    const before = await app.state();
    const error = await refusal(
      publishStory(app.ctx(), alice, { markdown: storyTitled('Stale base', { extra: 'Third.' }), slug: first.slug, base_revision: 1 }),
    );
    expect(error.code).toBe('revision_conflict');
    expect(error.details).toMatchObject({ current_revision: 2 });
    expect(await app.state()).toEqual(before);
  });
});

describe('publish_story refuses bad input with a typed error and writes nothing', () => {
  it.each([
    ['the invalid-no-title fixture', { markdown: fixture('invalid-no-title.md') }, 'validation_failed'],
    ['markdown over 64 KiB', { markdown: successStory() + 'x'.repeat(70 * 1024) }, 'payload_too_large'],
    ['an unknown story type', { markdown: successStory().replace('type: success', 'type: triumph') }, 'validation_failed'],
    ['both markdown and parts', { markdown: successStory(), parts: { title: 'x' } }, 'validation_failed'],
    ['a malformed op_id', { markdown: successStory(), op_id: 'has spaces' }, 'validation_failed'],
  ])('%s', async (_name, input, code) => {
    const before = await app.allItems();
    const error = await refusal(publishStory(app.ctx(), alice, input));
    expect(error.code).toBe(code);
    expect(await app.allItems()).toEqual(before);
  });

  it('the invalid-no-title fixture names both the title and the Reproduce this section', async () => {
    const error = await refusal(publishStory(app.ctx(), alice, { markdown: fixture('invalid-no-title.md') }));
    const fields = Object.keys((error.details as { fields: Record<string, string> }).fields);
    expect(fields.some((field) => field.includes('title'))).toBe(true);
    expect(fields.some((field) => field.includes('reproduce'))).toBe(true);
  });
});

describe("a story may be dated at most a day ahead (the author's time zone), never more", () => {
  const dated = (title: string, date: string) => storyTitled(title).replace('date: 2026-10-14', `date: ${date}`);
  const day = (offsetDays: number) => new Date(app.ctx().store.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

  it('a first publish dated two days ahead is validation_failed naming front_matter.date, and nothing is written', async () => {
    const before = await app.allItems();
    const error = await refusal(publishStory(app.ctx(), alice, { markdown: dated('Written the day after tomorrow', day(2)) }));
    expect(error).toMatchObject({ code: 'validation_failed', retryable: false });
    const fields = (error.details as { fields: Record<string, string> }).fields;
    expect(fields['front_matter.date']).toContain(day(1));
    expect(await app.allItems()).toEqual(before);
  });

  it('tomorrow (a time zone ahead of UTC) and today are accepted', async () => {
    expect(await publishStory(app.ctx(), alice, { markdown: dated('Written in Kiribati', day(1)) })).toMatchObject({ revision: 1 });
    expect(await publishStory(app.ctx(), alice, { markdown: dated('Written today', day(0)) })).toMatchObject({ revision: 1 });
  });
});

describe('publish_story targets and lists exactly what it names', () => {
  it('an explicit slug that names no story is not_found: publishing never creates a story under a made-up key', async () => {
    const before = await app.allItems();
    const error = await refusal(
      publishStory(app.ctx(), alice, { markdown: storyTitled('Never published'), slug: '2026-10-14-never-published' }),
    );
    expect(error.code).toBe('not_found');
    expect(await app.allItems()).toEqual(before);
  });

  it('a republish to an explicit slug with another date is validation_failed naming the date', async () => {
    const { slug } = await publishStory(app.ctx(), alice, { markdown: storyTitled('Date is fixed') });
    const before = await app.allItems();
    const moved = storyTitled('Date is fixed', { extra: 'Later.' }).replace('date: 2026-10-14', 'date: 2026-10-15');
    const error = await refusal(publishStory(app.ctx(), alice, { markdown: moved, slug }));
    expect(error.code).toBe('validation_failed');
    expect(Object.keys((error.details as { fields: Record<string, string> }).fields)).toEqual(['front_matter.date']);
    expect(await app.allItems()).toEqual(before);
  });

  it("a first public publish records its month in the feed's month list; a private one does not", async () => {
    const months = async () => ((await app.state()).find((item) => item.PK === 'FEED' && item.SK === 'MONTHS')?.months ?? []) as string[];
    app.advance(400 * 24 * 60 * 60 * 1000);
    const privateMonth = new Date(app.ctx().store.now()).toISOString().slice(0, 7);
    await publishStory(app.ctx(), alice, { markdown: storyTitled('Private in a new month', { visibility: 'private' }) });
    expect(await months()).not.toContain(privateMonth);
    await publishStory(app.ctx(), alice, { markdown: storyTitled('Public in a new month') });
    expect(await months()).toContain(privateMonth);
  });
});
