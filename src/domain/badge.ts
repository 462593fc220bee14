// What a badge says (docs/api.md "Badges"): a label, a message and a colour, from counts and a tier
// only. No caller-controlled string (a title, a slug, a handle) ever reaches a badge, so an
// embedded badge cannot be made to say or carry anything its owner did not earn.
import type { Tier } from './capability/categories.ts';

export interface BadgeSpec {
  label: string;
  message: string;
  /** A shields.io colour name. */
  color: string;
}

/**
 * The tier's colour: how hard a reader should look before running the steps. T0 and T1 (nothing,
 * or local runs and file writes) are the greens, network is yellow, the T3 categories orange,
 * remote execution and obfuscation red; a story never scanned is grey, as nothing is claimed.
 */
export const TIER_COLORS = {
  T0: 'brightgreen',
  T1: 'green',
  T2: 'yellow',
  T3: 'orange',
  T4: 'red',
} as const satisfies Record<Tier, string>;

export const UNSCANNED_COLOR = 'lightgrey';

export const CHANGED_SINCE_PUBLISH = 'changed since publish';

/** One badge for every story or author that cannot be shown, so a hidden story looks exactly like none. */
export const NOT_FOUND_BADGE: BadgeSpec = { label: 'lorebook', message: 'not found', color: 'lightgrey' };

/**
 * "reproduced N×": N counts the worked reproductions lorebook counts (the author's own never does),
 * not the tries, since a badge in a README advertises that the story worked for others. The tier
 * is written next to N as well as coloured, for a reader who cannot tell the colours apart.
 * A story marked changed since publish says so after the tier, in red.
 */
export function storyBadge(facts: { worked: number; tier: Tier | null; changed?: boolean }): BadgeSpec {
  const count = `${facts.worked}×`;
  if (facts.tier === null) return { label: 'reproduced', message: count, color: UNSCANNED_COLOR };
  const tiered = `${count} · ${facts.tier}`;
  // Changed since publish (design.md#drift): readers ran steps that are not the text the tier describes,
  // which is what T4 warns of, so it takes T4's colour; the tier stays written for what was reviewed.
  if (facts.changed === true) return { label: 'reproduced', message: `${tiered} · ${CHANGED_SINCE_PUBLISH}`, color: TIER_COLORS.T4 };
  return { label: 'reproduced', message: tiered, color: TIER_COLORS[facts.tier] };
}

/** "worked for N people": the sum the author page shows, of each story's counted worked reproductions. */
export function authorBadge(worked: number): BadgeSpec {
  return { label: 'worked for', message: `${worked} ${worked === 1 ? 'person' : 'people'}`, color: worked > 0 ? 'blue' : UNSCANNED_COLOR };
}

/**
 * "capability T2": the tier of a scanned text (a skill, a contract) by its hash, coloured as a
 * story badge's tier. The tier is all it says: a badge cannot carry the findings, and the reader
 * checks them with check_capability on the text itself.
 */
export function capabilityBadge(tier: Tier): BadgeSpec {
  return { label: 'capability', message: tier, color: TIER_COLORS[tier] };
}
