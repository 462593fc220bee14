// Story markdown for tests: the shared fixtures, and small variations of them.
import { readFileSync } from 'node:fs';

// The sample stories in test/fixtures/stories (the project's own copies, kept in the repository).
const FIXTURES = new URL('../fixtures/stories/', import.meta.url);

export function fixture(name: string): string {
  return readFileSync(new URL(name, FIXTURES), 'utf8');
}

export const successStory = (): string => fixture('success-with-check.md');
export const failStory = (): string => fixture('fail-open.md');

/** A valid story with its own title (so its own slug), optionally with extra narrative text. */
export function storyTitled(title: string, options: { extra?: string; visibility?: 'public' | 'private'; check?: boolean } = {}): string {
  let markdown = successStory().replaceAll('My counter doubled when two agents reported at once', title);
  if (options.visibility === 'private') markdown = markdown.replace('status: n/a\n', 'status: n/a\nvisibility: private\n');
  if (options.extra !== undefined) markdown = markdown.replace('What stuck was', `${options.extra} What stuck was`);
  if (options.check === false) markdown = markdown.replace(/## Check if this applies to you[\s\S]*?(?=## Reproduce this)/, '');
  return markdown;
}
