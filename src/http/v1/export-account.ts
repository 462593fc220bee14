// GET /v1/account/export: everything the caller's account owns as one JSON document, streamed as
// it is read (src/app/account-export/export-account.ts).

import type { Context } from 'hono';
import { stream } from 'hono/streaming';
import { accountExportSchema } from '../../app/account-export/export-account.contract.ts';
import { signedIn } from '../../app/caller/signed-in.ts';
import type { AppContext, Caller } from '../../app/context/app-context.ts';
import type { HttpEnv } from '../http-env.ts';
import { defineRoute } from './route.ts';

/** The export as a download; also what the account page's link answers. */
export async function exportDownload(c: Context<HttpEnv>, ctx: AppContext, caller: Caller): Promise<Response> {
  // Loaded on first use, not at a cold start (what the http function loads at a cold start is
  // bounded: test/unit/infra/lorebook-stack/bundled.test.ts).
  const pieces = await (await import('../../app/account-export/export-account.ts')).exportAccount(ctx, caller);
  c.header('Content-Type', 'application/json; charset=utf-8');
  c.header('Content-Disposition', `attachment; filename="lorebook-export-${caller.handle.replace(/[^A-Za-z0-9._-]/g, '_')}.json"`);
  c.header('Cache-Control', 'no-store');
  // A store failure part-way ends the body early: the document then does not parse, never a silently short one.
  return stream(c, async (out) => {
    for await (const piece of pieces) if (piece !== '') await out.write(piece);
  });
}

export const exportAccountRoute = defineRoute({
  method: 'GET',
  path: '/v1/account/export',
  operationId: 'exportAccount',
  summary: 'Everything your account owns, as one JSON document',
  description:
    'Your account, your stories with every revision, your reproduction, check and drift reports, drafts, notifications, images (URLs) and connected apps (never a token or its hash), streamed as one JSON document (`Content-Disposition: attachment`). Needs a token with `lorebook:read`. A document cut short by a failure part-way does not parse: download it again.',
  success: { status: 200, description: 'The export.', schema: accountExportSchema },
  errors: ['unauthenticated', 'forbidden', 'rate_limited', 'store_unavailable'],
  async handle(c, caller, { ctx }) {
    return exportDownload(c, ctx, signedIn(caller));
  },
});
