// The text of a markdown document as a reading agent takes it in, in passages: paragraphs (and
// headings, table cells), raw HTML, the comment lines of code blocks, and what the rendered page
// hides: HTML comments, link and image titles, alt text. Quotations are marked so the rules can
// tell a phrase discussed from a phrase addressed to the reader.
import type { Nodes, Parents, PhrasingContent, Root } from 'mdast';
import { toString as nodeText } from 'mdast-util-to-string';
import { readerFor } from './code-languages.ts';

/**
 * `prose`: visible text; `hidden`: text the rendered page does not show (an HTML comment, a link
 * title, alt text, an element styled invisible) but an agent reading the markdown does; `code`:
 * a comment line in a code block that is run.
 */
export type Channel = 'prose' | 'hidden' | 'code';

export interface Passage {
  /** Unquoted text: quotations and inline code blanked to spaces, line breaks kept (offset → line). */
  text: string;
  /** The same with inline code spans kept (a path in backticks is still the place a step names). */
  withCode: string;
  /** 1-based line of the markdown on which `text` starts. */
  line: number;
  channel: Channel;
  /** Inside a block quotation introduced as an example (the paragraph before it ends with a colon). */
  example: boolean;
}

const PHRASING_PARENTS = new Set(['paragraph', 'heading', 'tableCell']);
const QUOTE_TOGGLE = '"';
const QUOTE_OPEN = new Set(['\u201c', '\u00ab', '\u201e']);
const QUOTE_CLOSE = new Set(['\u201d', '\u00bb']);
// Styles and attributes that keep an element's text off the rendered page.
const HIDING_HTML = /\bhidden\b|display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0|opacity\s*:\s*0(?![.\d]*[1-9])/i;
const COMMENT_LINE = /^(\s*)(?:#!?|\/\/|--|\/\*+|\*|;|rem\b|::)/i;

const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * A single quote opens a quotation before a word and closes one after it; between two letters
 * (don't, it's) it is an apostrophe and neither.
 */
function quoteMark(char: string, previous: string, next: string, open: boolean): 'open' | 'close' | undefined {
  if (char !== "'" && char !== '\u2018' && char !== '\u2019') return undefined;
  const afterWord = WORD_CHAR.test(previous);
  const beforeWord = WORD_CHAR.test(next);
  if (!open && !afterWord && beforeWord) return 'open';
  if (open && !beforeWord && !/\s/.test(previous)) return 'close';
  return undefined;
}

/** Every character but line breaks blanked: keeps offsets and lines of what is left out. */
const blank = (text: string): string => text.replace(/[^\n]/g, ' ');

const lineOf = (node: Nodes): number => node.position?.start.line ?? 1;

/** Each comment of some HTML (its text, the offset where it starts), found by indexOf: linear on any input. */
function htmlComments(html: string): Array<{ text: string; offset: number }> {
  const comments: Array<{ text: string; offset: number }> = [];
  for (let open = html.indexOf('<!--'); open !== -1; ) {
    const close = html.indexOf('-->', open + 4);
    // An unclosed comment hides the rest of the page.
    comments.push({ text: html.slice(open + 4, close === -1 ? undefined : close), offset: open + 4 });
    if (close === -1) break;
    open = html.indexOf('<!--', close + 3);
  }
  return comments;
}

/** HTML with its comments and tags blanked: the text an element shows. One pass, no backtracking. */
function htmlText(html: string): string {
  let text = '';
  let inTag = false;
  for (let at = 0; at < html.length; at++) {
    const char = html[at] ?? '';
    if (!inTag && html.startsWith('<!--', at)) {
      const close = html.indexOf('-->', at + 4);
      const end = close === -1 ? html.length : close + 3;
      text += blank(html.slice(at, end));
      at = end - 1;
      continue;
    }
    if (char === '<') inTag = true;
    text += inTag && char !== '\n' ? ' ' : char;
    if (char === '>') inTag = false;
  }
  return text;
}

function linesBefore(text: string, offset: number): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}

function htmlPassages(html: string, line: number, example: boolean, passages: Passage[]): void {
  for (const comment of htmlComments(html)) {
    passages.push({
      text: comment.text,
      withCode: comment.text,
      line: line + linesBefore(html, comment.offset),
      channel: 'hidden',
      example,
    });
  }
  const shown = htmlText(html);
  if (shown.trim() !== '')
    passages.push({ text: shown, withCode: shown, line, channel: HIDING_HTML.test(html) ? 'hidden' : 'prose', example });
}

function flattenPhrasing(children: readonly PhrasingContent[]): PhrasingContent[] {
  const flat: PhrasingContent[] = [];
  const stack = [...children].reverse();
  for (let node = stack.pop(); node !== undefined; node = stack.pop()) {
    flat.push(node);
    if ('children' in node)
      for (let index = node.children.length - 1; index >= 0; index--) stack.push(node.children[index] as PhrasingContent);
  }
  return flat;
}

function hiddenAttribute(value: string | null | undefined, node: Nodes, example: boolean, passages: Passage[]): void {
  if (value) passages.push({ text: value, withCode: value, line: lineOf(node), channel: 'hidden', example });
}

/** One paragraph (heading, table cell): its visible text as one passage, its hidden parts as their own. */
function phrasingPassages(parent: Parents, example: boolean, passages: Passage[]): void {
  let text = '';
  let withCode = '';
  let quoted = false;
  let singleQuoted = false;
  let previous = ' ';
  for (const node of flattenPhrasing(parent.children as PhrasingContent[])) {
    if (node.type === 'link' || node.type === 'image' || node.type === 'linkReference' || node.type === 'imageReference') {
      if ('title' in node) hiddenAttribute(node.title, node, example, passages);
      if ('alt' in node) hiddenAttribute(node.alt, node, example, passages);
    }
    if (node.type === 'html') {
      htmlPassages(node.value, lineOf(node), example, passages);
      text += blank(node.value);
      withCode += blank(node.value);
    }
    if (node.type === 'break') {
      text += '\n';
      withCode += '\n';
    }
    if (node.type === 'inlineCode') {
      text += ` ${blank(node.value)} `;
      withCode += quoted ? ` ${blank(node.value)} ` : ` ${node.value} `;
    }
    if (node.type !== 'text') continue;
    const chars = [...node.value];
    chars.forEach((char, index) => {
      const mark = quoteMark(char, previous, chars[index + 1] ?? ' ', singleQuoted);
      if (char === QUOTE_TOGGLE) quoted = !quoted;
      else if (QUOTE_OPEN.has(char)) quoted = true;
      else if (QUOTE_CLOSE.has(char)) quoted = false;
      else if (mark !== undefined) singleQuoted = mark === 'open';
      const isMark = char === QUOTE_TOGGLE || QUOTE_OPEN.has(char) || QUOTE_CLOSE.has(char) || mark !== undefined;
      const shown = quoted || singleQuoted || isMark ? blank(char) : char;
      text += shown;
      withCode += shown;
      previous = char;
    });
  }
  if (text.trim() !== '' || withCode.trim() !== '') passages.push({ text, withCode, line: lineOf(parent), channel: 'prose', example });
}

/** The comment lines of a code block that is run (`# agents: ignore …`); a shown block (text, output) is not read. */
function codePassages(node: Extract<Nodes, { type: 'code' }>, firstLine: number, passages: Passage[]): void {
  if (readerFor((node.lang ?? '').toLowerCase(), node.value) === 'none') return;
  node.value.split('\n').forEach((line, index) => {
    const marker = COMMENT_LINE.exec(line);
    if (marker === null) return;
    const text = blank(marker[0]) + line.slice(marker[0].length);
    passages.push({ text, withCode: text, line: firstLine + index, channel: 'code', example: false });
  });
}

const isFenced = (markdown: string, node: Nodes): boolean =>
  /^[ \t]*(?:```|~~~)/.test(markdown.slice(node.position?.start.offset ?? 0, (node.position?.start.offset ?? 0) + 8));

/** A block quotation right after a paragraph that ends with a colon is an example being shown. */
function introducesExample(previous: Nodes | undefined): boolean {
  return previous?.type === 'paragraph' && nodeText(previous).trimEnd().endsWith(':');
}

export function readPassages(tree: Root, markdown: string): Passage[] {
  const passages: Passage[] = [];
  const stack: Array<{ node: Nodes; example: boolean }> = [{ node: tree, example: false }];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const { node, example } = entry;
    if (node.type === 'code') codePassages(node, lineOf(node) + (isFenced(markdown, node) ? 1 : 0), passages);
    else if (node.type === 'html') htmlPassages(node.value, lineOf(node), example, passages);
    else if (node.type === 'definition') hiddenAttribute(node.title, node, example, passages);
    else if (PHRASING_PARENTS.has(node.type) && 'children' in node) phrasingPassages(node, example, passages);
    else if ('children' in node) {
      for (let index = node.children.length - 1; index >= 0; index--) {
        const child = node.children[index] as Nodes;
        const quote = child.type === 'blockquote' && introducesExample(node.children[index - 1] as Nodes | undefined);
        stack.push({ node: child, example: example || quote });
      }
    }
  }
  return passages;
}
