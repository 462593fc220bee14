// Claim, decline and withdraw: each an update conditioned on the status it read (design.md#drafts).
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ensureAccount } from '../../../src/app/account/accounts.ts';
import { claimDraft } from '../../../src/app/drafts/claim-draft.ts';
import { declineDraft } from '../../../src/app/drafts/decline-draft.ts';
import { publishDraft } from '../../../src/app/drafts/publish-draft.ts';
import { withdrawDraft } from '../../../src/app/drafts/withdraw-draft.ts';
import { LorebookError } from '../../../src/domain/errors.ts';
import { caller, useAppFixture } from '../../helpers/app-fixture.ts';
import { storedDraft, writtenDraft } from '../../helpers/drafts.ts';
import { storedNotifications } from '../../helpers/inbox.ts';
import { afterNextRead } from '../../helpers/interleave.ts';
import { refusal } from '../../helpers/refusal.ts';

// Sixteen parallel deliveries on a shared DynamoDB Local take tens of seconds on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

const app = useAppFixture('draft-transitions');
// A drafter of its own per test: the daily draft limit is per account.
let drafters = 0;
let dana = caller('dana');
beforeEach(() => {
  drafters += 1;
  dana = caller(`dana-${drafters}`);
});
const ivy = caller('ivy');
const bob = caller('bob');
const DAY_MS = 24 * 60 * 60 * 1000;

const draftNotifications = async (account: string) => (await storedNotifications(app, { account })).filter((item) => item.kind === 'draft');
const claimerListItems = async (account: string, id: string) =>
  (await app.state()).filter((item) => item.PK === `ACCOUNT#${account}` && item.draft === id);

describe('claim_draft is safe to deliver twice', () => {
  it('the same claim twice answers the same, and the invitee is notified once', async () => {
    await Promise.all([ensureAccount(app.ctx(), ivy), ensureAccount(app.ctx(), dana)]);
    const { claimUrl, id } = await writtenDraft(app, dana, 'Claimed twice');
    const first = await claimDraft(app.ctx(), ivy, { claim_url: claimUrl });
    expect(first.draft).toMatchObject({
      id,
      status: 'claimed',
      claimer: { account: ivy.account, handle: ivy.handle },
      drafter: { account: dana.account, handle: dana.handle },
    });
    const before = await app.allItems();
    app.counter().reset();
    const second = await claimDraft(app.ctx(), ivy, { claim_url: claimUrl });
    expect(app.counter().writes()).toBe(0);
    expect(second).toEqual(first);
    expect(await app.allItems()).toEqual(before);
    const notes = (await draftNotifications(ivy.account)).filter((item) => item.story_title === 'Claimed twice');
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ actor: dana.account, actor_handle: dana.handle, read: false });
    expect(await claimerListItems(ivy.account, id)).toHaveLength(1);
  });

  it('a bare token and the URL are one claim', async () => {
    const { claimUrl, token } = await writtenDraft(app, dana, 'Claimed by URL then token');
    const byUrl = await claimDraft(app.ctx(), ivy, { claim_url: claimUrl });
    expect(await claimDraft(app.ctx(), ivy, { token })).toEqual(byUrl);
  });

  it('16 parallel claims by the invitee make one claim and one notification', async () => {
    const { claimUrl, id } = await writtenDraft(app, dana, 'Claimed sixteen times at once');
    const answers = await Promise.all(Array.from({ length: 16 }, () => claimDraft(app.ctx(), ivy, { claim_url: claimUrl })));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect((await draftNotifications(ivy.account)).filter((item) => item.story_title === 'Claimed sixteen times at once')).toHaveLength(1);
    expect(await claimerListItems(ivy.account, id)).toHaveLength(1);
  });

  it('an op_id replay after the draft was published answers the first claim and changes nothing', async () => {
    const { claimUrl, id } = await writtenDraft(app, dana, 'Claim replayed after publishing');
    const first = await claimDraft(app.ctx(), ivy, { claim_url: claimUrl, op_id: 'op-claim-replay' });
    await publishDraft(app.ctx(), ivy, { draft_id: id });
    const before = await app.allItems();
    const replay = await claimDraft(app.ctx(), ivy, { claim_url: claimUrl, op_id: 'op-claim-replay' });
    expect(replay).toEqual({ ...first, replayed: true });
    expect(replay.draft.status).toBe('claimed');
    expect(await app.allItems()).toEqual(before);
  });
});

describe('one claim URL, two accounts: exactly one claims it', () => {
  for (const [winner, loser] of [
    [ivy, bob],
    [bob, ivy],
  ] as const) {
    it(`@${winner.handle} first: @${loser.handle} gets a typed conflict and nothing is written for them`, async () => {
      const { claimUrl, id } = await writtenDraft(app, dana, `Two claimers, ${winner.handle} first`);
      await claimDraft(app.ctx(), winner, { claim_url: claimUrl });
      const before = await app.allItems();
      const error = await refusal(claimDraft(app.ctx(), loser, { claim_url: claimUrl }));
      expect(error).toMatchObject({ code: 'conflict', retryable: false, details: { status: 'claimed' } });
      expect(await app.allItems()).toEqual(before);
      expect(await storedDraft(app, id)).toMatchObject({ status: 'claimed', claimer: winner.account });
    });

    it(`racing, @${winner.handle}'s claim lands between @${loser.handle}'s read and write: one claim, one notification`, async () => {
      const { claimUrl, id } = await writtenDraft(app, dana, `Two claimers racing, ${winner.handle} lands first`);
      let won: unknown;
      afterNextRead(app.ctx(), async () => {
        won = await claimDraft(app.ctx(), winner, { claim_url: claimUrl });
      });
      const error = await refusal(claimDraft(app.ctx(), loser, { claim_url: claimUrl }));
      expect(won).toMatchObject({ draft: { status: 'claimed' } });
      expect(error).toMatchObject({ code: 'conflict', details: { status: 'claimed' } });
      expect(await storedDraft(app, id)).toMatchObject({ status: 'claimed', claimer: winner.account });
      expect(await claimerListItems(loser.account, id)).toEqual([]);
      const titled = (items: Record<string, unknown>[]) =>
        items.filter((item) => item.story_title === `Two claimers racing, ${winner.handle} lands first`);
      expect(titled(await draftNotifications(winner.account))).toHaveLength(1);
      expect(titled(await draftNotifications(loser.account))).toEqual([]);
    });
  }
});

describe('a claim racing a withdrawal: exactly one lands, in either arrival order', () => {
  it('the withdrawal lands first: the claim is a typed conflict, the draft withdrawn, nobody notified', async () => {
    const { claimUrl, id } = await writtenDraft(app, dana, 'Withdrawal lands before the claim');
    afterNextRead(app.ctx(), () => withdrawDraft(app.ctx(), dana, { draft_id: id }));
    const error = await refusal(claimDraft(app.ctx(), ivy, { claim_url: claimUrl }));
    expect(error).toMatchObject({ code: 'conflict', details: { status: 'withdrawn' } });
    const stored = await storedDraft(app, id);
    expect(stored).toMatchObject({ status: 'withdrawn' });
    expect(stored?.claimer).toBeUndefined();
    expect(await claimerListItems(ivy.account, id)).toEqual([]);
    expect((await draftNotifications(ivy.account)).filter((item) => item.story_title === 'Withdrawal lands before the claim')).toEqual([]);
  });

  it('the claim lands first: the withdrawal is a typed conflict, the draft claimed, the invitee notified once', async () => {
    const { claimUrl, id } = await writtenDraft(app, dana, 'Claim lands before the withdrawal');
    afterNextRead(app.ctx(), () => claimDraft(app.ctx(), ivy, { claim_url: claimUrl }));
    const error = await refusal(withdrawDraft(app.ctx(), dana, { draft_id: id }));
    expect(error).toMatchObject({ code: 'conflict', details: { status: 'claimed' } });
    expect(await storedDraft(app, id)).toMatchObject({ status: 'claimed', claimer: ivy.account });
    expect((await draftNotifications(ivy.account)).filter((item) => item.story_title === 'Claim lands before the withdrawal')).toHaveLength(
      1,
    );
  });

  it('landing one after the other ends as the race does: the first wins, the second is refused and writes nothing', async () => {
    const claimedFirst = await writtenDraft(app, dana, 'Claimed, then withdrawn too late');
    await claimDraft(app.ctx(), ivy, { claim_url: claimedFirst.claimUrl });
    let before = await app.allItems();
    expect((await refusal(withdrawDraft(app.ctx(), dana, { draft_id: claimedFirst.id }))).code).toBe('conflict');
    expect(await app.allItems()).toEqual(before);
    const withdrawnFirst = await writtenDraft(app, dana, 'Withdrawn, then claimed too late');
    await withdrawDraft(app.ctx(), dana, { draft_id: withdrawnFirst.id });
    before = await app.allItems();
    expect((await refusal(claimDraft(app.ctx(), ivy, { claim_url: withdrawnFirst.claimUrl }))).code).toBe('conflict');
    expect(await app.allItems()).toEqual(before);
  });
});

describe('who may claim', () => {
  it('a draft for a handle refuses another account (forbidden, wrong_handle) and writes nothing; that handle claims it', async () => {
    const { claimUrl, id } = await writtenDraft(app, dana, 'Only for ivy', { invitee_handle: '@Ivy.test' });
    const before = await app.allItems();
    const error = await refusal(claimDraft(app.ctx(), bob, { claim_url: claimUrl }));
    expect(error).toMatchObject({ code: 'forbidden', details: { reason: 'wrong_handle', invitee_handle: 'ivy.test' } });
    expect(await app.allItems()).toEqual(before);
    expect((await claimDraft(app.ctx(), ivy, { claim_url: claimUrl })).draft).toMatchObject({ id, status: 'claimed' });
  });

  it('the handle is judged at the claim: its new holder may claim, the account that let it go may not', async () => {
    const { claimUrl } = await writtenDraft(app, dana, 'For a handle that changed hands', { invitee_handle: 'kim.test' });
    const formerHolder = { account: 'acct-kim-before', handle: 'kim-renamed.test' };
    const newHolder = { account: 'acct-kim-now', handle: 'kim.test' };
    expect((await refusal(claimDraft(app.ctx(), formerHolder, { claim_url: claimUrl }))).code).toBe('forbidden');
    expect((await claimDraft(app.ctx(), newHolder, { claim_url: claimUrl })).draft.claimer?.account).toBe(newHolder.account);
  });

  it('the drafter cannot claim their own draft', async () => {
    const { claimUrl } = await writtenDraft(app, dana, 'Claimed by its own drafter');
    const before = await app.allItems();
    expect(await refusal(claimDraft(app.ctx(), dana, { claim_url: claimUrl }))).toMatchObject({
      code: 'forbidden',
      details: { reason: 'drafter' },
    });
    expect(await app.allItems()).toEqual(before);
  });

  it('an unknown link is not_found and a malformed one validation_failed, writing nothing', async () => {
    const before = await app.allItems();
    expect((await refusal(claimDraft(app.ctx(), ivy, { token: `lbc_${'A'.repeat(43)}` }))).code).toBe('not_found');
    expect((await refusal(claimDraft(app.ctx(), ivy, { claim_url: 'https://example.com/claim/nope' }))).code).toBe('validation_failed');
    expect((await refusal(claimDraft(app.ctx(), ivy, {}))).code).toBe('validation_failed');
    expect(await app.allItems()).toEqual(before);
  });
});

describe('decline_draft is safe to deliver twice', () => {
  it('the same decline twice answers the same and writes nothing the second time; nobody can claim it after', async () => {
    const { claimUrl, id } = await writtenDraft(app, dana, 'Declined twice');
    const first = await declineDraft(app.ctx(), ivy, { claim_url: claimUrl });
    expect(first.draft).toMatchObject({ id, status: 'declined' });
    const before = await app.allItems();
    expect(await declineDraft(app.ctx(), ivy, { claim_url: claimUrl })).toEqual(first);
    expect(await app.allItems()).toEqual(before);
    expect(await refusal(claimDraft(app.ctx(), ivy, { claim_url: claimUrl }))).toMatchObject({
      code: 'conflict',
      details: { status: 'declined' },
    });
  });

  it('16 parallel declines decline once and all answer the same', async () => {
    const { claimUrl, id } = await writtenDraft(app, dana, 'Declined sixteen times at once');
    const answers = await Promise.all(Array.from({ length: 16 }, () => declineDraft(app.ctx(), ivy, { claim_url: claimUrl })));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(answers[0]?.draft.status).toBe('declined');
    expect(await storedDraft(app, id)).toMatchObject({ status: 'declined', closed_at: expect.any(String) });
  });

  it('an op_id replay after another change answers the first decline and changes nothing', async () => {
    const { claimUrl } = await writtenDraft(app, dana, 'Decline replayed later');
    const first = await declineDraft(app.ctx(), ivy, { claim_url: claimUrl, op_id: 'op-decline-1' });
    await writtenDraft(app, dana, 'Another draft in between');
    const before = await app.allItems();
    expect(await declineDraft(app.ctx(), ivy, { claim_url: claimUrl, op_id: 'op-decline-1' })).toEqual({ ...first, replayed: true });
    expect(await app.allItems()).toEqual(before);
  });

  it('a claimed draft cannot be declined', async () => {
    const { claimUrl } = await writtenDraft(app, dana, 'Claimed, then declined');
    await claimDraft(app.ctx(), ivy, { claim_url: claimUrl });
    const before = await app.allItems();
    expect(await refusal(declineDraft(app.ctx(), bob, { claim_url: claimUrl }))).toMatchObject({
      code: 'conflict',
      details: { status: 'claimed' },
    });
    expect(await app.allItems()).toEqual(before);
  });
});

describe('withdraw_draft is safe to deliver twice', () => {
  it('the same withdrawal twice answers the same and writes nothing the second time', async () => {
    const { id } = await writtenDraft(app, dana, 'Withdrawn twice');
    const first = await withdrawDraft(app.ctx(), dana, { draft_id: id });
    expect(first.draft).toMatchObject({ id, status: 'withdrawn' });
    const before = await app.allItems();
    expect(await withdrawDraft(app.ctx(), dana, { draft_id: id })).toEqual(first);
    expect(await app.allItems()).toEqual(before);
  });

  it('16 parallel withdrawals withdraw once and all answer the same', async () => {
    const { id } = await writtenDraft(app, dana, 'Withdrawn sixteen times at once');
    const answers = await Promise.all(Array.from({ length: 16 }, () => withdrawDraft(app.ctx(), dana, { draft_id: id })));
    for (const answer of answers) expect(answer).toEqual(answers[0]);
    expect(await storedDraft(app, id)).toMatchObject({ status: 'withdrawn' });
  });

  it('an op_id replay after another change answers the first withdrawal and changes nothing', async () => {
    const { id } = await writtenDraft(app, dana, 'Withdrawal replayed later');
    const first = await withdrawDraft(app.ctx(), dana, { draft_id: id, op_id: 'op-withdraw-1' });
    await writtenDraft(app, dana, 'Yet another draft in between');
    const before = await app.allItems();
    expect(await withdrawDraft(app.ctx(), dana, { draft_id: id, op_id: 'op-withdraw-1' })).toEqual({ ...first, replayed: true });
    expect(await app.allItems()).toEqual(before);
  });

  it("someone else's draft answers not_found and is left alone", async () => {
    const { id } = await writtenDraft(app, dana, 'Withdrawn by a stranger');
    const before = await app.allItems();
    expect((await refusal(withdrawDraft(app.ctx(), bob, { draft_id: id }))).code).toBe('not_found');
    expect((await refusal(withdrawDraft(app.ctx(), dana, { draft_id: 'not-an-id' }))).code).toBe('validation_failed');
    expect(await app.allItems()).toEqual(before);
  });
});

describe('an expired claim link', () => {
  it('is refused (conflict, expired) 30 days on, writing nothing, and lists as expired', async () => {
    const { claimUrl, id } = await writtenDraft(app, dana, 'Claimed too late');
    app.advance(30 * DAY_MS + 1000);
    const before = await app.allItems();
    const error = await refusal(claimDraft(app.ctx(), ivy, { claim_url: claimUrl }));
    expect(error).toBeInstanceOf(LorebookError);
    expect(error).toMatchObject({ code: 'conflict', retryable: false, details: { status: 'expired' } });
    expect((await refusal(declineDraft(app.ctx(), ivy, { claim_url: claimUrl }))).details).toMatchObject({ status: 'expired' });
    expect(await app.allItems()).toEqual(before);
    const { listDrafts } = await import('../../../src/app/drafts/list-drafts.ts');
    expect((await listDrafts(app.ctx(), dana, { draft_id: id })).drafts[0]?.status).toBe('expired');
  });
});
