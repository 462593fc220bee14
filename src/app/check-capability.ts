// check_capability — read-only: what running the given steps would do to the machine that runs
// them (docs/capability.md). Text is anonymous; a URL is read for signed-in callers only (each
// fetch costs this server a connection to a host a stranger picks). Nothing is stored; the same
// text under the same scanner version answers the same report.
import { MAX_SCAN_TEXT_BYTES } from '../domain/capability/scan-limits.ts';
import { payloadTooLarge } from '../domain/errors.ts';
import { utf8Bytes } from '../domain/story/story-limits.ts';
import { signedIn } from './caller/signed-in.ts';
import { textAtUrl } from './capability/capability-url-text.ts';
import { scanCapabilityOffloaded } from './capability/check-capability-task.ts';
import {
  CHECK_CAPABILITY_TOOL,
  type CheckCapabilityOutcome,
  checkCapabilityInputSchema,
  checkCapabilityOutputSchema,
} from './check-capability.contract.ts';
import type { AppContext, Caller } from './context/app-context.ts';
import { parseInput } from './input/parse-input.ts';

export async function checkCapability(ctx: AppContext, caller: Caller | undefined, raw: unknown): Promise<CheckCapabilityOutcome> {
  const input = parseInput(checkCapabilityInputSchema, raw, CHECK_CAPABILITY_TOOL);
  const text = await textOf(caller, input);
  const bytes = utf8Bytes(text);
  // Refused before it reaches the worker: nothing past the scanner's cap is read at all.
  if (bytes > MAX_SCAN_TEXT_BYTES) {
    throw payloadTooLarge(
      `The text is ${bytes} bytes; check_capability reads at most ${MAX_SCAN_TEXT_BYTES} bytes (256 KiB) of UTF-8. Send the steps that run, or split the text.`,
      {
        limit_bytes: MAX_SCAN_TEXT_BYTES,
      },
    );
  }
  // In the order the output schema lists its fields, as every answer is.
  return checkCapabilityOutputSchema.parse(await scanCapabilityOffloaded(text, ctx));
}

/** The text sent, or the text at the URL sent: read only for a signed-in caller. */
async function textOf(caller: Caller | undefined, input: { text?: string; url?: string }): Promise<string> {
  if (input.url === undefined) return input.text ?? '';
  signedIn(caller);
  return textAtUrl(input.url);
}
