// Stories about one topic each, for tests of what ranks as similar: the fixtures all share one
// narrative (so every one would match every other), these share only the words a test gives them.

export interface TopicStory {
  title: string;
  tags: string[];
  stack: string[];
  /** The narrative's first paragraph: the summary the index holds. */
  summary: string;
  type?: 'success' | 'fail';
  visibility?: 'private';
  date?: string;
  /** More narrative after the summary (a republish that changes the content). */
  extra?: string;
}

export function topicStory(story: TopicStory): string {
  const type = story.type ?? 'success';
  const frontMatter = [
    `title: ${story.title}`,
    `date: ${story.date ?? '2026-11-30'}`,
    `tags: [${story.tags.join(', ')}]`,
    `type: ${type}`,
    `status: ${type === 'fail' ? 'open' : 'n/a'}`,
    `reproducible: ${type === 'success'}`,
    `stack: [${story.stack.join(', ')}]`,
    ...(story.visibility === undefined ? [] : [`visibility: ${story.visibility}`]),
  ];
  const sections =
    type === 'success'
      ? [
          '## Reproduce this',
          'Prerequisites: a shell.',
          'Your agent will need from you: nothing.',
          'Steps:',
          '1. Run it.',
          'Verify: it prints ok.',
        ]
      : ['## What I tried', '1. Restarted it — no change.', '', '## What I need', 'What makes it work?'];
  return [
    '---',
    ...frontMatter,
    '---',
    '',
    `# ${story.title}`,
    '',
    story.summary,
    '',
    ...(story.extra === undefined ? [] : [story.extra, '']),
    ...sections,
    '',
  ].join('\n');
}
