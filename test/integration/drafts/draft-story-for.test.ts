import { randomUUID } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { claimDraft } from '../../../src/app/drafts/claim-draft.ts';
import { draftStoryFor } from '../../../src/app/drafts/draft-story-for.ts';
import { MAX_DRAFTS_PER_DAY } from '../../../src/domain/draft/draft-rules.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { storedDraft, writtenDraft } from '../../helpers/drafts.ts';
import { refusal } from '../../helpers/refusal.ts';
import { updateStoredItem } from '../../helpers/stored-items.ts';
import { storyTitled } from '../../helpers/stories.ts';

// Sixteen parallel deliveries on a shared DynamoDB Local take tens of seconds on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

const app = useAppFixture('draft-story-for');
const dana = caller('dana');
const ivy = caller('ivy');
const NOTE = 'I wrote up what we fixed together yesterday.';

const draftInput = (title: string, extra: Record<string, unknown> = {}) => ({
  markdown: storyTitled(title),
  invitee_note: NOTE,
  draft_key: randomUUID(),
  ...extra,
});
const draftsCountedToday = async (who: { account: string }): Promise<number> =>
  Number((await app.state()).find((item) => item.PK === `RATE#drafts:${who.account}`)?.count ?? 0);

describe('draft_story_for stores only the hash of the claim token', () => {
  it('the table holds neither the claim token nor the draft_key in clear, and the draft is keyed by the token sha256', async () => {
    const draftKey = randomUUID();
    const answer = await draftStoryFor(
      app.ctx(),
      dana,
      draftInput('Token never stored', { draft_key: draftKey, op_id: 'op-draft-secret' }),
    );
    const token = answer.claim_url.split('/claim/')[1] ?? '';
    expect(token).toMatch(/^lbc_[A-Za-z0-9_-]{43}$/);
    expect(answer.claim_url).toBe(`${app.ctx().config.publicBaseUrl}/claim/${token}`);
    const everything = JSON.stringify(await app.allItems());
    expect(everything).not.toContain(token);
    expect(everything).not.toContain(token.slice(4));
    expect(everything).not.toContain(draftKey);
    const { createHash } = await import('node:crypto');
    const hash = createHash('sha256').update(token).digest('hex');
    expect(answer.draft.id).toBe(hash);
    expect(await storedDraft(app, hash)).toMatchObject({ status: 'open', drafter: dana.account, invitee_note: NOTE });
  });

  it('two drafts with one draft_key text from two accounts have unrelated tokens', async () => {
    const shared = randomUUID();
    const fromDana = await writtenDraft(app, dana, 'Shared key, dana', { draft_key: shared });
    const fromIvy = await writtenDraft(app, ivy, 'Shared key, ivy', { draft_key: shared });
    expect(fromIvy.token).not.toBe(fromDana.token);
  });
});

describe('draft_story_for is safe to deliver twice (keyed by the draft_key)', () => {
  it('the same call twice answers the same draft and claim URL and writes nothing the second time', async () => {
    const input = draftInput('Drafted twice');
    const first = await draftStoryFor(app.ctx(), dana, input);
    const before = await app.allItems();
    app.counter().reset();
    const second = await draftStoryFor(app.ctx(), dana, input);
    expect(app.counter().writes()).toBe(0);
    expect(second).toEqual(first);
    expect(await app.allItems()).toEqual(before);
  });

  it('16 parallel deliveries make one draft, counted once, and all answer the same claim URL', async () => {
    const input = draftInput('Drafted sixteen times at once');
    const counted = await draftsCountedToday(dana);
    const answers = await Promise.all(Array.from({ length: 16 }, () => draftStoryFor(app.ctx(), dana, input)));
    const urls = new Set(answers.map((answer) => answer.claim_url));
    expect(urls.size).toBe(1);
    for (const answer of answers) expect(answer.draft).toEqual(answers[0]?.draft);
    // One DRAFT# item, one list item of the drafter's, and the day's count moved by one.
    const state = await app.state();
    const drafts = state.filter((item) => String(item.PK).startsWith('DRAFT#') && item.title === 'Drafted sixteen times at once');
    expect(drafts).toHaveLength(1);
    expect(state.filter((item) => item.draft === drafts[0]?.id)).toHaveLength(1);
    expect(await draftsCountedToday(dana)).toBe(counted + 1);
  });

  it('an op_id replay after the draft was claimed answers the first answer and changes nothing', async () => {
    const input = draftInput('Drafted then claimed then replayed', { op_id: 'op-draft-replayed' });
    const first = await draftStoryFor(app.ctx(), dana, input);
    await claimDraft(app.ctx(), ivy, { claim_url: first.claim_url });
    const before = await app.allItems();
    const replay = await draftStoryFor(app.ctx(), dana, input);
    expect(replay).toEqual({ ...first, replayed: true });
    expect(await app.allItems()).toEqual(before);
  });

  it('a repeat of the draft_key after the draft was claimed answers the first answer and changes nothing', async () => {
    const input = draftInput('Drafted, claimed, drafted again');
    const first = await draftStoryFor(app.ctx(), dana, input);
    await claimDraft(app.ctx(), ivy, { claim_url: first.claim_url });
    const before = await app.allItems();
    expect(await draftStoryFor(app.ctx(), dana, input)).toEqual(first);
    expect(await app.allItems()).toEqual(before);
  });

  it('the same op_id or draft_key with other arguments is idempotency_key_reused and writes nothing', async () => {
    const draftKey = randomUUID();
    await draftStoryFor(app.ctx(), dana, draftInput('Keys reused for drafts', { op_id: 'op-draft-reused', draft_key: draftKey }));
    const before = await app.allItems();
    const byOp = await refusal(draftStoryFor(app.ctx(), dana, draftInput('Op reused for another draft', { op_id: 'op-draft-reused' })));
    expect(byOp.code).toBe('idempotency_key_reused');
    const byKey = await refusal(draftStoryFor(app.ctx(), dana, draftInput('Draft key reused for another draft', { draft_key: draftKey })));
    expect(byKey).toMatchObject({ code: 'idempotency_key_reused', details: { field: 'draft_key' } });
    expect(await app.allItems()).toEqual(before);
  });

  it('another draft_key is another draft, with its own claim URL', async () => {
    const first = await writtenDraft(app, dana, 'Drafted twice under two keys');
    const second = await writtenDraft(app, dana, 'Drafted twice under two keys');
    expect(second.id).not.toBe(first.id);
    expect(second.claimUrl).not.toBe(first.claimUrl);
  });
});

describe('draft_story_for refuses bad input with a typed error and writes nothing', () => {
  const refusedWithNothingWritten = async (input: Record<string, unknown>, code: string, field?: string) => {
    const before = await app.allItems();
    const error = await refusal(draftStoryFor(app.ctx(), dana, input));
    expect(error.code).toBe(code);
    if (field !== undefined) expect(Object.keys((error.details?.fields ?? {}) as object)).toContain(field);
    expect(await app.allItems()).toEqual(before);
  };

  it('markdown that is not a publishable story', () =>
    refusedWithNothingWritten({ markdown: '# Just a title\n\nNo front matter.', invitee_note: NOTE }, 'validation_failed'));
  it('markdown over the publish size limit', () =>
    refusedWithNothingWritten(
      draftInput('Too big to draft', { markdown: storyTitled('Too big to draft') + 'x'.repeat(70 * 1024) }),
      'payload_too_large',
    ));
  it('an empty note', () =>
    refusedWithNothingWritten(draftInput('Empty note', { invitee_note: '   ' }), 'validation_failed', 'invitee_note'));
  it('a note over the limit', () =>
    refusedWithNothingWritten(draftInput('Long note', { invitee_note: 'n'.repeat(1001) }), 'validation_failed', 'invitee_note'));
  it('an invitee handle that is not a handle', () =>
    refusedWithNothingWritten(draftInput('Bad handle', { invitee_handle: 'not a handle!' }), 'validation_failed', 'invitee_handle'));
  it('an unknown field', () => refusedWithNothingWritten(draftInput('Unknown field', { invitee: 'x' }), 'validation_failed'));
  it('a missing or short draft_key', async () => {
    await refusedWithNothingWritten({ markdown: storyTitled('No key'), invitee_note: NOTE }, 'validation_failed', 'draft_key');
    await refusedWithNothingWritten(draftInput('Short key', { draft_key: 'short' }), 'validation_failed', 'draft_key');
  });
});

describe('draft_story_for keeps the daily limit', () => {
  it(`draft number ${MAX_DRAFTS_PER_DAY + 1} of the day is rate_limited with retry_after_ms and writes nothing`, async () => {
    const busy = caller('busy-drafter');
    app.freeze();
    await draftStoryFor(app.ctx(), busy, draftInput('Busy draft 1'));
    // The other drafts of the day, counted as the first one was (each draft is a write of its own).
    const day = (await app.state()).find((item) => item.PK === `RATE#drafts:${busy.account}`);
    expect(day?.count).toBe(1);
    await updateStoredItem(
      app.ctx(),
      { PK: String(day?.PK), SK: String(day?.SK) },
      {
        expression: 'SET #count = :full',
        names: { '#count': 'count' },
        values: { ':full': MAX_DRAFTS_PER_DAY },
      },
    );
    const before = await app.allItems();
    const error = await refusal(draftStoryFor(app.ctx(), busy, draftInput('One draft too many')));
    expect(error.code).toBe('rate_limited');
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBeGreaterThan(0);
    expect(await app.allItems()).toEqual(before);
    // Another account's budget is its own.
    await draftStoryFor(app.ctx(), dana, draftInput('Another drafter is not limited'));
  });
});
