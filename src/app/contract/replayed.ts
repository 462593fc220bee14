// Every write's answer declares `replayed` (docs/design.md#write-rules): a replayed op_id answers the stored outcome.
import { z } from 'zod';

export const replayedField = z
  .literal(true)
  .optional()
  .describe('true when this is the stored answer to an earlier delivery of the same op_id; nothing was changed by this call.');

/** A use case's answer: its output schema without `replayed`, which only writeOnce adds (on an op_id replay). */
export type Outcome<S extends z.ZodType> = Omit<z.output<S>, 'replayed'>;
