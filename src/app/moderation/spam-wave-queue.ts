// The spam waves on the operators' queue (design.md#spam-waves, docs/moderation.md "Spam waves"): the
// refusal records (`DUPWAVE#<day>`) of the days they are kept, one entry per original with its
// refused copies together, newest wave first. Nothing here is a body: the records hold none.
import { type DuplicateRefusal, listDuplicateRefusals, REFUSAL_KEPT_DAYS } from '../../store/near-duplicate/duplicate-refusal-items.ts';
import type { AppContext } from '../context/app-context.ts';

/** One wave: the story its copies repeat, and every copy refused. */
export interface SpamWaveEntry {
  kind: 'spam_wave';
  /** The original's slug: the listed story the copies repeat. */
  slug: string;
  /** The latest refusal: the wave sorts by its newest copy. */
  at: string;
  /** The first refusal. */
  first_at: string;
  copies: number;
  /** The distinct accounts refused, in the order they first were. */
  accounts: string[];
  /** The refused copies, newest first (the slug and title they would have had, never a body). */
  refused: Omit<DuplicateRefusal, 'original' | 'content_hash'>[];
}

/** Groups refusals by original; waves and their copies newest first. */
export function spamWaveEntries(refusals: readonly DuplicateRefusal[]): SpamWaveEntry[] {
  const byOriginal = new Map<string, DuplicateRefusal[]>();
  for (const refusal of refusals) byOriginal.set(refusal.original, [...(byOriginal.get(refusal.original) ?? []), refusal]);
  const waves = [...byOriginal].map(([original, copies]): SpamWaveEntry => {
    const oldestFirst = copies.toSorted((a, b) => a.refused_at.localeCompare(b.refused_at));
    return {
      kind: 'spam_wave',
      slug: original,
      at: (oldestFirst.at(-1) as DuplicateRefusal).refused_at,
      first_at: (oldestFirst[0] as DuplicateRefusal).refused_at,
      copies: copies.length,
      accounts: [...new Set(oldestFirst.map((copy) => copy.account))],
      refused: oldestFirst.toReversed().map(({ account, slug, title, refused_at }) => ({ account, slug, title, refused_at })),
    };
  });
  return waves.sort((a, b) => b.at.localeCompare(a.at));
}

/** The waves of the days refusals are kept (one Query per UTC day, at once), newest first. */
export async function spamWaveQueue(ctx: AppContext, limit: number): Promise<SpamWaveEntry[]> {
  const now = ctx.store.now();
  const days = Array.from({ length: REFUSAL_KEPT_DAYS }, (_, back) => new Date(now - back * 86_400_000).toISOString().slice(0, 10));
  const refusals = (await Promise.all(days.map((day) => listDuplicateRefusals(ctx.store, day)))).flat();
  return spamWaveEntries(refusals).slice(0, limit);
}
