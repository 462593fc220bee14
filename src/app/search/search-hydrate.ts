// A page of search results as readers see them: the ranked slugs' METAs read now (one projected
// BatchGetItem, without the parts of META a summary never shows, such as `similar` or the
// announce bookkeeping), so a story hidden, made private or deleted since the index last saw it never shows, and counts
// are current. Handles come in one more BatchGetItem, as for the feed.
import { storyKey } from '../../store/keys.ts';
import { pick, readItems } from '../../store/read-items.ts';
import { isListedPublicly, toStoryMeta } from '../../store/story/story-items.ts';
import { handlesFor } from '../account/accounts.ts';
import type { AppContext } from '../context/app-context.ts';
import type { StorySummary } from '../contract/story-shapes.ts';
import { presentSummary } from '../queries/present-story.ts';

const SUMMARY_ATTRIBUTES = [
  'PK',
  'SK',
  'expires_at',
  'slug',
  'title',
  'summary',
  'author',
  'date',
  'published_at',
  'tags',
  'stack',
  'type',
  'status',
  'has_check',
  'counts',
  'reproducers',
  'capability',
  'visibility',
  'hidden',
] as const;

export interface Hydrated {
  /** The listed ones, in the slugs' order. */
  stories: StorySummary[];
  /** Slugs the index holds that are not listed now. */
  unlisted: string[];
}

export async function hydrateSummaries(ctx: AppContext, slugs: readonly string[]): Promise<Hydrated> {
  if (slugs.length === 0) return { stories: [], unlisted: [] };
  const items = await readItems(
    ctx.store,
    slugs.map((slug) => storyKey(slug)),
    { attributes: SUMMARY_ATTRIBUTES },
  );
  const metas = [];
  const unlisted: string[] = [];
  for (const slug of slugs) {
    const item = pick(items, storyKey(slug));
    const meta = item === undefined ? undefined : toStoryMeta(item);
    if (meta !== undefined && isListedPublicly(meta.visibility, meta.hidden)) metas.push(meta);
    else unlisted.push(slug);
  }
  const handles = await handlesFor(
    ctx,
    metas.map((meta) => meta.author),
  );
  return { stories: metas.map((meta) => presentSummary(meta, handles, undefined)), unlisted };
}
