// check_capability's scan, on the offload worker under the parse budget: telling a story from
// other text means parsing it as a story, which can take the same seconds publish's parse can.
import { validationFailed } from '../../domain/errors.ts';
import { MARKDOWN_PARSE_BUDGET_MS } from '../../domain/story/story-limits.ts';
import { heavyText, OffloadBudgetExceeded, OffloadFailed, type OffloadTask } from '../../offload/offload.ts';
import type { CheckCapabilityOutcome } from '../check-capability.contract.ts';
import { type CpuScope, runOffloaded } from '../context/offloaded.ts';

/** The parser and the scanner are imported by the first task that runs (in the worker, or inline). */
export const CHECK_CAPABILITY_TASK: OffloadTask<string, CheckCapabilityOutcome> = {
  module: new URL('./scan-capability-text.ts', import.meta.url),
  name: 'scanCapabilityText',
  run: async (text) => (await import('./scan-capability-text.ts')).scanCapabilityText(text),
  budgetMs: MARKDOWN_PARSE_BUDGET_MS,
  heavy: (text) => heavyText(text),
};

export async function scanCapabilityOffloaded(text: string, scope?: CpuScope): Promise<CheckCapabilityOutcome> {
  try {
    return await runOffloaded(scope, CHECK_CAPABILITY_TASK, text);
  } catch (error) {
    if (error instanceof OffloadBudgetExceeded || error instanceof OffloadFailed) {
      throw validationFailed(`The text took more than the ${MARKDOWN_PARSE_BUDGET_MS} ms time budget, or the memory set aside, to scan.`, {
        text: 'Send less: the steps that run, or the text split into parts.',
      });
    }
    throw error;
  }
}
