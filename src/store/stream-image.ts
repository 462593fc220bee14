// DynamoDB Streams hand items over in the wire format ({ S: "…" }, { SS: […] }); the app reads
// plain items, as the document client returns them. Converting here keeps @aws-sdk/* in src/store.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { StoredItem } from './actions.ts';

/** A stream record's NewImage/OldImage as the item the document client would have read. */
export function itemFromStreamImage(image: Record<string, unknown>): StoredItem {
  return unmarshall(image as Record<string, AttributeValue>) as StoredItem;
}
