// Stories in the shapes people and agents actually write them (test/fixtures/stories/as-written):
// each file is one shape the format must accept, with what it must parse to.
import { readFileSync } from 'node:fs';

const CORPUS = new URL('../fixtures/stories/as-written/', import.meta.url);

export interface CorpusStory {
  file: string;
  /** The way of writing this file stands for. */
  shape: string;
  type: 'success' | 'fail';
  hasCheck: boolean;
  /** The slug the story's date and title make. */
  slug: string;
}

export const STORY_CORPUS: readonly CorpusStory[] = [
  {
    file: 'worklore-template-success.md',
    shape: "worklore's published template: labels right under the heading, Steps: as plain lines",
    type: 'success',
    hasCheck: false,
    slug: '2026-11-03-dark-mode-toggle-that-survives-a-page-reload',
  },
  {
    file: 'worklore-template-fail.md',
    shape: "worklore's fail template: `1. attempt — result`, no blank lines around the headings",
    type: 'fail',
    hasCheck: false,
    slug: '2026-11-04-agent-cant-get-the-release-build-to-sign-after-three',
  },
  {
    file: 'check-verdicts-one-line.md',
    shape: "`Has the problem: … Doesn't have it: …` as two sentences of one line",
    type: 'success',
    hasCheck: true,
    slug: '2026-11-05-webhook-retries-charged-a-customer-twice',
  },
  {
    file: 'check-one-paragraph.md',
    shape: 'the whole check as one paragraph, read-only steps as plain lines',
    type: 'success',
    hasCheck: true,
    slug: '2026-11-06-cron-job-ran-twice-after-the-clocks-changed',
  },
  {
    file: 'check-bulleted-steps.md',
    shape: 'read-only steps and Steps: as bullets',
    type: 'success',
    hasCheck: true,
    slug: '2026-11-07-image-uploads-rotated-sideways-on-phones',
  },
  {
    file: 'check-plain-steps.md',
    shape: 'Read-only steps: and Steps: followed by plain lines',
    type: 'success',
    hasCheck: true,
    slug: '2026-11-08-search-ignored-accents-until-i-normalised-both-sides',
  },
  {
    file: 'check-all-one-list.md',
    shape: 'every label and step as one bulleted list',
    type: 'success',
    hasCheck: true,
    slug: '2026-11-09-background-sync-drained-the-battery-overnight',
  },
  {
    file: 'reproduce-inline-labels.md',
    shape: 'two labels per line, each starting a sentence',
    type: 'success',
    hasCheck: false,
    slug: '2026-11-10-docker-build-cache-busted-by-a-timestamp-file',
  },
  {
    file: 'reproduce-step-styles.md',
    shape: 'Steps: numbered with `1)`, with a nested bullet list',
    type: 'success',
    hasCheck: false,
    slug: '2026-11-11-flaky-test-fixed-by-waiting-for-the-port-not-a-timer',
  },
  {
    file: 'reproduce-bold-and-quoted.md',
    shape: 'labels in bold (`**` and `__`), one in a blockquote, `*` bullets',
    type: 'success',
    hasCheck: false,
    slug: '2026-11-12-emails-landed-in-spam-until-the-return-path-matched',
  },
  {
    file: 'reproduce-subheadings.md',
    shape: 'labels as `###` sub-headings without a colon',
    type: 'success',
    hasCheck: false,
    slug: '2026-11-13-slow-page-fixed-by-one-missing-database-index',
  },
  {
    file: 'check-code-steps.md',
    shape: 'read-only steps as a fenced shell block',
    type: 'success',
    hasCheck: true,
    slug: '2026-11-14-config-reload-leaked-file-handles',
  },
  {
    file: 'fail-attempt-styles.md',
    shape: 'attempts numbered with `1)`, then bullets, results after `-`, `--` and `:`',
    type: 'fail',
    hasCheck: false,
    slug: '2026-11-15-agent-cant-stop-the-dev-server-from-eating-a-whole-core',
  },
  {
    file: 'loose-spacing-and-case.md',
    shape: 'headings and labels in any case, doubled spaces, a space before the colon, a curly apostrophe',
    type: 'success',
    hasCheck: true,
    slug: '2026-11-16-locale-aware-sorting-put-names-in-the-wrong-order',
  },
  {
    file: 'exported-from-page.md',
    shape: 'exported from a web page: setext headings, `1\\.` escapes, `&#39;`, `*   ` bullets, a paragraph per label',
    type: 'success',
    hasCheck: true,
    slug: '2026-11-17-form-lost-its-input-when-the-session-expired',
  },
  {
    file: 'check-steps-after-label-inline.md',
    shape: "Read-only steps:, Has the problem: and Doesn't have it: as sentences of one line",
    type: 'success',
    hasCheck: true,
    slug: '2026-11-18-feature-flag-cache-served-stale-values-for-an-hour',
  },
  {
    file: 'windows-crlf-bom.md',
    shape: 'saved on Windows: a byte-order mark, CRLF line endings, trailing spaces',
    type: 'success',
    hasCheck: true,
    slug: '2026-11-19-windows-line-endings-broke-my-shell-script',
  },
];

/** The file's bytes exactly as written (CRLF and a byte-order mark included). */
export function corpusBytes(file: string): Buffer {
  return readFileSync(new URL(file, CORPUS));
}

export function corpusText(file: string): string {
  return corpusBytes(file).toString('utf8');
}
