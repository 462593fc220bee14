// The Streams API's records reshaped as the stream Lambda receives them (the aws-lambda
// `DynamoDBRecord`), so one consumer serves both the cloud's stream function and `npm start`'s
// poller. The SDK hands binary values over as bytes and times as Dates; Lambda's JSON event carries
// base64 strings and epoch seconds.
import type { _Record as SdkRecord, AttributeValue as SdkValue } from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord, AttributeValue as LambdaValue } from 'aws-lambda';

type Image = Record<string, LambdaValue>;

const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

function lambdaValue(value: SdkValue): LambdaValue {
  if (value.B !== undefined) return { B: base64(value.B) };
  if (value.BS !== undefined) return { BS: value.BS.map(base64) };
  if (value.L !== undefined) return { L: value.L.map(lambdaValue) };
  if (value.M !== undefined) return { M: lambdaImage(value.M) };
  if (value.S !== undefined) return { S: value.S };
  if (value.N !== undefined) return { N: value.N };
  if (value.BOOL !== undefined) return { BOOL: value.BOOL };
  if (value.NULL !== undefined) return { NULL: value.NULL };
  if (value.SS !== undefined) return { SS: value.SS };
  if (value.NS !== undefined) return { NS: value.NS };
  throw new Error(`a stream image holds an attribute type this reader does not know: ${Object.keys(value).join(', ')}`);
}

function lambdaImage(image: Record<string, SdkValue>): Image {
  return Object.fromEntries(Object.entries(image).map(([name, value]) => [name, lambdaValue(value)]));
}

const optionalImage = (image: Record<string, SdkValue> | undefined): Image | undefined =>
  image === undefined ? undefined : lambdaImage(image);

/** One record as Lambda's event source mapping would deliver it from the stream `streamArn`. */
export function lambdaRecord(record: SdkRecord, streamArn: string): DynamoDBRecord {
  const stream = record.dynamodb ?? {};
  const created = stream.ApproximateCreationDateTime;
  const identity = record.userIdentity;
  return {
    eventID: record.eventID,
    eventName: record.eventName,
    eventVersion: record.eventVersion,
    eventSource: record.eventSource,
    awsRegion: record.awsRegion,
    eventSourceARN: streamArn,
    dynamodb: {
      ApproximateCreationDateTime: created === undefined ? undefined : Math.floor(created.getTime() / 1000),
      Keys: optionalImage(stream.Keys),
      NewImage: optionalImage(stream.NewImage),
      OldImage: optionalImage(stream.OldImage),
      SequenceNumber: stream.SequenceNumber,
      SizeBytes: stream.SizeBytes,
      StreamViewType: stream.StreamViewType,
    },
    ...(identity === undefined ? {} : { userIdentity: { type: identity.Type, principalId: identity.PrincipalId } }),
  };
}
