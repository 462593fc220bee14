// What a lorebook MCP prompt is: a name, a description for the person choosing it, its arguments,
// and the messages it expands to for one caller. Prompts run under the same access rule as the
// read tools (anonymous); one that names a story reads it through get_story's query.
import type { Prompt, PromptMessage } from '@modelcontextprotocol/server';
import type { Caller } from '../../app/context/app-context.ts';
import type { ToolDeps } from '../tool.ts';

export interface PromptDefinition extends Prompt {
  messages(deps: ToolDeps, caller: Caller | undefined, args: Readonly<Record<string, string>>): Promise<PromptMessage[]>;
}

export const userText = (text: string): PromptMessage => ({ role: 'user', content: { type: 'text', text } });
