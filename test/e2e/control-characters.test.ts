// No write stores a control character, lone surrogate, non-character or invisible character outside
// an emoji or a script that needs it (tag characters, bidirectional overrides, zero-width
// characters, runs of variation selectors): through MCP and /v1,
// every text argument of every write tool that holds one (markdown, story parts, edit notes,
// reproduction and check notes, agent and env strings, a front matter value spelled as a YAML
// escape) is refused with validation_failed naming that field, and nothing is written.
import { beforeAll, describe, expect, it } from 'vitest';
import { answerOf, useLorebookServer } from '../helpers/lorebook-server.ts';
import { storyTitled, successStory } from '../helpers/stories.ts';
import { type Surface, type WriteTool, writer } from './write-surface.ts';

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
  [
    'tag characters spelling an instruction in the markdown',
    'author',
    'publish_story',
    () => ({ markdown: storyTitled('Smuggled').replace('One evening', 'One\u{E0072}\u{E0075}\u{E006E} evening') }),
    'markdown',
  ],
  [
    'a right-to-left override in the title part',
    'author',
    'publish_story',
    () => ({ parts: { ...parts, title: 'Parts \u202Eesrever' } }),
    'parts.title',
  ],
  [
    'a run of variation selectors after an emoji in the markdown',
    'author',
    'publish_story',
    () => ({ markdown: storyTitled('Emoji bytes').replace('One evening', 'One 😀\uFE01\u{E0150}\u{E0161} evening') }),
    'markdown',
  ],
  [
    'a tag character spelled as a YAML escape in the title',
    'author',
    'publish_story',
    () => ({ markdown: storyTitled('Escaped tag').replace('title: Escaped tag', 'title: "Escaped tag\\U000E0041"') }),
    'front_matter.title',
  ],
  [
    'a zero-width space in a reproduction note',
    'reader',
    'report_reproduction',
    () => ({ slug, result: 'worked', note: 'pass\u200Bword' }),
    'note',
  ],
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

  it('a story written with flags, skin tones, ZWJ emoji, keycaps, Persian and Hindi is published as written', async () => {
    const asCaller = await writer(server, surface, author);
    const text = 'One 🏴󠁧󠁢󠁥󠁮󠁧󠁿 👩🏽‍💻 👨‍👩‍👧‍👦 1️⃣ می‌خواهم क्‌ष evening';
    const answer = await asCaller.write('publish_story', {
      markdown: storyTitled(`Written as people write ${surface}`).replace('One evening', text),
    });
    expect(answer.refused).toBe(false);
    const story = answerOf<{ markdown: string }>(
      await (await server.mcp()).callTool({ name: 'get_story', arguments: { slug: (answer.body as { slug: string }).slug } }),
    );
    expect(story.markdown).toContain(text);
  });
});
