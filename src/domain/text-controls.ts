// Characters no stored text may hold: C0 controls (except tab, line feed and carriage return in
// multi-line text), DEL, C1 controls, lone surrogates and Unicode non-characters (U+FDD0–U+FDEF,
// U+xFFFE and U+xFFFF in every plane). None of them is typed by a person; several are not even
// allowed in XML 1.0, so one of them in a title would make /feed.atom unreadable for every
// reader, and a line break in a one-line field forges log lines. Input is refused (the caller is
// told which field and where); output that must stay well-formed (the Atom feed, the sitemap)
// strips them, for text stored before they were refused; log lines escape them.

/** How a field is written: `multiline` keeps tab, LF and CR (markdown, notes); `single-line` refuses them too. */
export type TextKind = 'multiline' | 'single-line';

const NEVER = String.raw`\p{Cc}\p{Cs}\p{Noncharacter_Code_Point}`;
/** In `u` mode a surrogate class matches only lone surrogates: a valid pair is one code point. */
const FORBIDDEN_MULTILINE = new RegExp(String.raw`(?![\t\n\r])[${NEVER}]`, 'u');
const FORBIDDEN_SINGLE_LINE = new RegExp(`[${NEVER}]`, 'u');
const FORBIDDEN_MULTILINE_ALL = new RegExp(FORBIDDEN_MULTILINE.source, 'gu');
/**
 * What a log line escapes: everything above, tab and line breaks included, plus the Unicode line
 * and paragraph separators and the bidirectional controls, which some viewers show as a new line
 * or as text running the other way.
 */
const LOG_ESCAPED = new RegExp(String.raw`[${NEVER}\u2028\u2029\p{Bidi_Control}]`, 'gu');

export interface ForbiddenChar {
  /** The code point found (a lone surrogate's own value). */
  codePoint: number;
  /** 1-based line and column (in code points) where it stands. */
  line: number;
  column: number;
}

/** The first character this kind of text may not hold, or undefined when the text is clean. */
export function findForbiddenChar(text: string, kind: TextKind = 'multiline'): ForbiddenChar | undefined {
  const match = (kind === 'multiline' ? FORBIDDEN_MULTILINE : FORBIDDEN_SINGLE_LINE).exec(text);
  if (match === null) return undefined;
  const before = text.slice(0, match.index);
  const lineStart = before.lastIndexOf('\n') + 1;
  return {
    codePoint: match[0].codePointAt(0) as number,
    line: before.split('\n').length,
    column: [...before.slice(lineStart)].length + 1,
  };
}

/** U+0007 */
export const codePointName = (codePoint: number): string => `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;

function describeChar(codePoint: number): string {
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
  const allowed =
    kind === 'multiline'
      ? 'only tab, line feed and carriage return are allowed among control characters'
      : 'this is one line of text: no line breaks, tabs or other control characters';
  return `Holds ${codePointName(found.codePoint)} (${describeChar(found.codePoint)}) ${where}; remove it (${allowed}).`;
}

/** A zod `superRefine` check refusing forbidden characters with the fix-it sentence. */
export function refuseForbiddenChars(kind: TextKind) {
  return (value: string, ctx: { addIssue(issue: { code: 'custom'; message: string }): void }): void => {
    const problem = forbiddenCharProblem(value, kind);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  };
}

/** The text without any character no stored text may hold (tab and line breaks kept). */
export function stripForbiddenChars(text: string): string {
  return text.replace(FORBIDDEN_MULTILINE_ALL, '');
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
