// Putting a `failed` announcement back on the queue, when an operator asks for it by slug (after
// fixing the app password, say). Only a story that is public, shown, never posted, not claimed
// and not already queued qualifies; its attempts start again from zero.
import type { UpdateAction } from '../../actions.ts';
import { storyKey } from '../../keys.ts';
import { updateItem } from '../../update-item.ts';
import { announceQueueFields } from '../story-items.ts';

export function requeueAnnounce(slug: string, dueAt: string): UpdateAction {
  return updateItem(
    storyKey(slug),
    { set: { ...announceQueueFields(slug, dueAt), announce_attempts: 0 }, remove: ['next_attempt_at'] },
    {
      // Never posted nor claimed, not on the queue already, and still something to announce.
      expression: 'attribute_not_exists(#marker) AND attribute_not_exists(#queue) AND #visibility = :public AND #hidden = :shown',
      names: { '#marker': 'bsky_uri', '#queue': 'GSI3PK', '#visibility': 'visibility', '#hidden': 'hidden' },
      values: { ':public': 'public', ':shown': false },
    },
  );
}
