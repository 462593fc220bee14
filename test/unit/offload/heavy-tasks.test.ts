// Which offload jobs are heavy (src/offload/fair-queue.ts): a large input never takes the last
// free worker. Each task that parses, scans or renders markdown says so past HEAVY_TEXT_CHARS.
import { describe, expect, it } from 'vitest';
import { CHECK_CAPABILITY_TASK } from '../../../src/app/capability/check-capability-task.ts';
import { RESCAN_STORY_TASK } from '../../../src/app/capability/rescan/story-task.ts';
import { PARSE_STORY_TASK } from '../../../src/app/story-content/parse-story-task.ts';
import { RENDER_STORY_BODY_TASK } from '../../../src/http/pages/render-body-task.ts';
import { HEAVY_TEXT_CHARS, heavyText } from '../../../src/offload/offload.ts';
import { PLAIN_TEXT_TASK } from '../../../src/outbox/plain-text-task.ts';

const AT_LIMIT = 'x'.repeat(HEAVY_TEXT_CHARS);
const PAST = `${AT_LIMIT}x`;

describe('heavy offload jobs', () => {
  it('a text is heavy past HEAVY_TEXT_CHARS, counting every text given and nothing else', () => {
    expect(heavyText(AT_LIMIT)).toBe(false);
    expect(heavyText(PAST)).toBe(true);
    expect(heavyText(AT_LIMIT.slice(1), 'xy')).toBe(true);
    expect(heavyText(AT_LIMIT, ['not', 'text'], 7, undefined)).toBe(false);
  });

  it('publish and edit: a story sent as markdown or as parts', () => {
    expect(PARSE_STORY_TASK.heavy?.({ markdown: AT_LIMIT })).toBe(false);
    expect(PARSE_STORY_TASK.heavy?.({ markdown: PAST })).toBe(true);
    const parts = { title: 'T', date: '2026-12-03', tags: ['a'], type: 'success', narrative: AT_LIMIT.slice(100) };
    expect(PARSE_STORY_TASK.heavy?.({ parts })).toBe(false);
    expect(PARSE_STORY_TASK.heavy?.({ parts: { ...parts, what_i_tried: 'x'.repeat(200) } })).toBe(true);
  });

  it('check_capability, the rescan, the page render and the plain text', () => {
    expect([CHECK_CAPABILITY_TASK.heavy?.(AT_LIMIT), CHECK_CAPABILITY_TASK.heavy?.(PAST)]).toEqual([false, true]);
    expect([
      RESCAN_STORY_TASK.heavy?.({ markdown: AT_LIMIT, scannerVersion: '1' }),
      RESCAN_STORY_TASK.heavy?.({ markdown: PAST, scannerVersion: '1' }),
    ]).toEqual([false, true]);
    expect([RENDER_STORY_BODY_TASK.heavy?.({ markdown: AT_LIMIT }), RENDER_STORY_BODY_TASK.heavy?.({ markdown: PAST })]).toEqual([
      false,
      true,
    ]);
    expect([PLAIN_TEXT_TASK.heavy?.(AT_LIMIT), PLAIN_TEXT_TASK.heavy?.(PAST)]).toEqual([false, true]);
  });
});
