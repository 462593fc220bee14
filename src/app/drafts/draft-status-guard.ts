// The condition a no-op draft change records its op_id under: the draft still has the status the
// plan read, so an op record never certifies a state that changed under it.
import type { StoredDraftStatus } from '../../domain/draft/draft-rules.ts';
import type { Condition } from '../../store/condition.ts';

export const statusStill = (status: StoredDraftStatus): Condition => ({
  expression: '#status = :status',
  names: { '#status': 'status' },
  values: { ':status': status },
});
