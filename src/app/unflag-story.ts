// unflag_story — withdraws the caller's flag on a story (docs/moderation.md): a conditional delete
// naming the flag it read, with its count taken back and its place among the account's open flags
// freed in the same transaction. A story already held for review stays held: only an operator
// restores it. No flag to withdraw answers exactly as a withdrawal does, whatever the story, so a
// retry cannot tell it was a retry and the answer tells nothing about a story the caller cannot see.
import { fingerprint } from '../domain/fingerprint.ts';
import { parseOpId } from '../domain/op-id.ts';
import { parseSlug } from '../domain/story/slug.ts';
import type { WriteAction } from '../store/actions.ts';
import { storyKey } from '../store/keys.ts';
import { pick } from '../store/read-items.ts';
import { checkItem, deleteItemIf } from '../store/replace-by-key.ts';
import { flagAsRead, flagKey, openFlagsKey, openFlagsOf, removeOpenFlag, toStoryFlag, uncountFlagger } from '../store/story/flag-items.ts';
import { nothingReported } from '../store/story/report-items.ts';
import { storyMetaOf } from '../store/story/story-items.ts';
import type { AppContext, Caller } from './context/app-context.ts';
import { parseWriteInput } from './input/parse-write-input.ts';
import { UNFLAG_STORY_TOOL, type UnflagOutcome, unflagStoryInputSchema } from './unflag-story.contract.ts';
import { type Replayed, type WritePlan, writeOnce } from './write/write-once.ts';

export async function unflagStory(ctx: AppContext, caller: Caller, raw: unknown): Promise<Replayed<UnflagOutcome>> {
  const input = await parseWriteInput(unflagStoryInputSchema, raw, UNFLAG_STORY_TOOL, ctx);
  const opId = input.op_id === undefined ? undefined : parseOpId(input.op_id);
  const slug = parseSlug(input.slug);
  const key = flagKey(slug, caller.account);

  return writeOnce(ctx, {
    tool: UNFLAG_STORY_TOOL,
    caller,
    opId,
    fingerprint: fingerprint(UNFLAG_STORY_TOOL, { slug }),
    reads: [storyKey(slug), key, openFlagsKey(caller.account)],
    plan(read): WritePlan<UnflagOutcome> {
      const outcome: UnflagOutcome = { slug, withdrawn: true };
      const stored = pick(read, key);
      if (stored === undefined) return { outcome, actions: [], guards: [checkItem(key, nothingReported)] };
      const flag = toStoryFlag(stored);
      const actions: WriteAction[] = [deleteItemIf(key, flagAsRead(flag))];
      if (openFlagsOf(pick(read, openFlagsKey(caller.account))).has(slug)) actions.push(removeOpenFlag(caller.account, slug));
      // A story deleted since (its author's account deletion) took its counts with it.
      const meta = storyMetaOf(read, slug);
      if (flag.counted && meta?.flaggers?.[caller.account] !== undefined) actions.push(uncountFlagger(storyKey(slug), caller.account));
      return { outcome, actions, guards: [] };
    },
  });
}
