// Changes a stored item directly, past the use cases, to set up state that other use cases or
// processes own (counts, announce fields, hidden, TTLs, a damaged revision).
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AppContext } from '../../src/app/context/app-context.ts';
import { type ItemKey, storyKey } from '../../src/store/keys.ts';

export interface RawUpdate {
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

/** One unconditioned UpdateItem through `ctx`'s client: the app's (counted) or an outside one. */
export async function updateStoredItem(ctx: AppContext, key: ItemKey, { expression, names, values }: RawUpdate): Promise<void> {
  await ctx.store.client.send(
    new UpdateCommand({
      TableName: ctx.store.tableName,
      Key: key,
      UpdateExpression: expression,
      ...(names === undefined || Object.keys(names).length === 0 ? {} : { ExpressionAttributeNames: names }),
      ...(values === undefined ? {} : { ExpressionAttributeValues: values }),
    }),
  );
}

/** The same on a story's META item. */
export function updateStoryMeta(ctx: AppContext, slug: string, update: RawUpdate): Promise<void> {
  return updateStoredItem(ctx, storyKey(slug), update);
}
