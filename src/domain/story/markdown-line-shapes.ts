// The shapes one line of markdown can have that the pre-scan (markdown-shape.ts) counts: emphasis
// delimiter runs, code fences, setext underlines, GFM table delimiter rows, reference definitions.

/** An open fenced code block: its lines are code, not inline text. `depth`: the containers it is in. */
export interface Fence {
  char: string;
  length: number;
  depth: number;
}

const PUNCTUATION = /[\p{P}\p{S}]/u;
type CharClass = 'space' | 'punctuation' | 'other';
const classOf = (char: string | undefined): CharClass =>
  char === undefined || /\s/.test(char) ? 'space' : PUNCTUATION.test(char) ? 'punctuation' : 'other';

/** Delimiter runs of `*`, `_` or `~` in the line that may open or close emphasis or strikethrough. */
export function emphasisRunsIn(line: string, from: number): number {
  let runs = 0;
  let index = from;
  while (index < line.length) {
    const char = line[index]!;
    if (char === '\\') {
      index += 2;
      continue;
    }
    if (char !== '*' && char !== '_' && char !== '~') {
      index += 1;
      continue;
    }
    let end = index + 1;
    while (line[end] === char) end += 1;
    const before = classOf(line[index - 1]);
    const after = classOf(line[end]);
    const leftFlanking = after !== 'space' && (after !== 'punctuation' || before !== 'other');
    const rightFlanking = before !== 'space' && (before !== 'punctuation' || after !== 'other');
    // An underscore between letters (snake_case) can neither open nor close.
    const intraword = char === '_' && before === 'other' && after === 'other';
    if ((leftFlanking || rightFlanking) && !intraword) runs += 1;
    index = end;
  }
  return runs;
}

/** An opening code fence (```` ``` ```` or `~~~`, at most 3 spaces in): its character and length, or undefined. */
export function openingFence(line: string, from: number): Fence | undefined {
  const match = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line.slice(from));
  if (match === null || (match[1]![0] === '`' && match[2]!.includes('`'))) return undefined;
  return { char: match[1]![0]!, length: match[1]!.length, depth: 0 };
}

export function closesFence(line: string, from: number, fence: Fence): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line.slice(from));
  return match !== null && match[1]![0] === fence.char && match[1]!.length >= fence.length;
}

/** A line of only `=` or only `-` (at most 3 spaces in): under a paragraph's line it makes a setext heading. */
export const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;

export function countOf(line: string, from: number, needle: string): number {
  let count = 0;
  for (let at = line.indexOf(needle, from); at !== -1; at = line.indexOf(needle, at + needle.length)) count += 1;
  return count;
}

/** Columns of a GFM delimiter row (`| --- | :-: |`), or 0 when the line is not one. */
export function delimiterRowColumns(line: string, from: number): number {
  const row = line.slice(from).trim();
  if (!row.includes('-') || !/^[|:\- \t]+$/.test(row)) return 0;
  const cells = row.replace(/^\|/, '').replace(/\|$/, '').split('|');
  if (!cells.every((cell) => /^[ \t]*:?-+:?[ \t]*$/.test(cell))) return 0;
  // Without a pipe, a lone `---` under text is a setext heading, not a table.
  return row.includes('|') ? cells.length : 0;
}

/** `[label]: destination "title"`: the bytes a reference to it repeats, or 0. */
export function definitionBytes(line: string, from: number): number {
  let at = from;
  while (line[at] === ' ' || line[at] === '\t') at += 1;
  if (line[at] !== '[' || line[at + 1] === '^') return 0;
  const close = line.indexOf(']:', at);
  return close === -1 ? 0 : line.length - close;
}
