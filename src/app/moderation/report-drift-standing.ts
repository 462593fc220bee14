// Whose drift report may count toward "changed since publish" (design.md#drift). One place, so the
// rule that strangers cannot mark a story is stated once; moderation's "established accounts"
// will be one more condition in `mayCorroborateDrift`.
import { LorebookError } from '../../domain/errors.ts';
import type { Reproduction } from '../../store/story/reproduction-items.ts';
import type { StoryMeta } from '../../store/story/story-items.ts';

/** What the report's snapshot knows about its reporter. */
export interface DriftReporter {
  account: string;
  /** The reporter's own reproduction of the story, if any (REPRO#account). */
  reproduction: Reproduction | undefined;
}

/** Only someone other than the author who reproduced the story corroborates drift: a throwaway account cannot. */
export function mayCorroborateDrift(meta: StoryMeta, reporter: DriftReporter): boolean {
  return meta.author !== reporter.account && reporter.reproduction !== undefined;
}

/**
 * A reproduction reported before the story's current revision ran steps that may have changed
 * since: a hash of them says nothing about the text as it is now. `updated_at` is the current
 * revision's time (only a new revision sets it).
 */
export function reproducedBeforeRevision(meta: StoryMeta, reproduction: Reproduction | undefined): boolean {
  return reproduction !== undefined && reproduction.at < meta.updated_at;
}

export function reproductionOutdated(meta: StoryMeta, reproduction: Reproduction): LorebookError {
  return new LorebookError(
    'conflict',
    `Your reproduction of "${meta.slug}" was reported before its current revision (${meta.revision}, changed ${meta.updated_at}), so the steps you ran may be the old ones. Nothing was recorded. Run the story's current steps, report them with report_reproduction, then send report_drift with the sha256 of what you ran.`,
    {
      retryable: false,
      details: { slug: meta.slug, revision: meta.revision, revised_at: meta.updated_at, reproduced_at: reproduction.at },
    },
  );
}
