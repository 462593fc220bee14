// POST /v1/capability: check_capability, as text/markdown or JSON `{text}` (or `{url}`, signed in).
import { CHECK_CAPABILITY_TOOL, checkCapabilityInputSchema, checkCapabilityOutputSchema } from '../../app/check-capability.contract.ts';
import { checkCapability } from '../../app/check-capability.ts';
import { markdownOrJsonBody } from './request.ts';
import { defineRoute } from './route.ts';

export const checkCapabilityRoute = defineRoute({
  method: 'POST',
  path: '/v1/capability',
  operationId: 'checkCapability',
  summary: `Check what steps would do (${CHECK_CAPABILITY_TOOL})`,
  description:
    "Send text (`text/markdown`, or JSON `{text}`): the answer is the capability report of what running it would do — tier T0–T4, findings with line and evidence, sha256 of the scanned text, scanner version. A whole lorebook story is scanned as publish scans it (`scanned_as`). With a token, JSON `{url}` reads a public https URL instead (SSRF-safe, at most 256 KiB, 10 s). Anonymous for text, read-only, stores nothing; counted against the caller's rate limit like any call.",
  jsonBody: checkCapabilityInputSchema,
  markdownBody: 'The text to scan, at most 256 KiB of UTF-8.',
  success: { status: 200, description: 'The capability report.', schema: checkCapabilityOutputSchema },
  errors: ['validation_failed', 'payload_too_large', 'unauthenticated', 'rate_limited'],
  async handle(c, caller, { ctx }) {
    return c.json(await checkCapability(ctx, caller, await markdownOrJsonBody(c, {}, 'text')), 200, { 'Cache-Control': 'no-store' });
  },
});
