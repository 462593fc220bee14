// An unban's flag coming back into a story's count (design.md#bans): the flagger joins `flaggers`
// again and `flag_count` is set from the count read, conditioned on it, as flag_story counts a
// flag — so a flag landing in between makes one of the two writes plan again. When the count is
// back at LOREBOOK_QUARANTINE_FLAGS on a listed story never moderated, the same update holds it
// (quarantine.ts), so the hold happens once whichever of the unban and a new flag lands first.
// A story an operator restored is never held again by flags, as with flag_story.
import type { PutAction } from '../../store/actions.ts';
import { and, type Condition } from '../../store/condition.ts';
import { countedFlagsOf, countFlagger, type FlagReason, flagCountAsRead } from '../../store/story/flag-items.ts';
import { isListedPublicly, type StoryMeta } from '../../store/story/story-items.ts';
import type { AppContext } from '../context/app-context.ts';
import { quarantine } from './quarantine.ts';

export interface FlagRecount {
  set: Record<string, unknown>;
  remove: string[];
  setClauses: string[];
  names: Record<string, string>;
  values: Record<string, unknown>;
  condition: Condition;
  /** The author's notification and the review queue's entry, when this recount holds the story. */
  puts: PutAction[];
}

export function recountFlag(ctx: AppContext, meta: StoryMeta, account: string, reason: FlagReason, at: string): FlagRecount {
  const read = countedFlagsOf(meta);
  const counting = countFlagger(read, account, reason);
  const notCounted: Condition = {
    expression: 'attribute_not_exists(#flaggers.#recounted)',
    names: { '#flaggers': 'flaggers', '#recounted': account },
  };
  const guard = and(flagCountAsRead(read), notCounted);
  const flags = read.count + 1;
  const base = { setClauses: [...counting.setClauses], names: counting.names, values: counting.values };
  if (flags < ctx.config.quarantineFlags || meta.moderation !== undefined || !isListedPublicly(meta.visibility, meta.hidden)) {
    return { ...base, set: {}, remove: [], condition: guard, puts: [] };
  }
  const hold = quarantine(meta, [...Object.values(read.reasons), reason], flags, at);
  return { ...base, set: hold.set, remove: hold.remove, condition: and(guard, hold.condition), puts: hold.puts };
}
