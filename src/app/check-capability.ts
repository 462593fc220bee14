// check_capability — anonymous and read-only: what running the given steps would do to the
// machine that runs them (docs/capability.md). Nothing is stored; the same text under the same
// scanner version answers the same report.
import { MAX_SCAN_TEXT_BYTES } from '../domain/capability/scan-limits.ts';
import { payloadTooLarge } from '../domain/errors.ts';
import { utf8Bytes } from '../domain/story/story-limits.ts';
import {
  CHECK_CAPABILITY_TOOL,
  checkCapabilityInputSchema,
  checkCapabilityOutputSchema,
  type CheckCapabilityOutcome,
} from './check-capability.contract.ts';
import { scanCapabilityOffloaded } from './check-capability-task.ts';
import { parseInput } from './parse-input.ts';

export async function checkCapability(raw: unknown): Promise<CheckCapabilityOutcome> {
  const { text } = parseInput(checkCapabilityInputSchema, raw, CHECK_CAPABILITY_TOOL);
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
  return checkCapabilityOutputSchema.parse(await scanCapabilityOffloaded(text));
}
