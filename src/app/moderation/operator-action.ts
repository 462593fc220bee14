// What an operator's story action (quarantine, restore) takes and answers (docs/moderation.md,
// design.md#operators-audit). The reason goes through the same door as every write (hidden characters, secrets),
// since it is stored and shown to the author. The op record is `OP#<actor>` / op_id, as for every
// write: the CLI mints one op id per invocation, and `--op-id` repeats one.
import { z } from 'zod';
import { LorebookError, notFound } from '../../domain/errors.ts';
import { parseOpId } from '../../domain/op-id.ts';
import { parseSlug } from '../../domain/story/slug.ts';
import type { StoredItem } from '../../store/actions.ts';
import { MODERATION_STATES } from '../../store/story/moderation-state.ts';
import { type StoryMeta, toStoryMeta } from '../../store/story/story-items.ts';
import { isTombstone } from '../../store/story/story-tombstone.ts';
import type { Caller } from '../context/app-context.ts';
import type { CpuScope } from '../context/offloaded.ts';
import { parseWriteInput } from '../input/parse-write-input.ts';

export const MAX_OPERATOR_REASON_CHARS = 500;

const operatorActionSchema = z.strictObject({
  slug: z.string(),
  reason: z.string().trim().min(1, 'Say why: it is kept in the audit record and shown to the author.').max(MAX_OPERATOR_REASON_CHARS),
  actor: z.string().min(1).max(200),
  op_id: z.string(),
});

export type OperatorActionInput = z.input<typeof operatorActionSchema>;

export interface OperatorAction {
  slug: string;
  reason: string;
  opId: string;
  /** The operator, as the op record's account. */
  operator: Caller;
}

export async function parseOperatorAction(raw: unknown, what: string, scope: CpuScope): Promise<OperatorAction> {
  const input = await parseWriteInput(operatorActionSchema, raw, what, scope);
  return {
    slug: parseSlug(input.slug),
    reason: input.reason,
    opId: parseOpId(input.op_id),
    operator: { account: input.actor, handle: input.actor },
  };
}

export const operatorOutcomeSchema = z.object({
  slug: z.string(),
  action: z.enum(['quarantine', 'restore']),
  /** false: the story already was in that state; nothing was written and no audit record made. */
  changed: z.boolean(),
  state: z.enum(MODERATION_STATES),
  since: z.string(),
  op_id: z.string(),
  replayed: z.literal(true).optional(),
});

export type OperatorOutcome = Omit<z.output<typeof operatorOutcomeSchema>, 'replayed'>;

/** The story an operator acts on: any story but a deleted author's tombstone. */
export function storyToModerate(item: StoredItem | undefined, slug: string): StoryMeta {
  if (item === undefined || isTombstone(item)) throw notFound(slug);
  return toStoryMeta(item);
}

export function notHeld(slug: string): LorebookError {
  return new LorebookError('conflict', `"${slug}" is not held for review, so there is nothing to restore.`, {
    retryable: false,
    details: { slug, reason: 'not_held' },
  });
}
