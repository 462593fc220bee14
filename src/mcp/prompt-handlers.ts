// prompts/list, prompts/get and completion/complete. A prompt that names a story refuses like
// get_story (not found, bad slug) through the protocol error of ./resources/protocol-error.ts.
// Completion suggests public slugs for every `slug` argument (the prompts' and the story
// template's); for any other argument it has nothing to suggest and says so with no values.
import type { CompleteRequest, CompleteResult, Prompt, Server } from '@modelcontextprotocol/server';
import type { Caller } from '../app/context/app-context.ts';
import { LorebookError } from '../domain/errors.ts';
import { PROMPTS } from './prompts/index.ts';
import type { PromptDefinition } from './prompts/prompt.ts';
import { answeredOrRefused } from './resources/protocol-error.ts';
import { STORY_TEMPLATE } from './resources/story-resource.ts';
import type { ToolDeps } from './tool.ts';

const PROMPTS_BY_NAME = new Map(PROMPTS.map((prompt) => [prompt.name, prompt]));

const listed = ({ name, title, description, arguments: args }: PromptDefinition): Prompt => ({ name, title, description, arguments: args });

function promptNamed(name: string): PromptDefinition {
  const prompt = PROMPTS_BY_NAME.get(name);
  if (prompt !== undefined) return prompt;
  throw new LorebookError('validation_failed', `No prompt ${JSON.stringify(name.slice(0, 100))}. prompts/list names the prompts.`, {
    details: { fields: { name: `One of ${PROMPTS.map((p) => p.name).join(', ')}.` } },
  });
}

/** Whether a completion request asks for a story slug: a prompt's `slug` argument or the story template's. */
function asksForSlug({ ref, argument }: CompleteRequest['params']): boolean {
  if (argument.name !== 'slug') return false;
  if (ref.type === 'ref/prompt') return PROMPTS_BY_NAME.get(ref.name)?.arguments?.some((arg) => arg.name === 'slug') === true;
  return ref.uri === STORY_TEMPLATE.uriTemplate;
}

const NOTHING_TO_COMPLETE: CompleteResult = { completion: { values: [], total: 0, hasMore: false } };

export function servePrompts(server: Server, deps: ToolDeps, caller: Caller | undefined): void {
  server.setRequestHandler('prompts/list', () => ({ prompts: PROMPTS.map(listed) }));
  server.setRequestHandler('prompts/get', (request) =>
    answeredOrRefused(async () => {
      const prompt = promptNamed(request.params.name);
      return { description: prompt.description, messages: await prompt.messages(deps, caller, request.params.arguments ?? {}) };
    }),
  );
  server.setRequestHandler('completion/complete', async (request) => {
    if (!asksForSlug(request.params)) return NOTHING_TO_COMPLETE;
    return { completion: { ...(await deps.search.completeSlug(request.params.argument.value)) } };
  });
}
