import { describe, expect, it } from 'vitest';
import { markdownTree, withSharedMarkdownTrees } from '../../../../src/domain/story/markdown-tree.ts';

const TEXT = '# Title\n\nA paragraph with *emphasis*.\n\n## Reproduce this\n\n```sh\nnpm test\n```\n';

describe('markdownTree', () => {
  it('parses the text as CommonMark', () => {
    expect(markdownTree(TEXT).children.map((node) => node.type)).toEqual(['heading', 'paragraph', 'heading', 'code']);
  });

  it('parses every call outside a scope, so no tree outlives its reader', () => {
    expect(markdownTree(TEXT)).not.toBe(markdownTree(TEXT));
  });

  it('parses each distinct text once inside a scope', () => {
    withSharedMarkdownTrees(() => {
      expect(markdownTree(TEXT)).toBe(markdownTree(TEXT));
      expect(markdownTree(`${TEXT}\nMore.`)).not.toBe(markdownTree(TEXT));
    });
  });

  it('shares one scope when a scope opens inside another, and drops the trees when the outer one ends', () => {
    let outer: unknown;
    withSharedMarkdownTrees(() => {
      outer = markdownTree(TEXT);
      withSharedMarkdownTrees(() => expect(markdownTree(TEXT)).toBe(outer));
      expect(markdownTree(TEXT)).toBe(outer);
    });
    expect(markdownTree(TEXT)).not.toBe(outer);
  });

  it('drops the trees when the reader throws', () => {
    let inside: unknown;
    expect(() =>
      withSharedMarkdownTrees(() => {
        inside = markdownTree(TEXT);
        throw new Error('refused');
      }),
    ).toThrow('refused');
    expect(markdownTree(TEXT)).not.toBe(inside);
  });

  it('answers what the reader returns', () => {
    expect(withSharedMarkdownTrees(() => markdownTree(TEXT).children.length)).toBe(4);
  });
});
