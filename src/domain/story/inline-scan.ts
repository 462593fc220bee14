// What one paragraph's inline text costs micromark beyond a linear read, measured on the text of
// the paragraph (its lines after their container prefixes, outside fenced code):
// - closing brackets `]`: every label end micromark meets scans back over the paragraph's events
//   for a `[` to pair with, so `]` after `]` is quadratic (64 KiB of `]` took seconds to render);
// - backtick runs that nothing closes: an opener looks ahead to the paragraph's end for a run of
//   exactly its length, so `\```` per line (always opening 2, never closing 2) is quadratic;
// - `<!` and `<?` that nothing closes: an HTML comment, declaration, CDATA section or processing
//   instruction scans to the paragraph's end for its terminator.
// Each errs on the high side: an escaped character is skipped only with an odd run of
// backslashes before it, and a bracket or `<!` inside an inline code span still counts.

export interface InlineCost {
  labelEnds: number;
  unclosedCodeRuns: number;
  unclosedHtml: number;
}

/** Whether the character at `at` is escaped: an odd number of backslashes right before it. */
function escaped(text: string, at: number): boolean {
  let backslashes = 0;
  for (let index = at - 1; index >= 0 && text[index] === '\\'; index -= 1) backslashes += 1;
  return backslashes % 2 === 1;
}

function unescapedCount(text: string, char: string): number {
  let count = 0;
  for (let at = text.indexOf(char); at !== -1; at = text.indexOf(char, at + 1)) if (!escaped(text, at)) count += 1;
  return count;
}

/**
 * Backtick runs that open a code span no later run closes, read left to right as micromark does:
 * a run opens with its length, less one when its first backtick is escaped, and is closed by the
 * next run of exactly that length (backslashes are literal inside code, so a closer counts whole);
 * the runs between are code. Where the next run of each length is comes from one pass from the end.
 */
function unclosedCodeRuns(text: string): number {
  const runs: Array<{ opens: number; closes: number }> = [];
  for (let at = text.indexOf('`'); at !== -1; ) {
    let end = at + 1;
    while (text[end] === '`') end += 1;
    const closes = end - at;
    runs.push({ opens: escaped(text, at) ? closes - 1 : closes, closes });
    at = text.indexOf('`', end);
  }
  const closer: number[] = [];
  const nextOfLength = new Map<number, number>();
  for (let index = runs.length - 1; index >= 0; index -= 1) {
    closer[index] = nextOfLength.get(runs[index]!.opens) ?? -1;
    nextOfLength.set(runs[index]!.closes, index);
  }
  let unclosed = 0;
  for (let index = 0; index < runs.length; index += 1) {
    if (runs[index]!.opens === 0) continue;
    if (closer[index] === -1) unclosed += 1;
    else index = closer[index]!;
  }
  return unclosed;
}

/**
 * `<!--` before the last `-->`, `<![CDATA[` before the last `]]>`, `<?` before the last `?>`, other
 * `<!` before the last `>` are closed.
 */
function unclosedHtml(text: string): number {
  const lastComment = text.lastIndexOf('-->');
  const lastCdata = text.lastIndexOf(']]>');
  const lastInstruction = text.lastIndexOf('?>');
  const lastAngle = text.lastIndexOf('>');
  let unclosed = 0;
  for (let at = text.indexOf('<'); at !== -1; at = text.indexOf('<', at + 1)) {
    const next = text[at + 1];
    if ((next !== '!' && next !== '?') || escaped(text, at)) continue;
    const closedBy =
      next === '?' ? lastInstruction : text.startsWith('<!--', at) ? lastComment : text.startsWith('<![CDATA[', at) ? lastCdata : lastAngle;
    if (closedBy <= at) unclosed += 1;
  }
  return unclosed;
}

export function measureInlineCost(paragraph: string): InlineCost {
  return {
    labelEnds: unescapedCount(paragraph, ']'),
    unclosedCodeRuns: unclosedCodeRuns(paragraph),
    unclosedHtml: unclosedHtml(paragraph),
  };
}
