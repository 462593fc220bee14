import { describe, expect, it } from 'vitest';
import { operationName } from '../helpers/round-trips.ts';

describe('operationName', () => {
  it.each([
    ['GetCommand', 'GetItem'],
    ['GetItemCommand', 'GetItem'],
    ['TransactWriteCommand', 'TransactWriteItems'],
    ['BatchGetCommand', 'BatchGetItem'],
    ['QueryCommand', 'Query'],
    ['UpdateItemCommand', 'UpdateItem'],
  ])('names %s by the operation it sends, %s', (command, operation) => {
    expect(operationName(command)).toBe(operation);
  });
});
