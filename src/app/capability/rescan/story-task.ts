// A stored story's report under a given scanner version, on the offload worker: parsing and
// scanning a 64 KiB story takes up to a parse budget of CPU, which must not stall the event
// loop of `npm start` or of the Lambda serving requests beside it. The version is an input, not
// a global: the job decides which version it writes (a test runs a version bump that way), and
// the report carries it exactly as a scan under that version would.
import type { CapabilityReport } from '../../../domain/capability/report.ts';
import { scanParsedStory } from '../../../domain/capability/scan.ts';
import { withSharedMarkdownTrees } from '../../../domain/story/markdown-tree.ts';
import { parseStory } from '../../../domain/story/parse-story.ts';
import { MARKDOWN_PARSE_BUDGET_MS } from '../../../domain/story/story-limits.ts';
import { heavyText, type OffloadTask } from '../../../offload/offload.ts';
import { type CpuScope, runOffloaded } from '../../context/offloaded.ts';

export interface RescanInput {
  markdown: string;
  scannerVersion: string;
}

/** Runs in the worker: the publish path's parse, then the scan, stamped with the job's version. */
export function rescanStoryText(input: RescanInput): CapabilityReport {
  return { ...withSharedMarkdownTrees(() => scanParsedStory(parseStory(input.markdown))), scanner_version: input.scannerVersion };
}

export const RESCAN_STORY_TASK: OffloadTask<RescanInput, CapabilityReport> = {
  module: new URL(import.meta.url),
  name: 'rescanStoryText',
  run: rescanStoryText,
  budgetMs: MARKDOWN_PARSE_BUDGET_MS,
  heavy: (input) => heavyText(input.markdown),
};

/**
 * On the context's workers when it has them (npm start's, shared fairly with the callers' jobs:
 * docs/design.md#fair-cpu), as the process's own job; else the process's.
 */
export const rescanOffloaded = (input: RescanInput, scope?: CpuScope): Promise<CapabilityReport> =>
  runOffloaded(scope, RESCAN_STORY_TASK, input);
