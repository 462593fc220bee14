// The rendered-body cache: keyed by the markdown itself (so never stale), bounded, least recently
// used out first. The real renderer is wrapped to count how often it runs.
import { describe, expect, it } from 'vitest';
import { createRenderedBodies } from '../../../src/http/pages/rendered-bodies.ts';
import { renderMarkdown, storyBodyMarkdown } from '../../../src/http/pages/render-markdown.ts';

function counted(max: number): { bodies: ReturnType<typeof createRenderedBodies>; renders: string[] } {
  const renders: string[] = [];
  const bodies = createRenderedBodies(max, (markdown) => {
    renders.push(markdown);
    return renderMarkdown(storyBodyMarkdown(markdown));
  });
  return { bodies, renders };
}

describe('rendered story bodies', () => {
  it('by default renders the body without its title heading', () => {
    expect(createRenderedBodies().html('# T\n\nfirst')).toBe('<p>first</p>');
  });

  it('the same text twice is rendered once', () => {
    const { bodies, renders } = counted(4);
    expect(bodies.html('# T\n\nfirst')).toBe('<p>first</p>');
    expect(bodies.html('# T\n\nfirst')).toBe('<p>first</p>');
    expect(renders).toEqual(['# T\n\nfirst']);
  });

  it('changed text is rendered afresh: an entry is never stale', () => {
    const { bodies, renders } = counted(4);
    bodies.html('# T\n\nfirst');
    expect(bodies.html('# T\n\nsecond')).toBe('<p>second</p>');
    expect(renders).toHaveLength(2);
  });

  it('holds at most its bound, dropping the least recently used', () => {
    const { bodies, renders } = counted(2);
    bodies.html('a');
    bodies.html('b');
    bodies.html('a');
    bodies.html('c');
    expect(renders).toEqual(['a', 'b', 'c']);
    // a was used after b, so it stayed; b was the least recently used and is rendered again.
    bodies.html('a');
    expect(renders).toEqual(['a', 'b', 'c']);
    expect(bodies.html('b')).toBe('<p>b</p>');
    expect(renders).toEqual(['a', 'b', 'c', 'b']);
  });
});
