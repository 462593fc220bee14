// A use case's input as both surfaces list it: every field described for the agent or app that
// reads tools/list or the OpenAPI document.
import { z } from 'zod';

/**
 * A strict object whose every field carries a description: the type demands one per key, so a
 * field added to a use case's input cannot reach tools/list or the OpenAPI document undescribed.
 */
export function describedObject<S extends Record<string, z.ZodType>>(
  shape: S,
  descriptions: { [K in keyof S]: string },
): z.ZodObject<S, z.core.$strict> {
  const described: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(shape)) described[key] = field.describe(descriptions[key as keyof S]);
  return z.strictObject(described as S);
}

export const OP_ID_DESCRIPTION =
  'Only for apps replaying a queued request: the same op_id makes a repeated delivery return the first answer. A model must not invent one; leave it out.';
