// The account export's shape (docs/api.md § Account export), for the OpenAPI document: one JSON
// object, streamed. Items keep their stored fields (minus keys and bookkeeping), so the sections
// are described, not closed.
import { z } from 'zod';

const items = (what: string) => z.array(z.record(z.string(), z.unknown())).describe(what);

export const accountExportSchema = z.object({
  format: z.literal('lorebook.account-export.v1'),
  exported_at: z.string().describe('When the export was written (ISO 8601).'),
  account: z.object({ id: z.string(), handle: z.string(), created_at: z.string().nullable() }),
  stories: items(
    "Your stories: each META's fields, `markdown` (the current text) and `revisions` (every revision, oldest first; a redacted one has `redacted: true` and no `markdown`).",
  ),
  reproductions: items('Your reproduction reports, on any story.'),
  checks: items('Your check reports, on any story.'),
  drift_reports: items('Your drift reports, on any story.'),
  flags: items('Your flags on stories (docs/moderation.md), open ones only.'),
  drafts: items('Drafts you wrote for someone or claimed, with `role` (drafter or claimer) and the markdown.'),
  notifications: items('Your notifications, oldest first, with their `id`.'),
  images: items('Images you uploaded first: sha256, type, size, when, and `url`.'),
  connected_apps: items('Your OAuth grants (apps you connected): client, redirect URI, resource, when; never a token or a hash of one.'),
});
