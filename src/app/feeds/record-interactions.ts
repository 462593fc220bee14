// app.bsky.feed.sendInteractions (design.md#feeds): a viewer's "show more like this" / "show less like
// this" on a post one of lorebook's feeds served, tallied per feed and story (feed-tally-items.ts).
// The viewer is the `iss` of a verified service-auth JWT; the story comes from the item's
// feedContext and must still be listed with that very post (and, in a tag feed, carry the tag),
// so nobody can tally posts lorebook never served. Other events (seen, clickthrough, like…) are
// accepted and not stored. Twice-safe three ways: a vote is set membership conditioned on what
// was read (the same interaction again, or sixteen at once, changes the sets once), and the
// JWT's `jti` is the op_id, so a replayed request is answered from its op record and never
// re-applied on top of a later vote.
import { z } from 'zod';
import { validationFailed } from '../../domain/errors.ts';
import { type FeedDefinition, type FeedId, parseFeedContext } from '../../domain/feed-generator.ts';
import { fingerprint } from '../../domain/fingerprint.ts';
import type { CheckAction, WriteAction } from '../../store/actions.ts';
import { feedTallyKey, storyKey } from '../../store/keys.ts';
import { pick } from '../../store/read-items.ts';
import { checkItem } from '../../store/replace-by-key.ts';
import { type Vote, voteAction } from '../../store/story/feed-tally-items.ts';
import { toStoryMeta } from '../../store/story/story-items.ts';
import type { AppContext } from '../context/app-context.ts';
import { parseWriteInput } from '../input/parse-write-input.ts';
import { writeOnce } from '../write/write-once.ts';
import { shownPost } from './feed-stories.ts';

const SEND_INTERACTIONS = 'send_interactions';
/** Interactions in one call; clients batch "seen" events, so more than votes. */
const MAX_INTERACTIONS = 500;
/** Show more / show less on distinct stories in one call: their stories and tallies fit one snapshot read. */
const MAX_VOTES = 30;
/** Viewers per set on one tally item: keeps it far under DynamoDB's 400 KB. */
const TALLY_CAP = 5_000;

const REQUEST_MORE = 'app.bsky.feed.defs#requestMore';
const REQUEST_LESS = 'app.bsky.feed.defs#requestLess';
const AT_URI = /^at:\/\/[A-Za-z0-9:._%-]+(\/[A-Za-z0-9.-]+(\/[A-Za-z0-9._~:-]+)?)?$/;

const interactionSchema = z.object({
  $type: z.literal('app.bsky.feed.defs#interaction').optional(),
  item: z.string().max(512).regex(AT_URI, 'an at-uri').optional(),
  event: z.string().max(128).optional(),
  feedContext: z.string().max(2000).optional(),
  reqId: z.string().max(100).optional(),
});

const sendInteractionsInputSchema = z.object({
  feed: z.string().max(512).regex(AT_URI, 'an at-uri').optional(),
  interactions: z.array(interactionSchema).max(MAX_INTERACTIONS),
});

export interface InteractionsOutcome {
  /** Votes that changed a tally. */
  recorded: number;
  /** Votes already in place. */
  unchanged: number;
  /** Votes on a post that is not (or no longer) a listed story's in that feed. */
  not_shown: number;
  /** Votes past a full tally. */
  full: number;
  /** Interactions that are no vote on one of our feeds (seen, clickthrough, another generator's context). */
  ignored: number;
}

interface PlannedVote {
  feed: FeedId;
  slug: string;
  post: string;
  vote: Vote;
}

/** The votes of a call, one per (feed, story): the last one sent wins, as the viewer's latest word. */
function votesOf(interactions: z.output<typeof interactionSchema>[], feeds: ReadonlyMap<FeedId, FeedDefinition>): PlannedVote[] {
  const votes = new Map<string, PlannedVote>();
  for (const interaction of interactions) {
    const vote = interaction.event === REQUEST_MORE ? 'more' : interaction.event === REQUEST_LESS ? 'less' : undefined;
    const context = parseFeedContext(interaction.feedContext);
    if (vote === undefined || context === undefined || interaction.item === undefined || !feeds.has(context.feed)) continue;
    const id = `${context.feed}\u0000${context.slug}`;
    votes.delete(id);
    votes.set(id, { ...context, post: interaction.item, vote });
  }
  return [...votes.values()].sort((a, b) => (a.feed + a.slug < b.feed + b.slug ? -1 : 1));
}

export interface InteractionsRequest {
  /** The viewer's DID (the JWT's iss). */
  viewer: string;
  /** The JWT's nonce, the op_id of this delivery; absent: no op record. */
  jti: string | undefined;
  /** The feeds this server serves. */
  feeds: readonly FeedDefinition[];
}

export async function recordInteractions(ctx: AppContext, request: InteractionsRequest, raw: unknown): Promise<InteractionsOutcome> {
  const input = await parseWriteInput(sendInteractionsInputSchema, raw, SEND_INTERACTIONS, ctx);
  const feeds = new Map(request.feeds.map((feed) => [feed.id, feed]));
  const votes = votesOf(input.interactions, feeds);
  if (votes.length > MAX_VOTES) {
    throw validationFailed(`This call holds show more / show less on ${votes.length} stories; send at most ${MAX_VOTES} per call.`, {
      interactions: `Split the votes over calls of at most ${MAX_VOTES}.`,
    });
  }
  const ignored = input.interactions.length - votes.length;
  const none: InteractionsOutcome = { recorded: 0, unchanged: 0, not_shown: 0, full: 0, ignored };
  // Nothing to tally: no op record either, or every "seen" batch would leave one behind.
  if (votes.length === 0) return none;

  return writeOnce<InteractionsOutcome>(ctx, {
    tool: SEND_INTERACTIONS,
    caller: { account: request.viewer, handle: request.viewer },
    opId: request.jti,
    fingerprint: fingerprint(SEND_INTERACTIONS, votes),
    reads: votes.flatMap((vote) => [storyKey(vote.slug), feedTallyKey(vote.feed, vote.slug)]),
    plan(read) {
      const outcome = { ...none };
      const actions: WriteAction[] = [];
      const guards: CheckAction[] = [];
      for (const vote of votes) {
        const story = pick(read, storyKey(vote.slug));
        const meta = story === undefined ? undefined : toStoryMeta(story);
        const tag = feeds.get(vote.feed)?.tag;
        if (meta === undefined || shownPost(meta) !== vote.post || (tag !== undefined && !meta.tags.includes(tag))) {
          outcome.not_shown += 1;
          continue;
        }
        const key = feedTallyKey(vote.feed, vote.slug);
        const planned = voteAction(
          pick(read, key),
          { feed: vote.feed, slug: vote.slug, post: vote.post },
          request.viewer,
          vote.vote,
          TALLY_CAP,
        );
        if (planned.action !== undefined) {
          actions.push(planned.action);
          outcome.recorded += 1;
        } else if (planned.full === true) {
          outcome.full += 1;
        } else {
          outcome.unchanged += 1;
          guards.push(
            checkItem(key, {
              expression: 'contains(#vote, :viewer)',
              names: { '#vote': vote.vote },
              values: { ':viewer': request.viewer },
            }),
          );
        }
      }
      return { outcome, actions, guards };
    },
  });
}
