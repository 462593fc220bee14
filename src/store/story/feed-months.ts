// The feed is sharded by month (GSI1 FEED#yyyy-mm) so one partition is not a write hot spot; this
// small item lists the months that hold stories so a reader can walk the shards newest first
// without probing empty months.
import type { UpdateAction } from '../actions.ts';
import { feedMonthsKey } from '../keys.ts';

export const feedMonth = (publishedAt: string): string => publishedAt.slice(0, 7);

/**
 * Adds a month to the set. Deliberately unconditioned: adding a member to a string set is
 * idempotent (a second delivery changes nothing), and a condition here would let two publishes
 * in a new month cancel each other for no reason. It may create the item, so no attribute_exists.
 */
export function addFeedMonth(month: string): UpdateAction {
  return {
    Update: {
      Key: feedMonthsKey,
      UpdateExpression: 'ADD #months :month',
      ExpressionAttributeNames: { '#months': 'months' },
      ExpressionAttributeValues: { ':month': new Set([month]) },
    },
  };
}

export function monthsOf(item: Record<string, unknown> | undefined): string[] {
  const months = item?.months;
  return months instanceof Set ? [...(months as Set<string>)].sort().reverse() : [];
}
