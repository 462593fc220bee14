// A condition as the three pieces DynamoDB wants. Builders spell their expressions out literally
// (no condition DSL) and join them with `and`, so each guard reads next to the window it closes.

export interface Condition {
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

/** Every UpdateItem/ConditionCheck on an existing item carries this: UpdateItem would otherwise create a stray item. */
export const itemExists: Condition = { expression: 'attribute_exists(PK)' };

/** Creating an item only once: a second delivery fails here instead of writing a second row. */
export const itemAbsent: Condition = { expression: 'attribute_not_exists(PK)' };

export function and(...conditions: Condition[]): Condition {
  return {
    expression: conditions.map((c) => `(${c.expression})`).join(' AND '),
    names: Object.assign({}, ...conditions.map((c) => c.names ?? {})) as Record<string, string>,
    values: Object.assign({}, ...conditions.map((c) => c.values ?? {})) as Record<string, unknown>,
  };
}

/** The expression fields of a request; empty maps are left out (DynamoDB refuses them). */
export function expressionFields(condition: Condition | undefined): {
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues?: Record<string, unknown>;
} {
  if (condition === undefined) return {};
  return {
    ConditionExpression: condition.expression,
    ...nonEmpty('ExpressionAttributeNames', condition.names),
    ...nonEmpty('ExpressionAttributeValues', condition.values),
  };
}

function nonEmpty<K extends string, V>(field: K, map: Record<string, V> | undefined): Partial<Record<K, Record<string, V>>> {
  return map !== undefined && Object.keys(map).length > 0 ? ({ [field]: map } as Partial<Record<K, Record<string, V>>>) : {};
}
