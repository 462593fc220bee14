// The draft id of a /v1/drafts/{id}/… path is the use case's draft_id; a body naming another one is refused rather than ignored.
import type { Context } from 'hono';
import { validationFailed } from '../../domain/errors.ts';
import type { HttpEnv } from '../http-env.ts';

export function withPathDraftId(c: Context<HttpEnv>, input: Record<string, unknown>): Record<string, unknown> {
  const id = c.req.param('id') ?? '';
  if (input.draft_id !== undefined && input.draft_id !== id) {
    throw validationFailed('The body names another draft than the path.', {
      draft_id: 'Leave draft_id out of the body: the path names the draft.',
    });
  }
  return { ...input, draft_id: id };
}
