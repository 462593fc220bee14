// FAULT INJECTION (named): the next GetShardIterator after a sequence number is refused with
// TrimmedDataAccessException, as DynamoDB refuses a position older than the stream's 24 hours —
// which DynamoDB Local reaches only after a day. Every other call goes to the server untouched.
import { type DynamoDBStreamsClient, TrimmedDataAccessException } from '@aws-sdk/client-dynamodb-streams';

/** Arms the refusal once; answers how many times it fired (0 or 1). */
export function trimNextPosition(streams: DynamoDBStreamsClient): () => number {
  let fired = 0;
  streams.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { ShardIteratorType?: string };
      if (context.commandName === 'GetShardIteratorCommand' && input.ShardIteratorType === 'AFTER_SEQUENCE_NUMBER' && fired === 0) {
        fired += 1;
        throw new TrimmedDataAccessException({ message: 'the position was trimmed (injected)', $metadata: {} });
      }
      return next(args);
    },
    { step: 'initialize', name: 'lorebookTrimNextPosition' },
  );
  return () => fired;
}
