// Which stream of a table the poller reads: the newest one ListStreams names for it. A table
// deleted and made again (or its stream turned off and on) has a new stream; the old one stays
// listed, disabled, for a while. Not DescribeTable's LatestStreamArn: DynamoDB Local counts every
// item of the table for each DescribeTable (8 ms at no items, 224 ms at 80,000, on the one thread
// that answers every request to the store), and the poller asks once a run, every second.
import { type DynamoDBStreamsClient, ListStreamsCommand, type _Stream as Stream } from '@aws-sdk/client-dynamodb-streams';

/** ListStreams pages of up to 100 streams; a table holds one, and one more each time it is made again. */
const MAX_STREAM_PAGES = 100;

/** The newest of a table's listed streams: labels are the stream's creation time, ISO 8601, so they sort as text. */
export function newestStream(streams: readonly Stream[]): Stream | undefined {
  let newest: Stream | undefined;
  for (const stream of streams) {
    if (stream.StreamArn === undefined || stream.StreamLabel === undefined) continue;
    if (newest === undefined || stream.StreamLabel > (newest.StreamLabel as string)) newest = stream;
  }
  return newest;
}

export async function newestStreamArn(streams: DynamoDBStreamsClient, tableName: string, abortSignal: AbortSignal): Promise<string> {
  const listed: Stream[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_STREAM_PAGES; page += 1) {
    const answer = await streams.send(
      new ListStreamsCommand({ TableName: tableName, ...(after === undefined ? {} : { ExclusiveStartStreamArn: after }) }),
      { abortSignal },
    );
    listed.push(...(answer.Streams ?? []));
    after = answer.LastEvaluatedStreamArn;
    if (after === undefined) break;
  }
  const arn = newestStream(listed)?.StreamArn;
  if (arn === undefined) throw new Error(`table ${tableName} has no stream`);
  return arn;
}
