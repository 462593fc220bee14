// Which capability categories a reader's scan of what it ran shows that the published report does
// not (added), and the other way round (removed): the short answer to "what changed?" when the
// hashes differ (docs/capability.md, "Drift").
import { CATEGORY_TIERS, type Category } from './categories.ts';

const CATEGORY_ORDER = Object.keys(CATEGORY_TIERS) as Category[];

/**
 * The distinct categories of some findings of the steps, most serious first (the order of
 * CATEGORY_TIERS). Findings of section `story` (the narrative around the steps) are left out:
 * they say nothing about what was run, and a reader scanning only what it ran has none.
 */
export function categoriesOf(findings: Iterable<{ category: Category; section?: string }>): Category[] {
  const seen = new Set<Category>();
  for (const found of findings) if (found.section !== 'story') seen.add(found.category);
  return CATEGORY_ORDER.filter((category) => seen.has(category));
}

export interface CategoryDrift {
  added: Category[];
  removed: Category[];
}

export function categoryDrift(published: readonly Category[], ran: readonly Category[]): CategoryDrift {
  return {
    added: ran.filter((category) => !published.includes(category)),
    removed: published.filter((category) => !ran.includes(category)),
  };
}
