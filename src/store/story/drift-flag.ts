// "Changed since publish" (design.md#drift): a field on the story's META, set in the transaction of the
// report that corroborates a drifted hash and removed by the author's next content change.
import type { UpdateAction } from '../actions.ts';
import type { Condition } from '../condition.ts';
import { storyKey } from '../keys.ts';
import { updateItem } from '../update-item.ts';

/** The hash two independent readers ran instead of the published steps, and since when. */
export interface DriftFlag {
  sha256: string;
  since: string;
}

const DRIFT_FLAG = 'drift';

/** META is still at the revision the plan read: drift is judged against that revision's steps. */
export function atRevision(revision: number): Condition {
  return { expression: '#revision = :revision', names: { '#revision': 'revision' }, values: { ':revision': revision } };
}

/**
 * Sets the flag once per revision: a second hash corroborated at the same time finds it set and
 * leaves the first. Conditioned on the revision read, so a report planned before an edit cannot
 * flag the edited text.
 */
export function setDriftFlag(slug: string, revision: number, flag: DriftFlag): UpdateAction {
  return updateItem(
    storyKey(slug),
    { set: { [DRIFT_FLAG]: flag } },
    {
      expression: 'attribute_not_exists(#drift) AND #revision = :revision',
      names: { '#drift': DRIFT_FLAG, '#revision': 'revision' },
      values: { ':revision': revision },
    },
  );
}

/**
 * What a new revision removes from META: every content change ends the flag. Removed always, not
 * only when the edit read it set, so a flag set between the edit's read and its commit cannot
 * outlive the edit.
 */
export const driftFlagCleared = (): string[] => [DRIFT_FLAG];
