// draft_story_for — an agent that helped someone writes the story for them (docs/design.md §12).
// The markdown is parsed and validated exactly as a publish is (the parse worker); the draft,
// the drafter's list item and the day's count are written in one transaction, and the answer
// carries the single-use claim URL, whose token the store never holds: only its sha256 (the
// draft's key). With an op_id the token is derived from it (claim-token.ts), so a second
// delivery answers the same claim URL from the op record; without one every call is a new draft.
import { handleSchema } from '../../auth/handle.ts';
import { claimDeadline, MAX_DRAFTS_PER_DAY, openDraftExpiry } from '../../domain/draft/draft-rules.ts';
import {
  claimOpKey,
  claimPath,
  derivedClaimToken,
  draftIdFor,
  newClaimSalt,
  newClaimToken,
} from '../../domain/draft/claim-token.ts';
import { LorebookError, validationFailed } from '../../domain/errors.ts';
import { fingerprint } from '../../domain/fingerprint.ts';
import { normaliseText } from '../../domain/free-text.ts';
import { parseOpId } from '../../domain/op-id.ts';
import { newDraftItems, type Draft } from '../../store/draft/draft-items.ts';
import { countCallAction, rateWindowKey } from '../../store/rate-window.ts';
import { pick } from '../../store/read-items.ts';
import { epochSeconds } from '../../store/store.ts';
import type { AppContext, Caller } from '../app-context.ts';
import { parseInput } from '../parse-input.ts';
import { parseStoryOffloaded } from '../parse-story-task.ts';
import { writeOnce, type Replayed, type WritePlan } from '../write-once.ts';
import {
  DRAFT_STORY_FOR_TOOL,
  draftStoryForInputSchema,
  type DraftStoryForOutcome,
  type StoredDraftCreation,
} from './draft-story-for.contract.ts';
import { draftRecord, presentDraft } from './draft-view.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export async function draftStoryFor(ctx: AppContext, caller: Caller, raw: unknown): Promise<Replayed<DraftStoryForOutcome>> {
  const input = parseInput(draftStoryForInputSchema, raw, DRAFT_STORY_FOR_TOOL);
  const opId = input.op_id === undefined ? undefined : parseOpId(input.op_id);
  const note = normaliseText(input.invitee_note);
  if (note === undefined) {
    throw validationFailed('The note to the invitee is empty.', {
      invitee_note: 'Say in a sentence or two what you drafted for them and why; it is shown with the draft.',
    });
  }
  const inviteeHandle = input.invitee_handle === undefined ? undefined : parseInviteeHandle(input.invitee_handle);
  const story = await parseStoryOffloaded({ markdown: input.markdown });

  const salt = opId === undefined ? undefined : newClaimSalt();
  const token = salt === undefined || opId === undefined ? newClaimToken() : derivedClaimToken(salt, caller.account, opId);
  const dayStart = Math.floor(ctx.store.now() / DAY_MS) * DAY_MS;
  const day = { subject: `drafts:${caller.account}`, windowStartMs: dayStart, limit: MAX_DRAFTS_PER_DAY, expiresAt: epochSeconds(dayStart + 2 * DAY_MS) };
  const dayKey = rateWindowKey(day.subject, day.windowStartMs);

  const stored = await writeOnce<StoredDraftCreation>(ctx, {
    tool: DRAFT_STORY_FOR_TOOL,
    caller,
    opId: opId === undefined ? undefined : claimOpKey(opId),
    fingerprint: fingerprint(DRAFT_STORY_FOR_TOOL, { markdown: story.markdown, invitee_note: note, invitee_handle: inviteeHandle ?? null }),
    reads: [dayKey],
    plan(read, { now }): WritePlan<StoredDraftCreation> {
      if (Number(pick(read, dayKey)?.count ?? 0) >= MAX_DRAFTS_PER_DAY) throw tooManyDrafts(dayStart + DAY_MS - now);
      const claimUntil = claimDeadline(epochSeconds(now));
      const draft: Draft = {
        id: draftIdFor(token),
        drafter: caller.account,
        drafter_handle: caller.handle,
        title: story.frontMatter.title,
        markdown: story.markdown,
        content_hash: story.contentHash,
        invitee_note: note,
        ...(inviteeHandle === undefined ? {} : { invitee_handle: inviteeHandle }),
        status: 'open',
        created_at: new Date(now).toISOString(),
        claim_until: claimUntil,
      };
      return {
        outcome: { draft: draftRecord(draft), ...(salt === undefined ? {} : { claim_salt: salt }) },
        // The count's own condition holds the limit when drafts of one account land together.
        actions: [...newDraftItems(draft, openDraftExpiry(claimUntil)), countCallAction(day)],
        guards: [],
      };
    },
  }).catch((error: unknown) => {
    throw namedOpId(error, opId);
  });

  // A replay answers the token its first delivery derived, from the salt that delivery drew.
  const claimToken = stored.claim_salt !== undefined && opId !== undefined ? derivedClaimToken(stored.claim_salt, caller.account, opId) : token;
  return {
    draft: await presentDraft(ctx, stored.draft),
    claim_url: `${ctx.config.publicBaseUrl}${claimPath(claimToken)}`,
    ...(stored.replayed === true ? { replayed: true as const } : {}),
  };
}

function parseInviteeHandle(raw: string): string {
  const parsed = handleSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw validationFailed('invitee_handle is not a handle.', {
    invitee_handle: `${parsed.error.issues[0]?.message ?? 'not a handle'}: send their Bluesky handle, e.g. "alice.bsky.social", or leave it out.`,
  });
}

function tooManyDrafts(retryAfterMs: number): LorebookError {
  return new LorebookError(
    'rate_limited',
    `You have written ${MAX_DRAFTS_PER_DAY} drafts for others today (UTC), the most one account may. Nothing was written; draft again after retry_after_ms.`,
    { retryAfterMs: Math.max(1, retryAfterMs), details: { limit: MAX_DRAFTS_PER_DAY, per: 'day' } },
  );
}

/** The op record is keyed by the op_id's hash; a reused op_id is named as the caller sent it. */
function namedOpId(error: unknown, opId: string | undefined): unknown {
  if (!(error instanceof LorebookError) || error.code !== 'idempotency_key_reused' || opId === undefined) return error;
  return new LorebookError(
    'idempotency_key_reused',
    `op_id "${opId}" was already used for a different ${DRAFT_STORY_FOR_TOOL} call. An op_id names one request: replay it with exactly the same arguments, or use a new op_id for a new draft.`,
    { details: { op_id: opId, tool: DRAFT_STORY_FOR_TOOL } },
  );
}
