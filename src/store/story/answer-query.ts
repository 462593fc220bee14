// The success stories linked as answers to one fail story (design.md#answered-fail): its ANSWER# items still
// linked, newest success slugs first (slugs begin with their date). One bounded Query: at most
// MAX_ANSWERS_READ items are read, however many stories ever named the fail story.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { answerPrefix, storyKey } from '../keys.ts';
import type { Store } from '../store.ts';
import { callStore } from '../store-unavailable.ts';

export const MAX_ANSWERS_READ = 50;

export async function queryLinkedAnswers(store: Store, fail: string): Promise<string[]> {
  const output = await callStore(() =>
    store.client.send(
      new QueryCommand({
        TableName: store.tableName,
        KeyConditionExpression: 'PK = :pk AND begins_with(SK, :answer)',
        // Applied after Limit: unlinked pairs take room in the page, so the read stays bounded.
        FilterExpression: 'linked = :linked',
        ProjectionExpression: 'answer',
        ExpressionAttributeValues: { ':pk': storyKey(fail).PK, ':answer': answerPrefix, ':linked': true },
        ConsistentRead: true,
        ScanIndexForward: false,
        Limit: MAX_ANSWERS_READ,
      }),
    ),
  );
  return (output.Items ?? []).map((item) => String(item.answer));
}
