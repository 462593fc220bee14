// get_story — one story with its body, history, counts and announce state. Private and hidden
// stories are not_found to everyone but their author.
// Round trips: META + BODY (one BatchGetItem) in parallel with the revision history (one Query),
// then one BatchGetItem (the author's handle, the author's own reproduction, and the fail stories
// a success story answers) in parallel with the reproduction aggregates (a Query, only from 3
// counted reproducers on) and, on a fail story, its linked answers (a Query, then a BatchGetItem
// when there are any): three to six calls, at most three in sequence.

import type { ReproductionAggregates } from '../../domain/reproduction-aggregates.ts';
import { parseSlug } from '../../domain/story/slug.ts';
import { revealForbiddenChars as shown } from '../../domain/text-controls.ts';
import { untrustedNotice } from '../../domain/untrusted-text.ts';
import type { StoredItem } from '../../store/actions.ts';
import { bodyKey, storyKey } from '../../store/keys.ts';
import { pick, readItems } from '../../store/read-items.ts';
import { establishedReproducers, newAccountCounts, reproductionCounts } from '../../store/story/reproduction-items.ts';
import { queryRevisions } from '../../store/story/revisions-query.ts';
import { type RevisionKind, type StoryMeta, toStoryMeta } from '../../store/story/story-items.ts';
import { visibleStory } from '../caller/story-access.ts';
import type { AppContext, Caller } from '../context/app-context.ts';
import { parseInput } from '../input/parse-input.ts';
import { moderationView } from '../moderation/moderation-view.ts';
import { announceState, authorAnnounceState } from './announce-state.ts';
import { readAnsweredBy } from './answer-pairs.ts';
import { type AuthorSide, readAuthorSide } from './author-side.ts';
import { AUTHOR_WRITTEN_FIELDS, GET_STORY, getStoryInputSchema, type RevisionView, type StoryView } from './get-story.contract.ts';
import { authorView, checkCounts } from './present-story.ts';
import { readReproductionAggregates } from './reproduction-aggregates.ts';

export async function getStory(ctx: AppContext, caller: Caller | undefined, raw: unknown): Promise<StoryView> {
  const slug = parseSlug(parseInput(getStoryInputSchema, raw, GET_STORY).slug);
  const snapshot = await readStorySnapshot(ctx, slug);
  const meta = visibleStory(snapshot.meta, slug, caller);
  const revisions = snapshot.revisions.map(presentRevision);
  const [author, aggregates, answeredBy] = await Promise.all([
    readAuthorSide(ctx, meta, revisions),
    readReproductionAggregates(ctx, meta),
    readAnsweredBy(ctx, meta),
  ]);
  const view = presentStory(meta, snapshot.body, revisions, author, aggregates, answeredBy);
  if (meta.moderation !== undefined && caller?.account === meta.author)
    view.moderation = moderationView({ ...meta, moderation: meta.moderation });
  if (caller?.account === meta.author) view.announce = authorAnnounceState(meta.announce, ctx.store.now());
  return view;
}

interface StorySnapshot {
  meta: StoryMeta | undefined;
  body: StoredItem | undefined;
  revisions: StoredItem[];
}

/** Reads again when a content write lands between the reads (rare); bounded, then shows what it has. */
const MAX_SNAPSHOT_READS = 3;

/**
 * META, BODY and the history at one revision. A BatchGetItem is not a snapshot and the history
 * is a separate Query, so a republish committing between them can show META at n+1 with BODY or
 * history at n; the revision numbers on BODY and REV# tell, and we read again.
 */
async function readStorySnapshot(ctx: AppContext, slug: string): Promise<StorySnapshot> {
  for (let attempt = 1; ; attempt += 1) {
    // @NOTE the history is read before we know the caller may see the story: in parallel it
    // costs no latency, and it is dropped unread when the answer is not_found.
    const [items, history] = await Promise.all([readItems(ctx.store, [storyKey(slug), bodyKey(slug)]), queryRevisions(ctx.store, slug)]);
    const stored = pick(items, storyKey(slug));
    const body = pick(items, bodyKey(slug));
    if (stored === undefined) return { meta: undefined, body, revisions: [] };
    const meta = toStoryMeta(stored);
    // A history read after a newer commit is cut back to the revision META was read at.
    const revisions = history.filter((item) => Number(item.revision) <= meta.revision);
    const atOneRevision = body?.revision === meta.revision && revisions.at(-1)?.revision === meta.revision;
    if (atOneRevision || attempt === MAX_SNAPSHOT_READS) return { meta, body, revisions };
  }
}

function presentStory(
  meta: StoryMeta,
  body: StoredItem | undefined,
  revisions: RevisionView[],
  { handles, recheck, answers }: AuthorSide,
  aggregates: ReproductionAggregates,
  answeredBy: StoryView['answered_by'],
): StoryView {
  const author = authorView(meta, handles);
  const view: StoryView = {
    slug: meta.slug,
    // Text stored before a character was refused is shown with it made visible (design.md#untrusted-text).
    title: shown(meta.title),
    summary: shown(meta.summary),
    author,
    date: meta.date,
    published_at: meta.published_at,
    updated_at: meta.updated_at,
    tags: meta.tags.map(shown),
    type: meta.type,
    status: meta.status,
    reproducible: meta.reproducible,
    visibility: meta.visibility,
    hidden: meta.hidden,
    stack: meta.stack.map(shown),
    has_check: meta.has_check,
    // BODY and META are written in one transaction, so a visible META always has its BODY.
    markdown: typeof body?.markdown === 'string' ? shown(body.markdown) : '',
    revision: meta.revision,
    revisions,
    counts: reproductionCounts(meta.counts),
    new_account_counts: newAccountCounts(meta),
    checks: checkCounts(meta),
    reproducers_count: establishedReproducers(meta),
    aggregates,
    announce: announceState(meta.announce),
    capability: storyCapability(meta),
    untrusted_text: { written_by: author.handle, fields: [...AUTHOR_WRITTEN_FIELDS], notice: untrustedNotice(author.handle) },
  };
  if (meta.announce.doc_uri !== undefined) view.document_uri = meta.announce.doc_uri;
  if (meta.drafted_by !== undefined)
    view.drafted_by = { account: meta.drafted_by, handle: handles.get(meta.drafted_by) ?? meta.drafted_by };
  if (recheck !== undefined) view.author_recheck = recheck;
  if (answers !== undefined) view.answers = answers;
  if (answeredBy !== undefined) view.answered_by = answeredBy;
  for (const field of ['image', 'image_alt', 'agent', 'model'] as const) {
    const value = meta[field];
    if (value !== undefined) view[field] = shown(value);
  }
  return view;
}

function presentRevision(item: StoredItem): RevisionView {
  const view: RevisionView = { revision: Number(item.revision), kind: item.kind as RevisionKind, at: String(item.at) };
  if (typeof item.note === 'string') view.note = shown(item.note);
  if (typeof item.source === 'string') view.source = shown(item.source);
  // Written in the same update that removes the markdown (design.md#redaction-export), so it says the text is gone.
  if (item.redacted === true) view.redacted = true;
  return view;
}

/** The stored report with the drift flag beside it (design.md#drift); null for a story never scanned. */
function storyCapability(meta: StoryMeta): StoryView['capability'] {
  if (meta.capability === undefined) return null;
  return { ...meta.capability, changed_since_publish: meta.drift !== undefined, drift: meta.drift ?? null };
}
