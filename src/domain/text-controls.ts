// Characters no stored text may hold: C0 controls (except tab, line feed and carriage return in
// multi-line text), DEL, C1 controls, lone surrogates and Unicode non-characters (U+FDD0–U+FDEF,
// U+xFFFE and U+xFFFF in every plane). None of them is typed by a person; several are not even
// allowed in XML 1.0, so one of them in a title would make /feed.atom unreadable for every
// reader, and a line break in a one-line field forges log lines. And invisible characters
// outside the places a script or an emoji needs them (./hidden-chars.ts): tag characters,
// bidirectional overrides, zero-width characters, runs of variation selectors, which hide text
// from the people and agents who read it. Input is refused (the caller is told which field and
// where); text stored before a character was refused is shown with it made visible
// (revealForbiddenChars: every page, feed, post and MCP answer); log lines escape them.
import { describeHiddenChar, HIDDEN_CANDIDATES, hiddenCharNeeded } from './hidden-chars.ts';

/** How a field is written: `multiline` keeps tab, LF and CR (markdown, notes); `single-line` refuses them too. */
export type TextKind = 'multiline' | 'single-line';

const NEVER = String.raw`\p{Cc}\p{Cs}\p{Noncharacter_Code_Point}`;
/**
 * Every character that may be refused; whether it is depends on where it stands (forbiddenAt).
 * In `u` mode a surrogate class matches only lone surrogates: a valid pair is one code point.
 */
const CANDIDATES = new RegExp(`[${NEVER}${HIDDEN_CANDIDATES}]`, 'gu');
/**
 * What a log line escapes: the controls above, tab and line breaks included, plus the Unicode line
 * and paragraph separators and the bidirectional controls, which some viewers show as a new line
 * or as text running the other way.
 */
const LOG_ESCAPED = new RegExp(String.raw`[${NEVER}\u2028\u2029\p{Bidi_Control}]`, 'gu');
const CONTROL_OR_NONCHARACTER = new RegExp(`^[${NEVER}]$`, 'u');

function forbiddenAt(text: string, index: number, char: string, kind: TextKind): boolean {
  if (CONTROL_OR_NONCHARACTER.test(char)) return kind === 'single-line' || !/^[\t\n\r]$/.test(char);
  return !hiddenCharNeeded(text, index, kind === 'multiline');
}

/** Each character this kind of text may not hold, with where it stands (UTF-16 index), in order. */
function* forbiddenChars(text: string, kind: TextKind): Generator<{ index: number; char: string }> {
  for (const match of text.matchAll(CANDIDATES)) {
    if (forbiddenAt(text, match.index, match[0], kind)) yield { index: match.index, char: match[0] };
  }
}

export interface ForbiddenChar {
  /** The code point found (a lone surrogate's own value). */
  codePoint: number;
  /** 1-based line and column (in code points) where it stands. */
  line: number;
  column: number;
}

/** The first character this kind of text may not hold, or undefined when the text is clean. */
export function findForbiddenChar(text: string, kind: TextKind = 'multiline'): ForbiddenChar | undefined {
  const match = forbiddenChars(text, kind).next().value;
  if (match === undefined) return undefined;
  const before = text.slice(0, match.index);
  const lineStart = before.lastIndexOf('\n') + 1;
  return {
    codePoint: match.char.codePointAt(0) as number,
    line: before.split('\n').length,
    column: [...before.slice(lineStart)].length + 1,
  };
}

/** U+0007 */
export const codePointName = (codePoint: number): string => `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;

function describeControl(codePoint: number): string {
  if (codePoint === 0x09) return 'a tab';
  if (codePoint === 0x0a || codePoint === 0x0d) return 'a line break';
  if (codePoint >= 0xd800 && codePoint <= 0xdfff) return 'half of a UTF-16 surrogate pair';
  if (codePoint <= 0x9f) return 'a control character';
  return 'a Unicode non-character';
}

/** The fix-it sentence for a field holding a forbidden character, or undefined when it is clean. */
export function forbiddenCharProblem(text: string, kind: TextKind = 'multiline'): string | undefined {
  const found = findForbiddenChar(text, kind);
  if (found === undefined) return undefined;
  const where = found.line === 1 ? `at character ${found.column}` : `at line ${found.line}, character ${found.column}`;
  if (!CONTROL_OR_NONCHARACTER.test(String.fromCodePoint(found.codePoint))) {
    const { what, why } = describeHiddenChar(found.codePoint);
    return `Holds ${codePointName(found.codePoint)} (${what}) ${where}; remove it (${why}).`;
  }
  const allowed =
    kind === 'multiline'
      ? 'only tab, line feed and carriage return are allowed among control characters'
      : 'this is one line of text: no line breaks, tabs or other control characters';
  return `Holds ${codePointName(found.codePoint)} (${describeControl(found.codePoint)}) ${where}; remove it (${allowed}).`;
}

/** A zod `superRefine` check refusing forbidden characters with the fix-it sentence. */
export function refuseForbiddenChars(kind: TextKind) {
  return (value: string, ctx: { addIssue(issue: { code: 'custom'; message: string }): void }): void => {
    const problem = forbiddenCharProblem(value, kind);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  };
}

/**
 * Text from the store as it is shown: each character multi-line text may not hold (tab and line
 * breaks kept) replaced by its name in braces, `{U+202E}`. Shown, so nobody reads text that is
 * not there; never dropped, which would hide that it was there. Braces, because they mean
 * nothing to markdown, HTML, XML or JSON: `[U+200B]` before `(url)` would turn into a link.
 */
export function revealForbiddenChars(text: string): string {
  let shown = '';
  let from = 0;
  for (const { index, char } of forbiddenChars(text, 'multiline')) {
    shown += `${text.slice(from, index)}{${codePointName(char.codePointAt(0) as number)}}`;
    from = index + char.length;
  }
  return from === 0 ? text : shown + text.slice(from);
}

/** One physical log line: every control, line break and separator shown as `\n` or `\u{…}`. */
export function escapeForLog(line: string): string {
  return line.replace(LOG_ESCAPED, (char) => {
    if (char === '\n') return '\\n';
    if (char === '\r') return '\\r';
    if (char === '\t') return '\\t';
    return `\\u{${(char.codePointAt(0) as number).toString(16)}}`;
  });
}
