// draft_story_for — an agent that helped someone writes the story for them (docs/design.md#drafts).
// The markdown is parsed and validated exactly as a publish is (the parse worker). Keyed by the
// drafter and the caller's draft_key: the draft, the drafter's list item, the draft_key item and
// the day's count are written in one transaction, the draft_key item created once. The answer
// carries the single-use claim URL, whose token the store never holds: the draft's key is its
// sha256, and the token is derived from the draft_key and the salt the first delivery drew, so
// a repeat (or 16 at once, or an op_id replay) answers the same claim URL.
import { handleSchema } from '../../auth/handle.ts';
import { claimPath, derivedClaimToken, draftIdFor, draftKeyHash, newClaimSalt } from '../../domain/draft/claim-token.ts';
import { claimDeadline, MAX_DRAFTS_PER_DAY, openDraftExpiry } from '../../domain/draft/draft-rules.ts';
import { LorebookError, validationFailed } from '../../domain/errors.ts';
import { fingerprint } from '../../domain/fingerprint.ts';
import { normaliseText } from '../../domain/free-text.ts';
import { parseOpId } from '../../domain/op-id.ts';
import { type Draft, draftKeyItem, draftKeyItemKey, newDraftItems } from '../../store/draft/draft-items.ts';
import { countCallAction, rateWindowKey } from '../../store/rate-window.ts';
import { pick } from '../../store/read-items.ts';
import { checkItem } from '../../store/replace-by-key.ts';
import { epochSeconds } from '../../store/store.ts';
import type { AppContext, Caller } from '../context/app-context.ts';
import { parseWriteInput } from '../input/parse-write-input.ts';
import { parseStoryOffloaded } from '../story-content/parse-story-task.ts';
import { type Replayed, type WritePlan, writeOnce } from '../write/write-once.ts';
import {
  DRAFT_STORY_FOR_TOOL,
  type DraftStoryForOutcome,
  draftStoryForInputSchema,
  type StoredDraftCreation,
} from './draft-story-for.contract.ts';
import { type DraftRecord, draftRecord, presentDraft } from './draft-view.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export async function draftStoryFor(ctx: AppContext, caller: Caller, raw: unknown): Promise<Replayed<DraftStoryForOutcome>> {
  const input = await parseWriteInput(draftStoryForInputSchema, raw, DRAFT_STORY_FOR_TOOL, ctx);
  const opId = input.op_id === undefined ? undefined : parseOpId(input.op_id);
  const note = normaliseText(input.invitee_note);
  if (note === undefined) {
    throw validationFailed('The note to the invitee is empty.', {
      invitee_note: 'Say in a sentence or two what you drafted for them and why; it is shown with the draft.',
    });
  }
  const inviteeHandle = input.invitee_handle === undefined ? undefined : parseInviteeHandle(input.invitee_handle);
  const story = await parseStoryOffloaded({ markdown: input.markdown }, ctx);
  const print = fingerprint(DRAFT_STORY_FOR_TOOL, {
    markdown: story.markdown,
    invitee_note: note,
    invitee_handle: inviteeHandle ?? null,
    draft_key: input.draft_key,
  });

  // Drawn once: every attempt of this delivery writes the same draft.
  const salt = newClaimSalt();
  const token = derivedClaimToken(salt, caller.account, input.draft_key);
  const keyItemKey = draftKeyItemKey(caller.account, draftKeyHash(input.draft_key));
  const dayStart = Math.floor(ctx.store.now() / DAY_MS) * DAY_MS;
  const day = {
    subject: `drafts:${caller.account}`,
    windowStartMs: dayStart,
    limit: MAX_DRAFTS_PER_DAY,
    expiresAt: epochSeconds(dayStart + 2 * DAY_MS),
  };
  const dayKey = rateWindowKey(day.subject, day.windowStartMs);

  const stored = await writeOnce<StoredDraftCreation>(ctx, {
    tool: DRAFT_STORY_FOR_TOOL,
    caller,
    opId,
    fingerprint: print,
    reads: [keyItemKey, dayKey],
    plan(read, { now }): WritePlan<StoredDraftCreation> {
      const keyed = pick(read, keyItemKey);
      if (keyed !== undefined) {
        if (keyed.fingerprint !== print) throw draftKeyReused();
        // A repeat of this draft_key: the first answer, nothing written.
        return {
          outcome: { draft: keyed.draft as DraftRecord, claim_salt: String(keyed.claim_salt) },
          actions: [],
          guards: [checkItem(keyItemKey, { expression: 'attribute_exists(PK)' })],
        };
      }
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
      const outcome = { draft: draftRecord(draft), claim_salt: salt };
      const expiresAt = openDraftExpiry(claimUntil);
      return {
        outcome,
        // The count's own condition holds the limit when drafts of one account land together.
        actions: [
          ...newDraftItems(draft, expiresAt),
          draftKeyItem(caller.account, draftKeyHash(input.draft_key), { fingerprint: print, ...outcome }, expiresAt),
          countCallAction(day),
        ],
        guards: [],
      };
    },
  });

  // The token of the delivery that wrote the draft, from the salt it drew.
  const claimToken = derivedClaimToken(stored.claim_salt, caller.account, input.draft_key);
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

function draftKeyReused(): LorebookError {
  return new LorebookError(
    'idempotency_key_reused',
    'This draft_key already names another draft of yours (other markdown, note or invitee). A draft_key names one draft: send it again with exactly the same arguments, or make a new one for a new draft.',
    { details: { field: 'draft_key' } },
  );
}
