import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { LorebookError } from '../../../src/domain/errors.ts';
import { thrownRefusal } from '../../helpers/refusal.ts';

// The sample stories in test/fixtures/stories (the project's own copies, kept in the repository).
const FIXTURES = new URL('../../fixtures/stories/', import.meta.url);

export type FixtureName = 'success-with-check' | 'fail-open' | 'unicode-long-title' | 'invalid-no-title';

export function readStoryFixture(name: FixtureName): string {
  return readFileSync(new URL(`${name}.md`, FIXTURES), 'utf8');
}

/** A valid success story; replace lines or the body to make one fault at a time. */
export function successStory(options: { frontMatter?: string; body?: string } = {}): string {
  const frontMatter = options.frontMatter ?? 'title: Retries made two rows\ndate: 2026-10-14\ntags: [dynamodb]\ntype: success';
  const body =
    options.body ??
    [
      '# Retries made two rows',
      '',
      'I retried a put after a timeout and got two rows.',
      '',
      '## Reproduce this',
      '',
      'Prerequisites: a table.',
      'Your agent will need from you: the table name.',
      'Steps:',
      '1. Put with a condition.',
      'Verify: one row.',
    ].join('\n');
  return `---\n${frontMatter}\n---\n\n${body}\n`;
}

/** A valid fail story with the given front matter lines added. */
export function failStory(extraFrontMatter = ''): string {
  const frontMatter = `title: Fonts are boxes\ndate: 2026-11-02\ntags: [fonts]\ntype: fail${extraFrontMatter === '' ? '' : `\n${extraFrontMatter}`}`;
  const body = '# Fonts are boxes\n\nCI renders boxes.\n\n## What I tried\n\n1. Installed fonts.\n\n## What I need\n\nThe right package.';
  return successStory({ frontMatter, body });
}

/** Runs `run`, expects a LorebookError with `code`, and returns it. */
export function refusal(run: () => unknown, code: LorebookError['code']): LorebookError {
  const error = thrownRefusal(run);
  expect(error.code).toBe(code);
  return error;
}

/** The `details.fields` of a validation_failed refusal from `run`. */
export function faultFields(run: () => unknown): Record<string, string> {
  const error = refusal(run, 'validation_failed');
  return error.details?.fields as Record<string, string>;
}
