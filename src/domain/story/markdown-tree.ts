// One parse per text while a story is read. Publish reads the same body, narrative and sections
// several times (splitting it, hashing its canonical form, summarising it, checking its labels,
// scanning its steps), and the worst texts the cost limits accept take up to 1.3 s per parse on a
// 2-core machine: sharing the trees halved publish's CPU for them. Inside withSharedMarkdownTrees each distinct text is parsed
// once; outside it, every call parses. Trees are shared, so readers must not change them.
import type { Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';

let shared: Map<string, Root> | undefined;

/** The CommonMark tree of `text` (mdast-util-from-markdown): the scope's copy when it has one. */
export function markdownTree(text: string): Root {
  const known = shared?.get(text);
  if (known !== undefined) return known;
  const tree = fromMarkdown(text);
  shared?.set(text, tree);
  return tree;
}

/**
 * Runs `read` (synchronous: no other caller's parse can run inside it) with each text parsed at
 * most once; the trees are dropped when it returns. A scope opened inside another is the same scope.
 */
export function withSharedMarkdownTrees<T>(read: () => T): T {
  if (shared !== undefined) return read();
  shared = new Map();
  try {
    return read();
  } finally {
    shared = undefined;
  }
}
