// check_capability's contract: text in, the capability report out. MCP's tool and
// POST /v1/capability list and accept exactly these.
import { z } from 'zod';
import { MAX_SCAN_TEXT_BYTES } from '../domain/capability/scan-limits.ts';
import { capabilityReportSchema } from './contract/capability-schemas.ts';
import { describedObject } from './contract/described-object.ts';
import { type Outcome, replayedField } from './contract/replayed.ts';

export const CHECK_CAPABILITY_TOOL = 'check_capability';

export const checkCapabilityInputSchema = describedObject(
  { text: z.string().optional(), url: z.string().optional() },
  {
    text: `The steps to check, as markdown: a whole story (front matter and all), a skill, a contract, or the commands you are about to run. At most ${MAX_SCAN_TEXT_BYTES} bytes of UTF-8. Send this or url, not both.`,
    url: `Signed-in callers only: a public https URL whose answer is the text to check (at most ${MAX_SCAN_TEXT_BYTES} bytes, read within 10 s). Send this or text, not both.`,
  },
).refine((input) => (input.text === undefined) !== (input.url === undefined), {
  message: 'Send exactly one of `text` (the text itself) or `url` (where to read it; needs a token).',
  path: ['text'],
});

export type CheckCapabilityInput = z.input<typeof checkCapabilityInputSchema>;

export const checkCapabilityOutputSchema = capabilityReportSchema.extend({
  scanned_as: z
    .enum(['story', 'text'])
    .describe(
      '"story": the text is a valid lorebook story, so only its check and reproduce sections were scanned, exactly as publish scans them (lines are lines of the story); "text": anything else, scanned whole as one markdown section.',
    ),
  replayed: replayedField,
});

export type CheckCapabilityOutcome = Outcome<typeof checkCapabilityOutputSchema>;
