// Publishing a claimed draft: publish_story's path, the claimer as author, the drafter credited.
import { describe, expect, it, vi } from 'vitest';
import { ensureAccount } from '../../../src/app/account/accounts.ts';
import { claimDraft } from '../../../src/app/drafts/claim-draft.ts';
import { listDrafts } from '../../../src/app/drafts/list-drafts.ts';
import { publishDraft } from '../../../src/app/drafts/publish-draft.ts';
import { withdrawDraft } from '../../../src/app/drafts/withdraw-draft.ts';
import { editStory } from '../../../src/app/edit-story.ts';
import { getStory } from '../../../src/app/queries/get-story.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { storedDraft, writtenDraft } from '../../helpers/drafts.ts';
import { refusal } from '../../helpers/refusal.ts';
import { storyTitled } from '../../helpers/stories.ts';

// Sixteen parallel deliveries on a shared DynamoDB Local take tens of seconds on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

const app = useAppFixture('publish-draft');
const dana = caller('dana');
const ivy = caller('ivy');
const bob = caller('bob');

async function claimedDraft(title: string): Promise<string> {
  const { claimUrl, id } = await writtenDraft(app, dana, title);
  await claimDraft(app.ctx(), ivy, { claim_url: claimUrl });
  return id;
}

const storyItems = async (slug: string) => (await app.state()).filter((item) => item.PK === `STORY#${slug}`);

describe('publish_draft publishes the claimed draft as the claimer’s story, crediting the drafter', () => {
  it('the claimer is the author, META and get_story carry drafted_by, and the draft is published', async () => {
    await Promise.all([ensureAccount(app.ctx(), dana), ensureAccount(app.ctx(), ivy)]);
    const id = await claimedDraft('Published from a draft');
    const answer = await publishDraft(app.ctx(), ivy, { draft_id: id });
    expect(answer).toMatchObject({ revision: 1, draft_id: id });
    const meta = (await storyItems(answer.slug)).find((item) => item.SK === 'META');
    expect(meta).toMatchObject({ author: ivy.account, drafted_by: dana.account });
    const story = await getStory(app.ctx(), undefined, { slug: answer.slug });
    expect(story.author).toEqual({ account: ivy.account, handle: ivy.handle });
    expect(story.drafted_by).toEqual({ account: dana.account, handle: dana.handle });
    expect(await storedDraft(app, id)).toMatchObject({ status: 'published', story: answer.slug });
  });

  it("the claimer's edited markdown is what is published, and an edit keeps the credit", async () => {
    const id = await claimedDraft('Published with edits');
    const edited = storyTitled('Published with edits', { extra: 'I added what happened on my side.' });
    const answer = await publishDraft(app.ctx(), ivy, { draft_id: id, markdown: edited });
    const story = await getStory(app.ctx(), undefined, { slug: answer.slug });
    expect(story.markdown).toContain('I added what happened on my side.');
    await editStory(app.ctx(), ivy, {
      slug: answer.slug,
      kind: 'rephrase',
      markdown: storyTitled('Published with edits', { extra: 'I rephrased my side.' }),
    });
    expect((await getStory(app.ctx(), undefined, { slug: answer.slug })).drafted_by?.account).toBe(dana.account);
  });
});

describe('publish_draft is safe to deliver twice', () => {
  it('the same publish twice answers the same story and writes nothing the second time', async () => {
    const id = await claimedDraft('Draft published twice');
    const first = await publishDraft(app.ctx(), ivy, { draft_id: id });
    const before = await app.allItems();
    app.counter().reset();
    const second = await publishDraft(app.ctx(), ivy, { draft_id: id });
    expect(app.counter().writes()).toBe(0);
    expect(second).toEqual(first);
    expect(await app.allItems()).toEqual(before);
  });

  it('16 parallel publishes make one story at revision 1', async () => {
    const id = await claimedDraft('Draft published sixteen times at once');
    const answers = await Promise.all(Array.from({ length: 16 }, () => publishDraft(app.ctx(), ivy, { draft_id: id })));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    const slug = answers[0]?.slug ?? '';
    const items = await storyItems(slug);
    expect(items.filter((item) => String(item.SK).startsWith('REV#'))).toHaveLength(1);
    expect(items.find((item) => item.SK === 'META')).toMatchObject({ revision: 1, drafted_by: dana.account });
    expect(await storedDraft(app, id)).toMatchObject({ status: 'published', story: slug });
  });

  it('an op_id replay after the story was edited answers the first publish and changes nothing', async () => {
    const id = await claimedDraft('Draft publish replayed after an edit');
    const first = await publishDraft(app.ctx(), ivy, { draft_id: id, op_id: 'op-publish-draft-1' });
    await editStory(app.ctx(), ivy, {
      slug: first.slug,
      kind: 'rephrase',
      markdown: storyTitled('Draft publish replayed after an edit', { extra: 'Rephrased.' }),
    });
    const before = await app.allItems();
    const replay = await publishDraft(app.ctx(), ivy, { draft_id: id, op_id: 'op-publish-draft-1' });
    expect(replay).toEqual({ ...first, replayed: true });
    expect(await app.allItems()).toEqual(before);
  });
});

describe('publish_draft refuses what is not a claimed draft of the caller', () => {
  it('an open draft, a draft claimed by someone else and the drafter: not_found, nothing written', async () => {
    const open = await writtenDraft(app, dana, 'Never claimed, published anyway');
    const claimed = await claimedDraft('Claimed by ivy, published by bob');
    const before = await app.allItems();
    for (const [who, id] of [
      [ivy, open.id],
      [bob, claimed],
      [dana, claimed],
    ] as const) {
      expect((await refusal(publishDraft(app.ctx(), who, { draft_id: id }))).code).toBe('not_found');
    }
    expect(await app.allItems()).toEqual(before);
  });

  it('a published draft sent again with other markdown is a typed conflict naming its story', async () => {
    const id = await claimedDraft('Published, then sent again changed');
    const first = await publishDraft(app.ctx(), ivy, { draft_id: id });
    const before = await app.allItems();
    const error = await refusal(
      publishDraft(app.ctx(), ivy, { draft_id: id, markdown: storyTitled('Published, then sent again changed', { extra: 'Changed.' }) }),
    );
    expect(error).toMatchObject({ code: 'conflict', retryable: false, details: { status: 'published', slug: first.slug } });
    expect(await app.allItems()).toEqual(before);
  });

  it('a draft whose slug is already one of the claimer’s stories is a typed conflict, and nothing is written', async () => {
    const { publishStory } = await import('../../../src/app/publish-story.ts');
    await publishStory(app.ctx(), ivy, { markdown: storyTitled('Already my story') });
    const id = await claimedDraft('Already my story');
    const before = await app.allItems();
    expect((await refusal(publishDraft(app.ctx(), ivy, { draft_id: id }))).code).toBe('conflict');
    expect(await app.allItems()).toEqual(before);
  });

  it('markdown that is not a publishable story is validation_failed, nothing written', async () => {
    const id = await claimedDraft('Published with broken markdown');
    const before = await app.allItems();
    expect((await refusal(publishDraft(app.ctx(), ivy, { draft_id: id, markdown: '# no front matter' }))).code).toBe('validation_failed');
    expect(await app.allItems()).toEqual(before);
  });
});

describe('list_drafts', () => {
  it('lists the caller’s drafts as drafter and as claimer, newest first, in bounded pages', async () => {
    const lister = caller('lister');
    const invitee = caller('lister-invitee');
    const ids: string[] = [];
    for (const n of [1, 2, 3]) ids.push((await writtenDraft(app, lister, `Listed draft ${n}`)).id);
    const forLister = await writtenDraft(app, dana, 'Drafted for the lister');
    await claimDraft(app.ctx(), lister, { claim_url: forLister.claimUrl });
    await withdrawDraft(app.ctx(), lister, { draft_id: ids[0] ?? '' });
    const first = await listDrafts(app.ctx(), lister, { limit: 2 });
    expect(first.drafts.map((draft) => [draft.title, draft.role])).toEqual([
      ['Drafted for the lister', 'claimer'],
      ['Listed draft 3', 'drafter'],
    ]);
    expect(first.drafts[0]?.markdown).toBeUndefined();
    const second = await listDrafts(app.ctx(), lister, { limit: 2, cursor: first.cursor });
    expect(second.drafts.map((draft) => [draft.title, draft.status])).toEqual([
      ['Listed draft 2', 'open'],
      ['Listed draft 1', 'withdrawn'],
    ]);
    const rest = second.cursor === undefined ? { drafts: [] } : await listDrafts(app.ctx(), lister, { limit: 2, cursor: second.cursor });
    expect(rest.drafts).toEqual([]);
    expect((await listDrafts(app.ctx(), invitee, {})).drafts).toEqual([]);
  });

  it('answers one draft with its markdown to its drafter and claimer only', async () => {
    const { claimUrl, id } = await writtenDraft(app, dana, 'Read one draft');
    await claimDraft(app.ctx(), ivy, { claim_url: claimUrl });
    for (const who of [dana, ivy]) {
      const [draft] = (await listDrafts(app.ctx(), who, { draft_id: id })).drafts;
      expect(draft?.markdown).toContain('title: Read one draft');
    }
    expect((await refusal(listDrafts(app.ctx(), bob, { draft_id: id }))).code).toBe('not_found');
  });

  it('refuses a cursor it did not hand out and a limit out of range', async () => {
    expect((await refusal(listDrafts(app.ctx(), dana, { cursor: 'bm9wZQ' }))).code).toBe('validation_failed');
    expect((await refusal(listDrafts(app.ctx(), dana, { limit: 51 }))).code).toBe('validation_failed');
  });
});
