// The rendered-body cache: keyed by the markdown itself (so never stale), bounded by entries and
// by bytes, least recently used out first; concurrent views share one render; a story over a
// cost limit, or whose render runs past its budget, is shown degraded. The real renderer (on the
// real offload worker) is wrapped to count how often it runs.
import { afterEach, describe, expect, it } from 'vitest';
import { RENDER_STORY_BODY_TASK } from '../../../../src/http/pages/render-body-task.ts';
import { renderStoryBody } from '../../../../src/http/pages/render-story-body.ts';
import { createRenderedBodies, renderOffloaded } from '../../../../src/http/pages/rendered-bodies.ts';
import { sharedCpuSlots } from '../../../../src/offload/cpu-slots.ts';
import { createOffload, type Offload } from '../../../../src/offload/offload.ts';
import { HOSTILE_CASES, WORST_ACCEPTED } from '../../../helpers/hostile-markdown.ts';

function counted(options: { maxEntries?: number; maxBytes?: number }): {
  bodies: ReturnType<typeof createRenderedBodies>;
  renders: string[];
} {
  const renders: string[] = [];
  const bodies = createRenderedBodies({
    ...options,
    render: async (markdown) => {
      renders.push(markdown);
      return renderStoryBody(markdown);
    },
  });
  return { bodies, renders };
}

const opened: Offload[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((made) => made.close()));
});

describe('rendered story bodies', () => {
  it('by default renders the body without its title heading', async () => {
    expect(await createRenderedBodies().html('# T\n\nfirst')).toBe('<p>first</p>');
  });

  it('the same text twice is rendered once', async () => {
    const { bodies, renders } = counted({ maxEntries: 4 });
    expect(await bodies.html('# T\n\nfirst')).toBe('<p>first</p>');
    expect(await bodies.html('# T\n\nfirst')).toBe('<p>first</p>');
    expect(renders).toEqual(['# T\n\nfirst']);
  });

  it('concurrent views of one uncached story share one render', async () => {
    const { bodies, renders } = counted({ maxEntries: 4 });
    const views = await Promise.all(Array.from({ length: 16 }, () => bodies.html('# T\n\nshared')));
    expect(new Set(views)).toEqual(new Set(['<p>shared</p>']));
    expect(renders).toHaveLength(1);
  });

  it('changed text is rendered afresh: an entry is never stale', async () => {
    const { bodies, renders } = counted({ maxEntries: 4 });
    await bodies.html('# T\n\nfirst');
    expect(await bodies.html('# T\n\nsecond')).toBe('<p>second</p>');
    expect(renders).toHaveLength(2);
  });

  it('holds at most its bound of entries, dropping the least recently used', async () => {
    const { bodies, renders } = counted({ maxEntries: 2 });
    for (const text of ['a', 'b', 'a', 'c']) await bodies.html(text);
    expect(renders).toEqual(['a', 'b', 'c']);
    // a was used after b, so it stayed; b was the least recently used and is rendered again.
    await bodies.html('a');
    expect(renders).toEqual(['a', 'b', 'c']);
    expect(await bodies.html('b')).toBe('<p>b</p>');
    expect(renders).toEqual(['a', 'b', 'c', 'b']);
  });

  it('holds at most its bound of bytes, however few the entries', async () => {
    const { bodies, renders } = counted({ maxEntries: 100, maxBytes: 25 });
    await bodies.html('1234567890'); // <p>1234567890</p>: 17 bytes
    await bodies.html('abcdefghij'); // 17 more: the first goes
    expect(bodies.bytes).toBe(17);
    await bodies.html('abcdefghij');
    await bodies.html('1234567890');
    expect(renders).toEqual(['1234567890', 'abcdefghij', '1234567890']);
  });
});

describe('bounded rendering', () => {
  it.each(HOSTILE_CASES.map((hostile) => [hostile.name, hostile] as const))(
    'a stored story over a limit (%s) is shown as escaped text with a note naming the limit',
    (_name, hostile) => {
      const html = renderStoryBody(`# T\n\n<b>kept as text</b>\n\n${hostile.narrative}`);
      expect(html).toMatch(
        /^<div class="notes" data-degraded="true"><p>This story is shown as plain text: its markdown is over the .+ limit \(\d+\)\.<\/p><\/div>\n<pre class="plain">/,
      );
      expect(html).toContain('&lt;b&gt;kept as text&lt;/b&gt;');
      expect(html).not.toContain('<b>');
      expect(html).not.toContain('<blockquote>');
      expect(html.length).toBeLessThan(6 * hostile.narrative.length);
    },
  );

  it('HTML over the rendered size limit is shown degraded, whatever the estimate said', () => {
    const body = `# T\n\n${'word '.repeat(40)}`;
    expect(renderStoryBody(body)).toBe(`<p>${'word '.repeat(39)}word</p>`);
    expect(renderStoryBody(body, 100)).toContain('rendered, it would be over the rendered size limit (100 bytes).');
  });

  it('a render past its budget is stopped and shown degraded, naming the budget', { timeout: 60_000 }, async () => {
    const offload = createOffload();
    opened.push(offload);
    const slowest = WORST_ACCEPTED.find((accepted) => accepted.name.startsWith('one-character paragraphs'));
    const html = await renderOffloaded(
      { markdown: `# T\n\n${slowest?.narrative}` },
      { cpu: { ...sharedCpuSlots(), offload } },
      { ...RENDER_STORY_BODY_TASK, budgetMs: 50 },
    );
    expect(html).toContain('rendering it took longer than the render time budget (50 ms).');
    expect(html).toContain('<pre class="plain">');
  });
});
