// FAULT INJECTION (named): the first shard iterator DynamoDB Local hands this Streams client is
// aged by 20 minutes before the poller sees it, so the next GetRecords meets what a poller idle
// past the 15-minute iterator lifetime meets — DynamoDB Local itself refuses it with
// ExpiredIteratorException. Its iterators read `<stream arn>|001|base64(<shard>|<sequence>|<ms>)`.
import type { DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';

const AGE_MS = 20 * 60_000;

function aged(iterator: string): string {
  const [arn, version, encoded] = iterator.split('|');
  const [shard, sequence, createdMs] = Buffer.from(encoded ?? '', 'base64')
    .toString('utf8')
    .split('|');
  const older = String(Number(createdMs) - AGE_MS).padStart(createdMs?.length ?? 0, '0');
  return [arn, version, Buffer.from([shard, sequence, older].join('|')).toString('base64')].join('|');
}

/** Ages the next iterator the client receives; answers how many it aged (0 or 1). */
export function ageFirstIterator(streams: DynamoDBStreamsClient): () => number {
  let agedCount = 0;
  streams.middlewareStack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const output = result.output as { ShardIterator?: string };
      if (context.commandName === 'GetShardIteratorCommand' && agedCount === 0 && output.ShardIterator !== undefined) {
        output.ShardIterator = aged(output.ShardIterator);
        agedCount += 1;
      }
      return result;
    },
    { step: 'initialize', name: 'lorebookAgeFirstIterator' },
  );
  return () => agedCount;
}
