// flag_story — a reader's report that a story breaks the rules (docs/moderation.md, design.md#flags-quarantine).
// One flag per (story, account), the latest replaces; never on one's own story; at most
// LOREBOOK_MAX_OPEN_FLAGS open at once per account. A flag from an established account counts:
// META's counted flags move conditioned on the count read, and the flag that brings them to
// LOREBOOK_QUARANTINE_FLAGS holds the story for review in that same update, so 16 parallel
// flags cross the threshold once. An identical flag writes nothing and answers the same.
import { forbidden, LorebookError, validationFailed } from '../domain/errors.ts';
import { fingerprint } from '../domain/fingerprint.ts';
import { normaliseText } from '../domain/free-text.ts';
import { parseOpId } from '../domain/op-id.ts';
import { parseSlug } from '../domain/story/slug.ts';
import type { WriteAction } from '../store/actions.ts';
import { and } from '../store/condition.ts';
import { noteReportOn } from '../store/identity/account/index-items.ts';
import { accountKey, storyKey } from '../store/keys.ts';
import { type ItemsByKey, pick } from '../store/read-items.ts';
import { checkItem, createItem, replaceItem } from '../store/replace-by-key.ts';
import { listed } from '../store/story/announce/items.ts';
import {
  addOpenFlag,
  changeFlaggerReason,
  countedFlagsOf,
  countFlagger,
  type FlagReason,
  flagAsRead,
  flagCountAsRead,
  flagKey,
  openFlagsKey,
  openFlagsOf,
  type StoryFlag,
  sameFlag,
  startOpenFlags,
  storyFlagItem,
  toStoryFlag,
} from '../store/story/flag-items.ts';
import { type StoryMeta, storyMetaOf } from '../store/story/story-items.ts';
import { updateItem } from '../store/update-item.ts';
import { visibleStory } from './caller/story-access.ts';
import type { AppContext, Caller } from './context/app-context.ts';
import { recordModeration } from './context/metrics.ts';
import { FLAG_STORY_TOOL, type FlagOutcome, type FlagStoryInput, flagStoryInputSchema } from './flag-story.contract.ts';
import { parseWriteInput } from './input/parse-write-input.ts';
import { countsTowardQuarantine } from './moderation/established.ts';
import { quarantine } from './moderation/quarantine.ts';
import { announceAfterCommit } from './write/announce-after-commit.ts';
import { type Replayed, type WritePlan, writeOnce } from './write/write-once.ts';

type FlagRequest = Pick<StoryFlag, 'reason' | 'duplicate_of' | 'note'>;

export async function flagStory(ctx: AppContext, caller: Caller, raw: unknown): Promise<Replayed<FlagOutcome>> {
  const input = await parseWriteInput(flagStoryInputSchema, raw, FLAG_STORY_TOOL, ctx);
  const opId = input.op_id === undefined ? undefined : parseOpId(input.op_id);
  const slug = parseSlug(input.slug);
  const request: FlagRequest = { reason: input.reason, duplicate_of: duplicateOf(input, slug), note: normaliseText(input.note) };
  const key = flagKey(slug, caller.account);

  /** Whether the committed plan is the one that held the story (the plan runs again after a conflict). */
  const held = { quarantined: false };
  const answer = announceAfterCommit(
    ctx,
    await writeOnce(ctx, {
      tool: FLAG_STORY_TOOL,
      caller,
      opId,
      fingerprint: fingerprint(FLAG_STORY_TOOL, {
        slug,
        reason: request.reason,
        duplicate_of: request.duplicate_of ?? null,
        note: request.note ?? null,
      }),
      // writeOnce reads the caller's account item in the same snapshot: its age decides `counted`.
      reads: [storyKey(slug), key, openFlagsKey(caller.account)],
      plan(read, { now }): WritePlan<FlagOutcome> {
        held.quarantined = false;
        const stored = pick(read, key);
        const existing = stored === undefined ? undefined : toStoryFlag(stored);
        // @NOTE an identical repeat answers from the flag before looking at the story: this very
        // flag (or another) may have held the story since, and a retry must answer as the first did.
        if (existing !== undefined && sameFlag(existing, request)) {
          return { outcome: outcome(slug, existing), actions: [], guards: [checkItem(key, flagAsRead(existing))] };
        }
        const meta = visibleStory(storyMetaOf(read, slug), slug, caller);
        if (meta.author === caller.account) throw ownStoryRefused(slug);
        const at = new Date(now).toISOString();
        if (existing !== undefined) return planChangedFlag(meta, existing, { ...existing, ...request, at });
        const counted = countsTowardQuarantine({
          account: caller.account,
          accountItem: pick(read, accountKey(caller.account)),
          author: meta.author,
          now,
          newAccountHours: ctx.config.newAccountHours,
        });
        return planFirstFlag(ctx, read, meta, { slug, account: caller.account, ...request, counted, at }, held);
      },
    }),
  );
  if (answer.replayed !== true) recordModeration(ctx, 'flag');
  if (held.quarantined) recordModeration(ctx, 'quarantine');
  return answer;
}

function planFirstFlag(
  ctx: AppContext,
  read: ItemsByKey,
  meta: StoryMeta,
  flag: StoryFlag,
  held: { quarantined: boolean },
): WritePlan<FlagOutcome> {
  const openItem = pick(read, openFlagsKey(flag.account));
  const open = openFlagsOf(openItem);
  // Checked here from what was read; addOpenFlag's own cap condition closes the race past it.
  if (open.size >= ctx.config.maxOpenFlags && !open.has(flag.slug)) throw tooManyOpenFlags(ctx.config.maxOpenFlags);
  const actions: WriteAction[] = [createItem(storyFlagItem(flag)), noteReportOn(flag.account, flag.slug)];
  if (openItem === undefined) actions.push(startOpenFlags(flag.account, flag.slug));
  else if (!open.has(flag.slug)) actions.push(addOpenFlag(flag.account, flag.slug, ctx.config.maxOpenFlags));
  if (flag.counted) actions.push(...countFlag(ctx, meta, flag, held));
  return { outcome: outcome(flag.slug, flag), actions, guards: [] };
}

/**
 * Counts the flagger on META, conditioned on the count read and on the story still listed; the
 * flag that reaches the threshold also holds the story, in the same update.
 */
function countFlag(ctx: AppContext, meta: StoryMeta, flag: StoryFlag, held: { quarantined: boolean }): WriteAction[] {
  const read = countedFlagsOf(meta);
  const counting = countFlagger(read, flag.account, flag.reason);
  const guard = and(flagCountAsRead(read), listed);
  const flags = read.count + 1;
  if (flags < ctx.config.quarantineFlags || meta.moderation !== undefined) {
    return [updateItem(storyKey(meta.slug), counting, guard)];
  }
  const reasons: FlagReason[] = [...Object.values(read.reasons), flag.reason];
  const hold = quarantine(meta, reasons, flags, flag.at);
  held.quarantined = true;
  return [updateItem(storyKey(meta.slug), { ...counting, set: hold.set, remove: hold.remove }, and(guard, hold.condition)), ...hold.puts];
}

function planChangedFlag(meta: StoryMeta, existing: StoryFlag, changed: StoryFlag): WritePlan<FlagOutcome> {
  const actions: WriteAction[] = [replaceItem(storyFlagItem(changed), flagAsRead(existing))];
  if (changed.counted && changed.reason !== existing.reason) {
    actions.push(changeFlaggerReason(storyKey(meta.slug), changed.account, existing.reason, changed.reason));
  }
  return { outcome: outcome(meta.slug, changed), actions, guards: [] };
}

function outcome(slug: string, flag: Pick<StoryFlag, 'reason' | 'duplicate_of' | 'counted'>): FlagOutcome {
  return {
    slug,
    reason: flag.reason,
    ...(flag.duplicate_of === undefined ? {} : { duplicate_of: flag.duplicate_of }),
    counted: flag.counted,
  };
}

/** `duplicate_of` comes with reason `duplicate` and only then, and names another story. */
function duplicateOf(input: Pick<FlagStoryInput, 'reason' | 'duplicate_of'>, slug: string): string | undefined {
  if (input.reason !== 'duplicate') {
    if (input.duplicate_of === undefined) return undefined;
    throw validationFailed('duplicate_of goes only with reason "duplicate".', {
      duplicate_of: 'Leave duplicate_of out, or use reason "duplicate" when the story repeats another one.',
    });
  }
  if (input.duplicate_of === undefined) {
    throw validationFailed('A duplicate flag names the original story.', {
      duplicate_of: 'Give the slug of the story this one repeats (search_stories finds it).',
    });
  }
  const original = parseSlug(input.duplicate_of);
  if (original === slug) {
    throw validationFailed('A story cannot duplicate itself.', { duplicate_of: 'Give the slug of the other, original story.' });
  }
  return original;
}

function ownStoryRefused(slug: string): LorebookError {
  return forbidden(
    `"${slug}" is your own story, so you cannot flag it. To take it out of the feeds, use set_visibility with hidden: true.`,
    {
      slug,
    },
  );
}

function tooManyOpenFlags(max: number): LorebookError {
  return new LorebookError(
    'conflict',
    `You already have ${max} open flags, the most one account may have at once. Nothing was flagged. Withdraw one you no longer need with unflag_story, then flag again; retrying as it is will not change this.`,
    { retryable: false, details: { reason: 'open_flag_limit', max_open_flags: max } },
  );
}
