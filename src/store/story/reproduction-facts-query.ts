// The facts aggregates are built from, read from a story's counted REPRO# items: the agent
// family, the OS, duration_min and tokens, nothing else (no account, note or time). One Query
// per 1 MB page; each page is handed to the caller and dropped, so memory stays at one page
// however many reports the story has (the reproducer cap bounds how many pages).
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { ReportFacts } from '../../domain/reproduction-aggregates.ts';
import type { StoredItem } from '../actions.ts';
import { storyKey } from '../keys.ts';
import type { Store } from '../store.ts';
import { callStore } from '../store-unavailable.ts';

const REPRODUCTION_PREFIX = 'REPRO#';

export function reproductionFactsQueryParams(tableName: string, slug: string, startKey?: Record<string, unknown>): QueryCommandInput {
  return {
    TableName: tableName,
    KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :repro)',
    // The author's own report is stored uncounted and is left out here, as it is from the counts.
    FilterExpression: '#counted = :counted',
    // `name` is a reserved word; every attribute goes through a name alike.
    ProjectionExpression: '#agent.#name, #env.#os, #duration, #tokens',
    ExpressionAttributeNames: {
      '#pk': 'PK',
      '#sk': 'SK',
      '#counted': 'counted',
      '#agent': 'agent_fields',
      '#name': 'name',
      '#env': 'env_fields',
      '#os': 'os',
      '#duration': 'duration_min',
      '#tokens': 'tokens',
    },
    ExpressionAttributeValues: { ':pk': storyKey(slug).PK, ':repro': REPRODUCTION_PREFIX, ':counted': true },
    // A withdrawn or changed report leaves the aggregates at once, as it leaves the counts.
    ConsistentRead: true,
    ...(startKey === undefined ? {} : { ExclusiveStartKey: startKey }),
  };
}

/** Calls `visit` with every counted report's facts, page by page. */
export async function forEachReproductionFacts(store: Store, slug: string, visit: (facts: ReportFacts) => void): Promise<void> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const output = await callStore(() =>
      store.client.send(new QueryCommand(reproductionFactsQueryParams(store.tableName, slug, startKey))),
    );
    for (const item of (output.Items ?? []) as StoredItem[]) visit(factsOf(item));
    startKey = output.LastEvaluatedKey;
  } while (startKey !== undefined);
}

function factsOf(item: StoredItem): ReportFacts {
  const agent = item.agent_fields as { name?: unknown } | undefined;
  const env = item.env_fields as { os?: unknown } | undefined;
  return {
    agentFamily: typeof agent?.name === 'string' ? agent.name : undefined,
    os: typeof env?.os === 'string' ? env.os : undefined,
    durationMin: typeof item.duration_min === 'number' ? item.duration_min : undefined,
    tokens: typeof item.tokens === 'number' ? item.tokens : undefined,
  };
}
