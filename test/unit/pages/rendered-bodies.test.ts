// The rendered-body cache: keyed by slug and revision (a revision's text never changes), bounded,
// least recently used out first.
import { describe, expect, it } from 'vitest';
import { createRenderedBodies } from '../../../src/http/pages/rendered-bodies.ts';

describe('rendered story bodies', () => {
  it('a new revision of a story is rendered afresh; the same revision is answered from memory', () => {
    const bodies = createRenderedBodies(4);
    expect(bodies.html('s', 1, '# T\n\nfirst')).toBe('<p>first</p>');
    // Same slug and revision: the remembered HTML, even if handed other text (it cannot differ in practice).
    expect(bodies.html('s', 1, '# T\n\nsomething else')).toBe('<p>first</p>');
    expect(bodies.html('s', 2, '# T\n\nsecond')).toBe('<p>second</p>');
  });

  it('holds at most its bound, dropping the least recently used', () => {
    const bodies = createRenderedBodies(2);
    bodies.html('a', 1, 'a1');
    bodies.html('b', 1, 'b1');
    bodies.html('a', 1, 'ignored');
    bodies.html('c', 1, 'c1');
    // a was used after b, so it stayed; b was the least recently used and is rendered again.
    expect(bodies.html('a', 1, 'ignored')).toBe('<p>a1</p>');
    expect(bodies.html('b', 1, 'b again')).toBe('<p>b again</p>');
  });
});
