// The draft writes (design.md#drafts) under a crash at every store step: draft_story_for, claim_draft
// and publish_draft, each retried with the same input, end in the state of one clean call. Each
// fresh table draws its own claim salt, so the salt, the draft id and the claim token (all from
// the salt) are compared as placeholders.

import type { AppContext } from '../../src/app/context/app-context.ts';
import { claimDraft } from '../../src/app/drafts/claim-draft.ts';
import { draftStoryFor } from '../../src/app/drafts/draft-story-for.ts';
import { publishDraft } from '../../src/app/drafts/publish-draft.ts';
import { derivedClaimToken } from '../../src/domain/draft/claim-token.ts';
import { caller } from '../helpers/app-fixture.ts';
import { storyTitled } from '../helpers/stories.ts';
import { crashPoints } from './crash-points.ts';

const alice = caller('alice');
const bob = caller('bob');
const DRAFT_KEY = 'crash-draft-key-0001';
const NOTE = 'I wrote up what we fixed together yesterday.';
/** The write, then the answer's read of the draft's people (handles). */
const WRITE_THEN_VIEW = ['TransactGetItems', 'TransactWriteItems', 'BatchGetItem'];
/** The draft read for its markdown, then publish_story's own read and write. */
const READ_THEN_PUBLISH = ['GetItem', 'TransactGetItems', 'TransactWriteItems'];

/**
 * The claim salt of the one draft in the table, the draft id and the claim token it gives, and
 * what is hashed from the draft id: the digest naming the claimer's notification, and the
 * fingerprint of an op record (claim_draft's and publish_draft's name the draft by its id).
 */
function draftSecrets(items: readonly Record<string, unknown>[]): string[] {
  const keyItem = items.find((item) => typeof item.claim_salt === 'string');
  if (keyItem === undefined) return [];
  const salt = String(keyItem.claim_salt);
  const id = String((keyItem.draft as { id: string }).id);
  const notified = items.filter((item) => String(item.PK).startsWith('INBOX#')).map((item) => String(item.SK).split('#').at(-1) ?? '');
  const fingerprints = items.filter((item) => String(item.PK).startsWith('OP#')).map((item) => String(item.fingerprint));
  return [salt, id, derivedClaimToken(salt, alice.account, DRAFT_KEY), ...notified, ...fingerprints];
}

const draftFor = (ctx: AppContext, title: string, opId?: string) =>
  draftStoryFor(ctx, alice, { markdown: storyTitled(title), invitee_note: NOTE, draft_key: DRAFT_KEY, op_id: opId });

crashPoints({
  name: 'draft_story_for, a first draft',
  setup: async () => undefined,
  call: (ctx, _given, opId) => draftFor(ctx, 'Crash first draft', opId),
  steps: { plain: WRITE_THEN_VIEW, withOpId: WRITE_THEN_VIEW },
  drawnAtRandom: draftSecrets,
});

crashPoints({
  name: 'claim_draft, an open draft',
  setup: async ({ ctx }) => (await draftFor(ctx, 'Crash claimed draft')).claim_url,
  call: (ctx, claimUrl, opId) => claimDraft(ctx, bob, { claim_url: claimUrl, op_id: opId }),
  steps: { plain: WRITE_THEN_VIEW, withOpId: WRITE_THEN_VIEW },
  drawnAtRandom: draftSecrets,
});

crashPoints({
  name: 'publish_draft, a claimed draft',
  setup: async ({ ctx, tick }) => {
    const { claim_url: claimUrl, draft } = await draftFor(ctx, 'Crash published draft');
    tick();
    await claimDraft(ctx, bob, { claim_url: claimUrl });
    return draft.id;
  },
  call: (ctx, draftId, opId) => publishDraft(ctx, bob, { draft_id: draftId, op_id: opId }),
  steps: { plain: READ_THEN_PUBLISH, withOpId: READ_THEN_PUBLISH },
  drawnAtRandom: draftSecrets,
});
