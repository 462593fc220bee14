// The post announcing a story: its title, "by @author" and its tags as hashtags, with facets
// from RichText.detectFacets and an app.bsky.embed.external link card to the story page.
import { type AppBskyFeedPost, type AppBskyRichtextFacet, type BlobRef, RichText } from '@atproto/api';
import type { StoryPost } from '../../src/outbox/announce/port.ts';

/** Bluesky's limit on a post's text, in graphemes. */
export const MAX_POST_GRAPHEMES = 300;
/** What the link card's description keeps of the summary. */
const MAX_CARD_DESCRIPTION = 300;
const ELLIPSIS = '…';

export const POST_COLLECTION = 'app.bsky.feed.post';

/** Letters and digits of a tag, as a hashtag; `dynamodb-local` stays `#dynamodb-local`. */
export const hashtag = (tag: string): string => `#${tag.replace(/[^\p{L}\p{N}_-]+/gu, '-').replace(/^-+|-+$/g, '')}`;

const graphemes = (text: string): string[] =>
  [...new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text)].map((s) => s.segment);

/**
 * The text, never over 300 graphemes: tags are dropped from the end first, then the title is
 * cut with an ellipsis. The author line always stays.
 */
export function postText(post: Pick<StoryPost, 'title' | 'authorHandle' | 'tags'>): string {
  const byline = `by @${post.authorHandle}`;
  const tags = post.tags.map(hashtag).filter((tag) => tag.length > 1);
  const compose = (title: string, kept: readonly string[]): string =>
    [title, byline, kept.join(' ')].filter((line) => line !== '').join('\n');
  for (let count = tags.length; count >= 0; count -= 1) {
    const text = compose(post.title, tags.slice(0, count));
    if (graphemes(text).length <= MAX_POST_GRAPHEMES) return text;
  }
  const room = MAX_POST_GRAPHEMES - graphemes(compose('', [])).length - 1 - ELLIPSIS.length;
  return compose(`${graphemes(post.title).slice(0, Math.max(0, room)).join('').trimEnd()}${ELLIPSIS}`, []);
}

/** A mention whose handle did not resolve gets an empty DID, which a PDS refuses: drop it. */
export function withoutUnresolvedMentions(facets: readonly AppBskyRichtextFacet.Main[] | undefined): AppBskyRichtextFacet.Main[] {
  return (facets ?? [])
    .map((facet) => ({
      ...facet,
      features: facet.features.filter(
        (feature) => !(feature.$type === 'app.bsky.richtext.facet#mention' && !(feature as { did?: string }).did),
      ),
    }))
    .filter((facet) => facet.features.length > 0);
}

export interface FacetResolver {
  /** RichText.detectFacets needs an agent to resolve mentions to DIDs. */
  detect(text: RichText): Promise<void>;
}

export async function postRecord(
  post: StoryPost,
  resolver: FacetResolver,
  createdAt: string,
  thumb?: BlobRef,
): Promise<AppBskyFeedPost.Record> {
  const text = new RichText({ text: postText(post) });
  await resolver.detect(text);
  const facets = withoutUnresolvedMentions(text.facets);
  const description = graphemes(post.summary);
  return {
    $type: POST_COLLECTION,
    text: text.text,
    ...(facets.length > 0 ? { facets } : {}),
    embed: {
      $type: 'app.bsky.embed.external',
      external: {
        uri: post.url,
        title: post.title,
        description:
          description.length <= MAX_CARD_DESCRIPTION
            ? post.summary
            : `${description.slice(0, MAX_CARD_DESCRIPTION - 1).join('')}${ELLIPSIS}`,
        ...(thumb === undefined ? {} : { thumb }),
      },
    },
    // The real posting time (docs/design.md#write-rules); the record key carries the story's publish time.
    createdAt,
  };
}

/** Every URL a post record links to: its link card and its link facets. */
export function linksOf(record: unknown): string[] {
  const value = record as { embed?: { external?: { uri?: unknown } }; facets?: { features?: { $type?: string; uri?: unknown }[] }[] };
  const links: string[] = [];
  if (typeof value.embed?.external?.uri === 'string') links.push(value.embed.external.uri);
  for (const facet of value.facets ?? []) {
    for (const feature of facet.features ?? []) if (typeof feature.uri === 'string') links.push(feature.uri);
  }
  return links;
}
