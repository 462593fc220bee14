// mark_notifications_read's contract: its name, its described input (explicit ids or up_to) and
// its answer. MCP's tool and POST /v1/notifications/read use exactly these.
import { z } from 'zod';
import { MAX_TRANSACTION_ACTIONS } from '../store/run-write.ts';
import { describedObject, OP_ID_DESCRIPTION } from './contract/described-object.ts';
import { type Outcome, replayedField } from './contract/replayed.ts';
import { notificationIdSchema } from './queries/list-notifications.contract.ts';

export const MARK_READ_TOOL = 'mark_notifications_read';

/** One transaction holds the op record and at most this many marks. */
export const MAX_MARKS_PER_CALL = MAX_TRANSACTION_ACTIONS - 1;

export const markNotificationsReadInputSchema = describedObject(
  {
    ids: z.array(notificationIdSchema).min(1).max(MAX_MARKS_PER_CALL).optional(),
    up_to: notificationIdSchema.optional(),
    op_id: z.string().optional(),
  },
  {
    ids: 'The keys: ids of notifications you have seen (1–99), exactly as list_notifications returned them.',
    up_to: 'Or a key: the id of the newest notification you have seen; it and every older unread one are marked read (up to 99 per call).',
    op_id: OP_ID_DESCRIPTION,
  },
);

export type MarkNotificationsReadInput = z.input<typeof markNotificationsReadInputSchema>;

// One object rather than a union: MCP output schemas must be objects. Marking by ids answers
// `read` and `unknown`; marking up to an id answers `up_to`, `more` and maybe `next_up_to`.
export const markNotificationsReadOutputSchema = z.object({
  read: z.array(z.string()).optional().describe('By ids: the ids that are read now (by this or an earlier call), newest first.'),
  unknown: z.array(z.string()).optional().describe('By ids: ids with no notification in your inbox.'),
  up_to: z.string().optional().describe('By up_to: the id you passed.'),
  more: z
    .boolean()
    .optional()
    .describe('By up_to: unread notifications at or before up_to may remain; call again with up_to = next_up_to.'),
  next_up_to: z.string().optional(),
  replayed: replayedField,
});

type MarkedAnswer = Outcome<typeof markNotificationsReadOutputSchema>;
/** By ids: the ids read now (by this call or an earlier one), newest first, and those not in the inbox. */
type MarkedByIds = Required<Pick<MarkedAnswer, 'read' | 'unknown'>>;
/** By up_to: `more` when unread ones at or before it may remain; then call again with `up_to: next_up_to`. */
type MarkedUpTo = Required<Pick<MarkedAnswer, 'up_to' | 'more'>> & Pick<MarkedAnswer, 'next_up_to'>;
export type MarkedRead = MarkedByIds | MarkedUpTo;
