// `/feed.atom`: the newest public stories as an Atom 1.0 feed, generated with the `feed` package
// (well kept, writes every element Atom requires). It puts titles and summaries into CDATA as
// `type="html"` and escapes only `&` elsewhere, so every text from the store goes through
// xml-text.ts first. Each entry carries its capability tier as a category. A story "changed since
// publish" says so as the page does (design.md#drift): a category in the same scheme, a first sentence
// in its summary, and its <updated> moved to when it was marked, so a reader shows it again.
// Hidden and private stories are not in the public feed index, and the read pipeline drops any
// lingering entry.
import type { Category } from 'feed';
import type { AppContext } from '../../app/context/app-context.ts';
import type { StorySummary } from '../../app/contract/story-shapes.ts';
import { MAX_LIST_LIMIT } from '../../app/queries/list-stories.contract.ts';
import { listStories } from '../../app/queries/list-stories.ts';
import { TIER_MEANINGS } from './capability-box.ts';
import { ATOM_PATH } from './layout.ts';
import { authorPath, storyPath } from './page-format.ts';
import { atomHtmlText, xmlSafe } from './xml-text.ts';

export async function atomFeed(ctx: AppContext, baseUrl: string): Promise<string> {
  const { stories } = await listStories(ctx, undefined, { limit: MAX_LIST_LIMIT });
  const newest = stories[0];
  // The feed writer is imported on the first feed request: most requests to a process are not for the feed.
  const { Feed } = await import('feed');
  const feed = new Feed({
    id: `${baseUrl}/`,
    title: 'lorebook: new stories',
    description: 'What people and their agents built: what they tried, what failed, what worked.',
    link: `${baseUrl}/`,
    // An empty feed still needs an <updated>: the epoch says "nothing yet" without inventing a time.
    updated: new Date(newest === undefined ? 0 : newest.published_at),
    feedLinks: { atom: `${baseUrl}${ATOM_PATH}` },
    author: { name: 'lorebook', link: `${baseUrl}/` },
    generator: 'lorebook',
    language: 'en',
    copyright: 'Each story belongs to its author.',
  });
  for (const story of stories) {
    const url = `${baseUrl}${storyPath(story.slug)}`;
    feed.addItem({
      id: url,
      title: atomHtmlText(story.title),
      link: url,
      date: new Date(story.drift?.since ?? story.published_at),
      published: new Date(story.published_at),
      description: atomHtmlText(`${changedSincePublish(story.drift)}${story.summary}`),
      author: [{ name: xmlSafe(`@${story.author.handle}`), link: `${baseUrl}${authorPath(story.author.handle)}` }],
      category: [
        ...story.tags.map((tag) => ({ name: tag, term: tag })),
        ...capabilityCategory(story.capability_tier, baseUrl),
        ...driftCategory(story.drift, baseUrl),
      ],
    });
  }
  return feed.atom1();
}

/**
 * The tier as a category in its own scheme, so a reader can filter on it without mistaking it
 * for a tag; a story not scanned has none.
 */
function capabilityCategory(tier: StorySummary['capability_tier'], baseUrl: string): Category[] {
  return tier === null
    ? []
    : [{ name: `capability ${tier}: ${TIER_MEANINGS[tier]}`, term: `capability-${tier}`, scheme: `${baseUrl}/capability` }];
}

/** The page's "Changed since publish." line, first in the entry's summary. */
function changedSincePublish(drift: StorySummary['drift']): string {
  if (drift === undefined) return '';
  return `Changed since publish: readers who reproduced it ran steps that differ from these (sha256 ${drift.sha256.slice(0, 12)}…, since ${drift.since.slice(0, 10)}); read the steps again before running them. `;
}

function driftCategory(drift: StorySummary['drift'], baseUrl: string): Category[] {
  return drift === undefined ? [] : [{ name: 'changed since publish', term: 'changed-since-publish', scheme: `${baseUrl}/capability` }];
}
