// Which capability categories a reader's scan of what it ran shows that the published report does
// not (added), and the other way round (removed): the short answer to "what changed?" when the
// hashes differ (docs/capability.md, "Drift").
import { CATEGORY_TIERS, type Category } from './categories.ts';

const CATEGORY_ORDER = Object.keys(CATEGORY_TIERS) as Category[];

/** The distinct categories of some findings, most serious first (the order of CATEGORY_TIERS). */
export function categoriesOf(findings: Iterable<{ category: Category }>): Category[] {
  const seen = new Set<Category>();
  for (const found of findings) seen.add(found.category);
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
