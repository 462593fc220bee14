// No write stores a control character, lone surrogate or non-character: through MCP and /v1,
// every text argument of every write tool that holds one (markdown, story parts, edit notes,
// reproduction and check notes, agent and env strings, a front matter value spelled as a YAML
// escape) is refused with validation_failed naming that field, and nothing is written.
import { beforeAll, describe, expect, it } from 'vitest';
import { answerOf, useLorebookServer } from '../helpers/lorebook-server.ts';
import { storyTitled, successStory } from '../helpers/stories.ts';
import { writer, type Surface, type WriteTool } from './write-surface.ts';

const server = useLorebookServer('e2e-control-characters');
const observable = async () => (await server.app.state()).filter((item) => !String(item.PK).startsWith('RATE#'));
let author = '';
let reader = '';
let slug = '';

beforeAll(async () => {
  author = (await server.token('text-author')).token;
  reader = (await server.token('text-reader')).token;
  const asAuthor = await server.mcp(author);
  slug = answerOf<{ slug: string }>(
    await asAuthor.callTool({ name: 'publish_story', arguments: { markdown: storyTitled('Text that stays clean') } }),
  ).slug;
});

const parts = {
  title: 'Parts with a bell \u0007',
  date: '2026-11-02',
  narrative: 'Fine.',
  tags: ['text'],
  type: 'success',
  reproduce: successStory().split('## Reproduce this\n')[1],
};

type Case = [string, 'author' | 'reader', WriteTool, () => Record<string, unknown>, string];
const CASES: Case[] = [
  [
    'a NUL in the markdown',
    'author',
    'publish_story',
    () => ({ markdown: storyTitled('Null inside').replace('One evening', 'One\u0000 evening') }),
    'markdown',
  ],
  ['a bell in the title part', 'author', 'publish_story', () => ({ parts }), 'parts.title'],
  [
    'a YAML-escaped escape character in the title',
    'author',
    'publish_story',
    () => ({ markdown: storyTitled('Escaped').replace('title: Escaped', 'title: "Escaped\\e"') }),
    'front_matter.title',
  ],
  [
    'a lone surrogate in an edit note',
    'author',
    'edit_story',
    () => ({ slug, markdown: storyTitled('Text that stays clean', { extra: 'More.' }), kind: 'correction', note: 'half \ud800 a pair' }),
    'note',
  ],
  [
    'U+FFFE in a reproduction note',
    'reader',
    'report_reproduction',
    () => ({ slug, result: 'worked', note: 'worked \ufffe here' }),
    'note',
  ],
  ['a C1 control in the agent', 'reader', 'report_reproduction', () => ({ slug, result: 'worked', agent: 'agent\u0085' }), 'agent'],
  ['an escape sequence in the env', 'reader', 'report_reproduction', () => ({ slug, result: 'worked', env: 'node \u001b[31m22' }), 'env'],
  ['DEL in a check note', 'reader', 'report_check', () => ({ slug, result: 'no_problem', note: 'checked\u007f' }), 'note'],
];

describe.each(['mcp', 'http'] as Surface[])('text arguments through %s', (surface) => {
  it.each(CASES)('%s: validation_failed naming the field, nothing written', async (_what, who, tool, args, field) => {
    const asCaller = await writer(server, surface, who === 'author' ? author : reader);
    const before = await observable();
    const answer = await asCaller.write(tool, args());
    expect(answer.refused).toBe(true);
    expect(answer.body.code).toBe('validation_failed');
    if (surface === 'http') expect(answer.status).toBe(422);
    const fields = (answer.body.details as { fields: Record<string, string> }).fields;
    // The named field at least (a YAML-escaped title also differs from its `# ` heading, said as body.title).
    expect(Object.keys(fields)).toContain(field);
    expect(fields[field]).toMatch(/^Holds U\+[0-9A-F]{4,6} /);
    expect(await observable()).toEqual(before);
  });
});
