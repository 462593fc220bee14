// Every lorebook MCP prompt, in the order prompts/list shows them.
import { checkStoryPrompt } from './check-story.ts';
import type { PromptDefinition } from './prompt.ts';
import { reproduceStoryPrompt } from './reproduce-story.ts';
import { writeStoryPrompt } from './write-story.ts';

export const PROMPTS: readonly PromptDefinition[] = [writeStoryPrompt, reproduceStoryPrompt, checkStoryPrompt];
